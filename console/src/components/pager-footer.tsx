import type { PagedList } from './use-paged-list.js';

/** Under a paged listing: "Loading…", or a button for the next page ("Older" unless told) while there is one. */
export function PagerFooter<T>(props: { readonly list: PagedList<T>; readonly nextLabel?: string }) {
  const { loading, cursor, load } = props.list;
  return (
    <div class="actions">
      {loading && <span class="loading">Loading…</span>}
      {cursor !== null && !loading && (
        <button type="button" onClick={() => void load(cursor)}>
          {props.nextLabel ?? 'Older'}
        </button>
      )}
    </div>
  );
}
