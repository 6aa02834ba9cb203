import type { EventDelivery } from '../api/api-types.js';
import { formatDuration } from '../format/format-time.js';
import { StateBadge } from './state-badge.js';
import { TimeText } from './time-text.js';
import { revealBidiControls } from '../../../src/templates/reveal-bidi-controls.js';

/** One delivery of an event: its state, why it is held or waiting, every attempt, and its lifecycle references. */
export function DeliveryCard(props: { readonly delivery: EventDelivery; readonly onReplay?: () => void }) {
  const d = props.delivery;
  const history = d.history ?? [];
  // A delivered delivery's last error is a capture miss: the ticket exists, the key's later requests lack its id.
  const captureMiss = d.state === 'delivered' ? d.lastError : null;
  return (
    <article class="card delivery" aria-labelledby={`delivery-${d.id}`}>
      <h3 id={`delivery-${d.id}`}>
        {d.target} <StateBadge state={d.state} />{' '}
        {captureMiss && (
          <span class="held" title={captureMiss}>
            ⚠ capture missed
          </span>
        )}{' '}
        <span class="muted mono">{d.id}</span>
      </h3>
      <dl class="facts">
        <dt>Attempts</dt>
        <dd>{d.attempts}</dd>
        {d.nextAttemptAt !== null && (
          <>
            <dt>Next attempt</dt>
            <dd>
              <TimeText iso={d.nextAttemptAt} />
            </dd>
          </>
        )}
        {d.heldReason && (
          <>
            <dt>Held</dt>
            <dd class="held">{d.heldReason}</dd>
          </>
        )}
        {d.waitingReason && (
          <>
            <dt>Waiting</dt>
            <dd>{d.waitingReason}</dd>
          </>
        )}
        {d.correlationKey && (
          <>
            <dt>Correlation key</dt>
            <dd class="mono">{revealBidiControls(d.correlationKey)}</dd>
          </>
        )}
        {d.lastError && (
          <>
            <dt>{captureMiss ? 'Warning' : 'Last error'}</dt>
            <dd class="error-text">{revealBidiControls(d.lastError)}</dd>
          </>
        )}
      </dl>
      {history.length > 0 && (
        <ol class="timeline" aria-label={`Attempts of ${d.id}`}>
          {history.map((attempt) => (
            <li key={attempt.number} class={`attempt attempt-${attempt.outcome}`}>
              <span class="attempt-head">
                #{attempt.number} <TimeText iso={attempt.startedAt} /> · {attempt.outcome}
                {attempt.statusCode !== null && ` · ${attempt.statusCode}`} · {formatDuration(attempt.durationMs)}
              </span>
              {attempt.detail && <span class="attempt-detail">{revealBidiControls(attempt.detail)}</span>}
            </li>
          ))}
        </ol>
      )}
      {d.references !== undefined && d.references.length > 0 && (
        <>
          <h4>Lifecycle references</h4>
          <ul>
            {d.references.map((reference, index) => (
              <li key={index} class="mono">
                {revealBidiControls(
                  `${reference.key ?? d.correlationKey}: ${Object.entries(reference.values)
                    .map(([name, value]) => `${name}=${value}`)
                    .join(', ')}`,
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {props.onReplay !== undefined && (
        <button type="button" onClick={props.onReplay}>
          Replay this delivery
        </button>
      )}
    </article>
  );
}
