import { useEffect, useState } from 'preact/hooks';
import { DELIVERY_STATES, type EventSummary } from '../api/api-types.js';
import { formatTime } from '../format/format-time.js';
import { ErrorNotice } from '../components/error-notice.js';
import { FilterSubmit } from '../components/filter-submit.js';
import { PagerFooter } from '../components/pager-footer.js';
import { TableHead } from '../components/table-head.js';
import { TimeText } from '../components/time-text.js';
import { useLoad } from '../components/use-load.js';
import { usePagedList } from '../components/use-paged-list.js';
import { Link } from '../router/link.js';
import { consoleHref } from '../router/match-route.js';
import { useRouter } from '../router/use-router.js';
import { EVENT_FILTERS, matchesFilters, readEventFilters, type EventFilters } from './event-filters.js';
import type { PageProps } from './page-props.js';
import { revealBidiControls } from '../../../src/templates/reveal-bidi-controls.js';
import { TableWrap } from '../components/table-wrap.js';

const PAGE_SIZE = 50;
/** Live rows are added on top; the list keeps at most this many, so a long shift does not grow the page forever. */
const MAX_ROWS = 1000;

/** Events, newest first, filtered; "Older" pages back by keyset; new events matching the filters appear live. */
export function EventsPage(props: PageProps) {
  const router = useRouter();
  const filters = readEventFilters(router.query);
  const filterKey = JSON.stringify(filters);
  const list = usePagedList<EventSummary>(
    (cursor) => props.client.events({ ...filters, limit: PAGE_SIZE, cursor }),
    filterKey,
  );
  const { rows, setRows, loading, error, cursor, scanned } = list;
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [announce, setAnnounce] = useState('');
  const rules = useLoad(() => props.client.rules(), [props.client]);
  useEffect(() => setFresh(new Set()), [filterKey]);
  useEffect(() => {
    const latest = props.live.latest;
    if (latest === null || loading) return;
    const known = new Set(rows.map((row) => row.id));
    const added = latest.events.filter((event) => !known.has(event.id) && matchesFilters(event, filters));
    if (added.length === 0) return;
    const newestFirst = [...added].sort((a, b) => (a.receivedAt < b.receivedAt ? 1 : -1));
    setRows((previous) => [...newestFirst, ...previous].slice(0, MAX_ROWS));
    setFresh(new Set(added.map((event) => event.id)));
    setAnnounce(`${added.length} new event${added.length === 1 ? '' : 's'}`);
  }, [props.live.seq]);

  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const query: Record<string, string> = {};
    for (const name of EVENT_FILTERS) query[name] = String(form.get(name) ?? '').trim();
    router.navigate(consoleHref('events', query), { replace: true });
  };
  return (
    <>
      <h1>Events</h1>
      <FilterForm
        filters={filters}
        severities={rules.data?.severities ?? []}
        onSubmit={apply}
        key={`${filterKey}${rules.data?.version ?? ''}`}
      />
      <p class="visually-hidden" aria-live="polite" role="status">
        {announce}
      </p>
      <ErrorNotice error={error} />
      <TableWrap label="Events">
        <table class="events-table">
          <caption class="visually-hidden">Events, newest first</caption>
          <TableHead columns={['Received', 'Event', 'Kind', 'Severity', 'Source', 'Routes']} />
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} class={fresh.has(row.id) ? 'fresh' : undefined}>
                <td>
                  <TimeText iso={row.receivedAt} />
                </td>
                <td>
                  <Link href={consoleHref(`events/${encodeURIComponent(row.id)}`)}>
                    {revealBidiControls(row.title ?? row.id)}
                  </Link>
                </td>
                <td>{revealBidiControls(row.kind)}</td>
                <td>
                  <span class={`sev sev-text-${row.severity ?? 'none'}`}>
                    {revealBidiControls(row.severity ?? '—')}
                  </span>
                </td>
                <td>{revealBidiControls(row.source)}</td>
                <td>{row.matchedRoutes.length === 0 ? '—' : row.matchedRoutes.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {!loading && error === null && scanned !== null && cursor !== null && (
        <p class="notice notice-warning" role="status">
          {rows.length === 0 ? 'No match yet' : 'Older matches may exist'}: a search reads at most{' '}
          {scanned.events.toLocaleString('en')} events at a time, and this one has read back to events received{' '}
          {formatTime(scanned.reachedAt)}.
        </p>
      )}
      {!loading && rows.length === 0 && error === null && cursor === null && <p>No events match.</p>}
      <PagerFooter list={list} {...(scanned !== null && { nextLabel: 'Search older events' })} />
    </>
  );
}

function FilterForm(props: {
  readonly filters: EventFilters;
  readonly severities: readonly string[];
  readonly onSubmit: (event: Event) => void;
}) {
  const field = (name: keyof EventFilters, label: string, help?: string) => (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      <input
        id={`filter-${name}`}
        name={name}
        defaultValue={props.filters[name] ?? ''}
        placeholder={help}
        autoComplete="off"
      />
    </div>
  );
  return (
    <form class="filters" onSubmit={props.onSubmit} aria-label="Filter events">
      {field('q', 'Title contains')}
      {field('kind', 'Kind', 'incident.created')}
      <div class="field">
        <label for="filter-severity">Severity</label>
        <select id="filter-severity" name="severity" defaultValue={props.filters.severity ?? ''}>
          <option value="">Any</option>
          {[...props.severities].reverse().map((level) => (
            <option key={level} value={level} selected={level === props.filters.severity}>
              {level}
            </option>
          ))}
        </select>
      </div>
      {field('source', 'Source')}
      {field('since', 'Since', '2h, or ISO date')}
      {field('until', 'Until', 'ISO date')}
      {field('target', 'Delivered to target')}
      <div class="field">
        <label for="filter-state">Delivery state</label>
        <select id="filter-state" name="state" defaultValue={props.filters.state ?? ''}>
          <option value="">Any</option>
          {DELIVERY_STATES.map((state) => (
            <option key={state} value={state} selected={state === props.filters.state}>
              {state}
            </option>
          ))}
        </select>
      </div>
      <FilterSubmit />
    </form>
  );
}
