import type { Delivery } from '../api/api-types.js';
import { Link } from '../router/link.js';
import { consoleHref } from '../router/match-route.js';
import { TableHead } from './table-head.js';
import { TimeText } from './time-text.js';
import { revealBidiControls } from '../../../src/templates/reveal-bidi-controls.js';
import { TableWrap } from './table-wrap.js';

/** Dead letters, newest first; with `selectable`, a checkbox per row and one for all shown. */
export function DeadLettersTable(props: {
  readonly rows: readonly Delivery[];
  readonly selectable: boolean;
  readonly selected: ReadonlySet<string>;
  readonly onSelect: (selected: ReadonlySet<string>) => void;
}) {
  const { rows, selected } = props;
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    props.onSelect(next);
  };
  return (
    <TableWrap label="Dead letters">
      <table>
        <caption class="visually-hidden">Dead letters, newest first</caption>
        <TableHead
          columns={['Delivery', 'Target', 'Event', '#Attempts', 'Last error', 'Dead since']}
          {...(props.selectable && {
            lead: (
              <input
                type="checkbox"
                aria-label="Select all shown"
                checked={allSelected}
                onChange={() => props.onSelect(allSelected ? new Set() : new Set(rows.map((row) => row.id)))}
              />
            ),
          })}
        />
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {props.selectable && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.id}`}
                    checked={selected.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </td>
              )}
              <td class="mono">{row.id}</td>
              <td>{row.target}</td>
              <td>
                <Link href={consoleHref(`events/${encodeURIComponent(row.eventId)}`)}>{row.eventId}</Link>
              </td>
              <td class="num">{row.attempts}</td>
              <td class={row.lastError ? 'error-text' : undefined}>{revealBidiControls(row.lastError ?? '—')}</td>
              <td>
                <TimeText iso={row.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
