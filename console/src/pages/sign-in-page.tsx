import { useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import type { AdminClient } from '../api/admin-client.js';
import type { Session } from '../api/api-types.js';

/**
 * Sign-in with an admin key (`switchyard keys new`), exchanged for a session cookie. The key is sent once and not
 * kept by the page; wrong keys are slowed down by the daemon as on the API (429 with the wait).
 */
export function SignInPage(props: {
  readonly client: AdminClient;
  readonly notice: string | null;
  readonly onSignedIn: (session: Session) => void;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await props.client.signIn(key.trim());
      setKey('');
      props.onSignedIn(session);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Switchyard console</h1>
      <form class="card" onSubmit={submit}>
        <h2>Sign in</h2>
        {props.notice !== null && (
          <p class="notice notice-warning" role="status">
            {props.notice}
          </p>
        )}
        <label for="admin-key">Admin API key</label>
        <input
          id="admin-key"
          name="key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          placeholder="sy_..."
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
          aria-describedby="admin-key-help"
        />
        <p id="admin-key-help" class="help">
          A key made with <code>switchyard keys new</code>. It opens a session that expires; the page does not keep the
          key.
        </p>
        {error !== null && (
          <p class="notice notice-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
