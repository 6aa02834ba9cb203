import { useEffect, useState } from 'preact/hooks';
import { DELIVERY_STATES } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { EventsChart } from '../components/events-chart.js';
import { KindTotals } from '../components/kind-totals.js';
import { ProblemList } from '../components/problem-list.js';
import { TargetsTable } from '../components/targets-table.js';
import { TimeText } from '../components/time-text.js';
import { useLoad } from '../components/use-load.js';
import { Link } from '../router/link.js';
import { consoleHref } from '../router/match-route.js';
import type { PageProps } from './page-props.js';

const HOURS = [1, 6, 24, 48];
/** Live changes refresh the overview, but not more often than this: it is the heaviest read of the console. */
const MIN_REFRESH_MS = 10_000;

/** What is happening at a glance: events over time, deliveries by state, each target's health, the rules. */
export function OverviewPage(props: PageProps) {
  const [hours, setHours] = useState(6);
  const overview = useLoad(() => props.client.overview(hours), [props.client, hours]);
  const [lastLoad, setLastLoad] = useState(0);
  useEffect(() => {
    if (props.live.seq === 0 || Date.now() - lastLoad < MIN_REFRESH_MS) return;
    setLastLoad(Date.now());
    overview.reload();
    // Reload on a new batch of changes only.
  }, [props.live.seq]);
  const data = overview.data;
  return (
    <>
      <h1>Overview</h1>
      <ErrorNotice error={overview.error} />
      {data === undefined ? (
        !overview.error && <p class="loading">Loading…</p>
      ) : (
        <>
          <section aria-labelledby="events-heading" class="card">
            <div class="section-head">
              <h2 id="events-heading">Events</h2>
              <label>
                Period{' '}
                <select value={hours} onChange={(event) => setHours(Number(event.currentTarget.value))}>
                  {HOURS.map((h) => (
                    <option key={h} value={h}>
                      last {h} h
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <EventsChart
              counts={data.eventsPerMinute}
              now={data.now}
              hours={hours}
              bucketMinutes={data.bucketMinutes}
            />
            <KindTotals counts={data.eventsPerMinute} />
          </section>
          <div class="columns">
            <section aria-labelledby="deliveries-heading" class="card">
              <h2 id="deliveries-heading">Deliveries by state</h2>
              <p class="help">Created in the last {hours} h.</p>
              <dl class="counts">
                {DELIVERY_STATES.map((state) => (
                  <div
                    key={state}
                    class={`count count-${state}${(data.deliveriesByState[state] ?? 0) > 0 ? ' some' : ''}`}
                  >
                    <dt>{state}</dt>
                    <dd>{data.deliveriesByState[state] ?? 0}</dd>
                  </div>
                ))}
              </dl>
              <p>
                <Link href={consoleHref('dead-letters')}>Dead letters</Link>
              </p>
            </section>
            <section aria-labelledby="rules-heading" class="card">
              <h2 id="rules-heading">Rules</h2>
              <p>
                Version <code class="rules-version">{data.rules.version}</code>, loaded{' '}
                <TimeText iso={data.rules.loadedAt} />.
              </p>
              {data.rules.lastReload === null ? (
                <p>No reload since the daemon started.</p>
              ) : data.rules.lastReload.ok ? (
                <p>
                  Last reload <TimeText iso={data.rules.lastReload.at} /> succeeded.
                </p>
              ) : (
                <div class="notice notice-error" role="status">
                  <p>
                    The last reload (<TimeText iso={data.rules.lastReload.at} />) failed; the rules above stay in force:
                  </p>
                  <ProblemList problems={data.rules.lastReload.problems} />
                </div>
              )}
            </section>
          </div>
          <section aria-labelledby="targets-heading" class="card">
            <h2 id="targets-heading">Targets</h2>
            <TargetsTable targets={data.targets} />
          </section>
        </>
      )}
    </>
  );
}
