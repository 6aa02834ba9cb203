import { useEffect, useState } from 'preact/hooks';
import type { ReplayRequest } from '../api/admin-client.js';
import type { Delivery } from '../api/api-types.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { DeadLettersTable } from '../components/dead-letters-table.js';
import { ErrorNotice } from '../components/error-notice.js';
import { PagerFooter } from '../components/pager-footer.js';
import { FilterSubmit } from '../components/filter-submit.js';
import { usePagedList } from '../components/use-paged-list.js';
import { useLoad } from '../components/use-load.js';
import { consoleHref } from '../router/match-route.js';
import { useRouter } from '../router/use-router.js';
import { hasScope, type PageProps } from './page-props.js';

interface Pending {
  readonly request: ReplayRequest;
  readonly count: number;
  /** The button that asked: it is disabled during the dry run, so focus has to be given back to it by name. */
  readonly opener: HTMLElement;
}

/**
 * Dead letters, filtered by target, reason and time; with the `replay` scope, replay a selection or everything
 * that matches: the API is asked for a dry run first, and the dialog says how many will be sent.
 */
export function DeadLettersPage(props: PageProps) {
  const router = useRouter();
  const filters: { readonly target?: string; readonly reason?: string; readonly since?: string } = {
    ...(router.query.get('target') && { target: router.query.get('target') ?? '' }),
    ...(router.query.get('reason') && { reason: router.query.get('reason') ?? '' }),
    ...(router.query.get('since') && { since: router.query.get('since') ?? '' }),
  };
  const filterKey = JSON.stringify(filters);
  const list = usePagedList<Delivery>(
    (cursor) => props.client.deadLetters({ ...filters, limit: 100, cursor }),
    filterKey,
  );
  const { rows, loading, load } = list;
  const [actionError, setError] = useState<unknown>(null);
  const error = list.error ?? actionError;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const targets = useLoad(() => props.client.targets(), [props.client]);
  const canReplay = hasScope(props.session, 'replay');

  useEffect(() => setSelected(new Set()), [filterKey]);

  const ask = async (chosen: ReplayRequest, opener: HTMLElement) => {
    setBusy(true);
    setResult(null);
    try {
      const dry = await props.client.replay({ ...chosen, dryRun: true });
      setPending({ request: chosen, count: dry.count, opener });
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    if (pending === null) return;
    setBusy(true);
    try {
      const done = await props.client.replay(pending.request);
      setResult(`${done.count} ${done.count === 1 ? 'delivery' : 'deliveries'} re-queued.`);
      setSelected(new Set());
      await load(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      setPending(null);
    }
  };
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const read = (name: string) => String(form.get(name) ?? '').trim();
    router.navigate(
      consoleHref('dead-letters', { target: read('target'), reason: read('reason'), since: read('since') }),
      {
        replace: true,
      },
    );
  };
  return (
    <>
      <h1>Dead letters</h1>
      <form class="filters" onSubmit={apply} aria-label="Filter dead letters" key={filterKey}>
        <div class="field">
          <label for="dl-target">Target</label>
          <select id="dl-target" name="target" defaultValue={filters.target ?? ''}>
            <option value="">All targets</option>
            {(targets.data?.items ?? []).map((target) => (
              <option key={target.name} value={target.name} selected={target.name === filters.target}>
                {target.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="dl-reason">Reason contains</label>
          <input id="dl-reason" name="reason" defaultValue={filters.reason ?? ''} placeholder="HTTP 503" />
        </div>
        <div class="field">
          <label for="dl-since">Since</label>
          <input id="dl-since" name="since" defaultValue={filters.since ?? ''} placeholder="24h" />
        </div>
        <FilterSubmit />
      </form>
      <ErrorNotice error={error} />
      <p role="status" class={result === null ? 'visually-hidden' : 'notice notice-ok'}>
        {result ?? ''}
      </p>
      {canReplay && (
        <div class="actions">
          <button
            type="button"
            disabled={busy || selected.size === 0}
            onClick={(event) => void ask({ ids: [...selected] }, event.currentTarget)}
          >
            Replay selected ({selected.size})
          </button>
          <button
            type="button"
            disabled={busy || rows.length === 0}
            onClick={(event) => void ask({ state: 'dead', ...filters }, event.currentTarget)}
          >
            Replay all matching
          </button>
        </div>
      )}
      <DeadLettersTable rows={rows} selectable={canReplay} selected={selected} onSelect={setSelected} />
      {!loading && rows.length === 0 && error === null && <p>No dead letters match.</p>}
      <PagerFooter list={list} />
      {pending !== null && (
        <ConfirmDialog
          title="Replay dead letters?"
          confirmLabel={`Send ${pending.count}`}
          busy={busy || pending.count === 0}
          onConfirm={() => void confirm()}
          onCancel={() => setPending(null)}
          opener={pending.opener}
        >
          <p class="replay-count">
            {pending.count} {pending.count === 1 ? 'delivery' : 'deliveries'} will be sent.
          </p>
          <p>They are re-queued with a fresh retry budget; their earlier attempts stay in their history.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
