import { useRef, useState } from 'preact/hooks';
import type { NewSilence, Silence } from '../api/api-types.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorNotice } from '../components/error-notice.js';
import { SilencesTable } from '../components/silences-table.js';
import { useLoad } from '../components/use-load.js';
import { consoleHref } from '../router/match-route.js';
import { useRouter } from '../router/use-router.js';
import { describeMatch } from '../format/describe-match.js';
import { formatTime } from '../format/format-time.js';
import { hasScope, type PageProps } from './page-props.js';
import { SilenceForm } from './silence-form.js';

const STATUSES = ['active', 'pending', 'expired', 'all'];

/** Silences: who silenced what, why and until when; with the `silence` scope, create, extend and expire them. */
export function SilencesPage(props: PageProps) {
  const router = useRouter();
  const [status, setStatus] = useState('active');
  const silences = useLoad(() => props.client.silences(status), [props.client, status]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const [expiring, setExpiring] = useState<Silence | null>(null);
  // A new form after each silence made, so a second click cannot make the same silence twice.
  const [made, setMade] = useState(0);
  const outcome = useRef<HTMLParagraphElement>(null);
  const canSilence = hasScope(props.session, 'silence');
  const query = router.query;
  const prefill = {
    event: query.get('event') ?? undefined,
    field: query.get('field') ?? undefined,
    value: query.get('value') ?? undefined,
    comment: query.get('comment') ?? undefined,
  };

  const act = async (run: () => Promise<Silence>, done: (silence: Silence) => string) => {
    setBusy(true);
    try {
      const silence = await run();
      setError(null);
      setMessage(done(silence));
      silences.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const create = (silence: NewSilence) =>
    void act(
      () => props.client.createSilence(silence),
      (made) => {
        // A fresh form (the pre-filled values were for this one).
        if (query.toString() !== '') router.navigate(consoleHref('silences'), { replace: true });
        setMade((count) => count + 1);
        return `Silence ${made.id} created, until ${formatTime(made.endsAt)}.`;
      },
    );
  return (
    <>
      <h1>Silences</h1>
      <ErrorNotice error={silences.error} />
      <ErrorNotice error={error} />
      <p role="status" class={message === '' ? 'visually-hidden' : 'notice notice-ok'} ref={outcome} tabIndex={-1}>
        {message}
      </p>
      {canSilence && (
        <SilenceForm prefill={prefill} busy={busy} onCreate={create} key={`${query.toString()}#${made}`} />
      )}
      <section aria-labelledby="silence-list-heading">
        <div class="section-head">
          <h2 id="silence-list-heading">Silences</h2>
          <label>
            Show{' '}
            <select value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        </div>
        <SilencesTable
          silences={silences.data?.items ?? []}
          canSilence={canSilence}
          busy={busy}
          onExpire={setExpiring}
          onExtend={(id, duration) =>
            void act(
              () => props.client.extendSilence(id, duration),
              (s) => `Silence ${s.id} now ends ${formatTime(s.endsAt)}.`,
            )
          }
        />
        {silences.data !== undefined && silences.data.items.length === 0 && <p>No {status} silences.</p>}
      </section>
      {expiring !== null && (
        <ConfirmDialog
          title="Expire this silence?"
          confirmLabel="Expire now"
          busy={busy}
          onConfirm={() => {
            const id = expiring.id;
            setExpiring(null);
            void act(
              () => props.client.expireSilence(id),
              (s) => {
                // The row and its button leave the active list: focus goes to what happened, not to the body.
                queueMicrotask(() => outcome.current?.focus());
                return `Silence ${s.id} expired.`;
              },
            );
          }}
          onCancel={() => setExpiring(null)}
        >
          <p>
            Events matching {describeMatch(expiring.match)} will be delivered again from now on ({expiring.comment}).
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
