import type { Routing } from '../api/api-types.js';
import { TableHead } from './table-head.js';
import { TableWrap } from './table-wrap.js';

/** How an event is (or would be) routed: every route in file order, matched or not, and why not. */
export function RoutingTable(props: { readonly routing: Routing; readonly caption: string }) {
  const { routing } = props;
  const summary =
    routing.targets.length === 0
      ? 'delivered nowhere'
      : `to ${routing.targets.join(', ')}${routing.usedFallback ? ' (fallback: no route matched)' : ''}`;
  return (
    <div class="routing">
      <p>
        Severity <strong>{describeSeverity(routing.severity)}</strong>; {summary}
        {routing.stoppedBy === null ? '' : `; evaluation stopped by ${routing.stoppedBy}`}.
        {routing.silencedBy ? ` Held by silence ${routing.silencedBy.id} (${routing.silencedBy.comment}).` : ''}
      </p>
      <TableWrap label={props.caption}>
        <table>
          <caption>{props.caption}</caption>
          <TableHead columns={['Route', 'Line', 'Outcome', 'Targets', 'Why']} />
          <tbody>
            {routing.routes.map((step) => (
              <tr key={step.route} class={`outcome-${step.outcome}`}>
                <th scope="row">{step.route}</th>
                <td>{step.line}</td>
                <td>{step.outcome}</td>
                <td>{step.to.length === 0 ? '—' : step.to.join(', ')}</td>
                <td>
                  {step.failed ??
                    (step.outcome === 'matched'
                      ? `${step.stop ? 'matched; stop' : 'matched'}${step.mutedBy ? `, muted by ${step.mutedBy}` : ''}`
                      : 'an earlier route stopped evaluation')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {routing.followed !== undefined && routing.followed.length > 0 && (
        <ul class="followed">
          {routing.followed.map((followed) => (
            <li key={followed.target}>
              {followed.target}: {followed.reason}
            </li>
          ))}
        </ul>
      )}
      {routing.requests !== undefined && routing.requests.length > 0 && (
        <ul class="requests">
          {routing.requests.map((request) => (
            <li key={request.target}>
              {request.target}: {request.request} ({request.because})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function describeSeverity(severity: Routing['severity']): string {
  if (severity === null || severity === undefined) return 'none';
  if (typeof severity === 'string') return severity;
  if (severity.unknown) return `${severity.raw ?? '?'} (not a configured level; read as ${severity.level ?? '?'})`;
  return severity.level ?? 'none';
}
