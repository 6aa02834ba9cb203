import { useState } from 'preact/hooks';
import type { NewSilence, SilenceMatch } from '../api/api-types.js';
import type { SilencePrefill } from './silence-prefill.js';

const DURATIONS = ['30m', '1h', '2h', '4h', '8h', '24h', '7d'];

/** The form that creates a silence: which events (kind, optional severity and one field condition), how long, why. */
export function SilenceForm(props: {
  readonly prefill: Partial<SilencePrefill>;
  readonly busy: boolean;
  readonly onCreate: (silence: NewSilence) => void;
}) {
  const [operator, setOperator] = useState<'equals' | 'matches'>('equals');
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const read = (name: string) => String(form.get(name) ?? '').trim();
    const field = read('field');
    const severity = read('severity');
    const match: SilenceMatch = {
      event: read('event'),
      ...(severity !== '' && { severity: { at_least: severity } }),
      ...(field !== '' && { where: [{ field, [operator]: read('value') }] }),
    };
    props.onCreate({
      match,
      duration: read('duration'),
      comment: read('comment'),
      on_expiry: read('on_expiry') === 'deliver_unresolved' ? 'deliver_unresolved' : 'drop',
    });
  };
  const p = props.prefill;
  return (
    <form class="card silence-form" onSubmit={submit} aria-labelledby="new-silence-heading">
      <h2 id="new-silence-heading">New silence</h2>
      <div class="form-grid">
        <label for="sil-event">Event kind (glob)</label>
        <input id="sil-event" name="event" required defaultValue={p.event ?? ''} placeholder="agent.*" />
        <label for="sil-severity">Severity at least (optional)</label>
        <input id="sil-severity" name="severity" placeholder="high" />
        <label for="sil-field">Field (optional)</label>
        <input id="sil-field" name="field" defaultValue={p.field ?? ''} placeholder="data.host" />
        <label for="sil-operator">Condition</label>
        <select
          id="sil-operator"
          value={operator}
          onChange={(event) => setOperator(event.currentTarget.value === 'matches' ? 'matches' : 'equals')}
        >
          <option value="equals">equals</option>
          <option value="matches">matches (regular expression)</option>
        </select>
        <label for="sil-value">Value</label>
        <input id="sil-value" name="value" defaultValue={p.value ?? ''} />
        <label for="sil-duration">Duration</label>
        <select id="sil-duration" name="duration" defaultValue="1h">
          {DURATIONS.map((duration) => (
            <option key={duration} value={duration} selected={duration === '1h'}>
              {duration}
            </option>
          ))}
        </select>
        <label for="sil-expiry">When it ends</label>
        <select id="sil-expiry" name="on_expiry" defaultValue="drop">
          <option value="drop">drop what it held</option>
          <option value="deliver_unresolved">deliver what is still unresolved</option>
        </select>
        <label for="sil-comment">Why (comment)</label>
        <input id="sil-comment" name="comment" required defaultValue={p.comment ?? ''} placeholder="patching db-1" />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={props.busy}>
          Create silence
        </button>
      </div>
    </form>
  );
}
