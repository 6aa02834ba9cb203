import { flattenHeaderText } from '../delivery/targets/flatten-header-text.js';
import type { SilencePreview } from '../noise/preview-silence.js';
import type { StoredSilence } from '../store/stored-silence.js';
import { formatTable } from './format-table.js';

/** What `silence add --dry-run` prints: the stored form, the counts, the bound if hit, a table by kind and target. */
export function formatSilencePreview(silence: StoredSilence, preview: SilencePreview): string {
  const time = (ms: number) => new Date(ms).toISOString();
  const lines = [
    `dry run, nothing stored; the silence would match ${JSON.stringify(silence.matchers)}`,
    `${preview.matched} of the ${preview.scanned} events received from ${time(preview.since)} to ${time(preview.until)} would have been held`,
  ];
  if (preview.truncated) {
    lines.push(
      `only the newest ${preview.scanned} events were read (back to ${time(preview.scannedFrom ?? preview.since)})`,
    );
  }
  // Kinds come from the network: never let one write escape sequences to the operator's terminal.
  const rows = preview.groups.map((g) => [
    flattenHeaderText(g.kind, 80),
    g.target ?? '(routed nowhere)',
    String(g.events),
    g.examples.join(' '),
  ]);
  return `${lines.join('\n')}\n${rows.length === 0 ? '' : formatTable(['KIND', 'TARGET', 'EVENTS', 'EXAMPLES'], rows)}`;
}
