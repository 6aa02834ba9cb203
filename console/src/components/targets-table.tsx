import type { TargetHealth } from '../api/api-types.js';
import { StateBadge } from './state-badge.js';
import { TableHead } from './table-head.js';
import { TimeText } from './time-text.js';
import { TableWrap } from './table-wrap.js';

/** Each target's health: circuit, queue, failures and pauses. */
export function TargetsTable(props: { readonly targets: readonly TargetHealth[] }) {
  if (props.targets.length === 0) return <p>No targets.</p>;
  return (
    <TableWrap label="Targets">
      <table>
        <TableHead
          columns={['Target', 'Type', 'Circuit', '#Pending', '#Retrying', '#Dead', 'Last error', 'Paused until']}
        />
        <tbody>
          {props.targets.map((target) => (
            <tr key={target.name}>
              <th scope="row">
                {target.name}
                {!target.inRules && <span class="muted"> (no longer in the rules)</span>}
              </th>
              <td>{target.type ?? '—'}</td>
              <td>
                <StateBadge state={target.circuit} />
                {target.nextProbeAt !== null && (
                  <span class="muted">
                    {' '}
                    probe <TimeText iso={target.nextProbeAt} />
                  </span>
                )}
              </td>
              <td class="num">{target.pending}</td>
              <td class="num">{target.retrying ?? '—'}</td>
              <td class="num">{target.dead}</td>
              <td class={target.lastError ? 'error-text' : undefined}>
                {target.lastError ?? '—'}
                {target.lastErrorAt ? (
                  <span class="muted">
                    {' '}
                    (<TimeText iso={target.lastErrorAt} />)
                  </span>
                ) : null}
              </td>
              <td>{target.pausedUntil === null ? '—' : <TimeText iso={target.pausedUntil} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
