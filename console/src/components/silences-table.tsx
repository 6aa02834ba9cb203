import type { Silence } from '../api/api-types.js';
import { describeMatch } from '../format/describe-match.js';
import { StateBadge } from './state-badge.js';
import { TableHead } from './table-head.js';
import { TimeText } from './time-text.js';
import { TableWrap } from './table-wrap.js';

/** How far from now "End in" moves a silence's end. */
const EXTENSIONS = ['1h', '4h', '24h'];

/** Silences with who made them and why; with `canSilence`, buttons to move the end or expire at once. */
export function SilencesTable(props: {
  readonly silences: readonly Silence[];
  readonly canSilence: boolean;
  readonly busy: boolean;
  readonly onExtend: (id: string, duration: string) => void;
  readonly onExpire: (silence: Silence) => void;
}) {
  const { canSilence, busy } = props;
  return (
    <TableWrap label="Silences">
      <table class="silences-table">
        <TableHead
          columns={['Silence', 'Status', 'Matches', 'Until', 'Who and why', ...(canSilence ? ['Actions'] : [])]}
        />
        <tbody>
          {props.silences.map((silence) => (
            <tr key={silence.id}>
              <th scope="row" class="mono">
                {silence.id}
              </th>
              <td>
                <StateBadge state={silence.status} />
              </td>
              <td class="mono">{describeMatch(silence.match)}</td>
              <td>
                <TimeText iso={silence.endsAt} />
              </td>
              <td>
                {silence.createdBy}: {silence.comment}
              </td>
              {canSilence && (
                <td>
                  {silence.status !== 'expired' && (
                    <div class="row-actions">
                      <span class="muted">End in</span>
                      {EXTENSIONS.map((duration) => (
                        <button
                          key={duration}
                          type="button"
                          disabled={busy}
                          aria-label={`End ${silence.id} in ${duration}`}
                          onClick={() => props.onExtend(silence.id, duration)}
                        >
                          {duration}
                        </button>
                      ))}
                      <button type="button" disabled={busy} onClick={() => props.onExpire(silence)}>
                        Expire
                      </button>
                    </div>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
