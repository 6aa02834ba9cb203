import type { PagedList } from './use-paged-list.js';

/** Under a paged listing: "Loading…", or "Older" while there is a next page. */
export function PagerFooter<T>(props: { readonly list: PagedList<T> }) {
  const { loading, cursor, load } = props.list;
  return (
    <div class="actions">
      {loading && <span class="loading">Loading…</span>}
      {cursor !== null && !loading && (
        <button type="button" onClick={() => void load(cursor)}>
          Older
        </button>
      )}
    </div>
  );
}
