import { formatTable } from '../cli/format-table.js';
import type { DemoRow } from './demo-row.js';

/** The demo's main output: one line per delivery, in the order the events were sent. */
export function formatDeliveryTable(rows: readonly DemoRow[]): string {
  return formatTable(
    ['EVENT', 'SEVERITY', 'TARGET', 'STATE', 'ATTEMPTS', 'ANSWERS'],
    rows.map((row) => [
      row.kind,
      row.severity ?? '-',
      row.target,
      row.state,
      String(row.attempts),
      row.answers.join(', '),
    ]),
  );
}
