import type { MinuteCount } from '../api/api-types.js';

/** Most kinds listed under the chart; the rest are summed as "other kinds". */
const SHOWN = 8;

/** Events of the period by kind, most first: the chart stacks severities, this says which kinds they were. */
export function KindTotals(props: { readonly counts: readonly MinuteCount[] }) {
  const totals = new Map<string, number>();
  for (const row of props.counts) totals.set(row.kind, (totals.get(row.kind) ?? 0) + row.count);
  if (totals.size === 0) return null;
  const sorted = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const rest = sorted.slice(SHOWN).reduce((sum, [, count]) => sum + count, 0);
  return (
    <p class="kinds">
      By kind:{' '}
      {sorted
        .slice(0, SHOWN)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ')}
      {rest > 0 && `, other kinds ${rest}`}
    </p>
  );
}
