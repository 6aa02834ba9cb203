import { useEffect, useState } from 'preact/hooks';
import type { DigestFacts, EventDetail } from '../api/api-types.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { DeliveryCard } from '../components/delivery-card.js';
import { ErrorNotice } from '../components/error-notice.js';
import { RoutingTable } from '../components/routing-table.js';
import { TimeText } from '../components/time-text.js';
import { useLoad } from '../components/use-load.js';
import { Link } from '../router/link.js';
import { consoleHref } from '../router/match-route.js';
import { useRouter } from '../router/use-router.js';
import { hasScope, type PageProps } from './page-props.js';
import { silencePrefill } from './silence-prefill.js';
import { revealBidiControls } from '../../../src/templates/reveal-bidi-controls.js';

/** One event: its envelope, how it was routed and why, and each delivery's history; it follows live changes. */
export function EventPage(props: PageProps & { readonly id: string }) {
  const router = useRouter();
  const event = useLoad(() => props.client.event(props.id), [props.client, props.id]);
  const [replaying, setReplaying] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  useEffect(() => {
    const latest = props.live.latest;
    if (latest !== null && latest.deliveries.some((delivery) => delivery.eventId === props.id)) event.reload();
  }, [props.live.seq]);
  const data = event.data;
  const canReplay = hasScope(props.session, 'replay');
  const replay = async () => {
    if (replaying === null) return;
    try {
      await props.client.replayOne(replaying);
      setActionError(null);
    } catch (error) {
      setActionError(error);
    }
    setReplaying(null);
    event.reload();
  };
  return (
    <>
      <p class="breadcrumb">
        <Link href={consoleHref('events')}>Events</Link> / <span class="mono">{props.id}</span>
      </p>
      <ErrorNotice error={event.error} />
      <ErrorNotice error={actionError} />
      {data === undefined ? (
        !event.error && <p class="loading">Loading…</p>
      ) : (
        <>
          <h1>{revealBidiControls(data.title ?? data.kind)}</h1>
          <EventFacts event={data} />
          <div class="actions">
            <Link href={consoleHref('rule-tester', { event: data.id })}>Test in the rule tester</Link>
            {hasScope(props.session, 'silence') && (
              <button
                type="button"
                onClick={() => router.navigate(consoleHref('silences', { new: '1', ...silencePrefill(data) }))}
              >
                Silence events like this
              </button>
            )}
          </div>
          {data.digest ? (
            <DigestSection digest={data.digest} />
          ) : (
            <section aria-labelledby="routing-heading">
              <h2 id="routing-heading">Routing</h2>
              <RulesVersions event={data} />
              {data.explanation ? (
                <RoutingTable routing={data.explanation} caption="Routes under the rules in force" />
              ) : (
                <p>No explanation available.</p>
              )}
            </section>
          )}
          <section aria-labelledby="deliveries-heading">
            <h2 id="deliveries-heading">Deliveries ({data.deliveries.length})</h2>
            {data.deliveries.length === 0 && <p>No deliveries: the event was routed nowhere.</p>}
            {data.deliveries.map((delivery) => (
              <DeliveryCard
                key={delivery.id}
                delivery={delivery}
                {...(canReplay && delivery.state === 'dead' ? { onReplay: () => setReplaying(delivery.id) } : {})}
              />
            ))}
          </section>
          <section aria-labelledby="envelope-heading">
            <h2 id="envelope-heading">Envelope</h2>
            <pre class="code" tabIndex={0} aria-label="Envelope as JSON">
              {revealBidiControls(JSON.stringify(data.body, null, 2))}
            </pre>
          </section>
        </>
      )}
      {replaying !== null && (
        <ConfirmDialog
          title="Replay this delivery?"
          confirmLabel="Replay"
          onConfirm={() => void replay()}
          onCancel={() => setReplaying(null)}
        >
          <p>1 delivery will be sent ({replaying}).</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function EventFacts(props: { readonly event: EventDetail }) {
  const e = props.event;
  return (
    <dl class="facts">
      <dt>Id</dt>
      <dd class="mono">{e.id}</dd>
      <dt>Kind</dt>
      <dd>{revealBidiControls(e.kind)}</dd>
      <dt>Severity</dt>
      <dd>{revealBidiControls(e.severity ?? '—')}</dd>
      <dt>Source</dt>
      <dd>{revealBidiControls(e.source)}</dd>
      <dt>Occurred</dt>
      <dd>{revealBidiControls(e.occurredAt)}</dd>
      <dt>Received</dt>
      <dd>
        <TimeText iso={e.receivedAt} />
      </dd>
      <dt>Matched routes</dt>
      <dd>{e.matchedRoutes.length === 0 ? 'none' : e.matchedRoutes.join(', ')}</dd>
    </dl>
  );
}

function RulesVersions(props: { readonly event: EventDetail }) {
  const explanation = props.event.explanation;
  const atIngest = explanation?.rulesVersionAtIngest ?? props.event.rulesVersion;
  const now = explanation?.rulesVersionNow ?? explanation?.rules?.version;
  if (explanation?.sameRules === false) {
    return (
      <p class="notice notice-warning">
        Routed at ingest under rules <code>{atIngest}</code>; the rules in force are now <code>{now}</code>, so the
        explanation below may differ from what happened.
      </p>
    );
  }
  return (
    <p>
      Routed under rules <code>{atIngest}</code>, still in force.
    </p>
  );
}

/** A digest is made by its route for one target, not routed by the rules: what it collected, each event linked. */
function DigestSection(props: { readonly digest: DigestFacts }) {
  const d = props.digest;
  const omitted = d.count - d.eventIds.length;
  return (
    <section aria-labelledby="digest-heading">
      <h2 id="digest-heading">Digest</h2>
      <p>
        {d.count} event{d.count === 1 ? '' : 's'} grouped by route <strong>{d.route}</strong> for{' '}
        <strong>{d.target}</strong> (<span class="mono">{d.digestId}</span>); a digest is sent to its route's target,
        not routed by the rules.
      </p>
      <ul class="digest-events">
        {d.eventIds.map((eventId) => (
          <li key={eventId}>
            <Link href={consoleHref(`events/${encodeURIComponent(eventId)}`)}>
              <span class="mono">{eventId}</span>
            </Link>
          </li>
        ))}
      </ul>
      {omitted > 0 && <p>and {omitted} more, not carried by the digest.</p>}
    </section>
  );
}
