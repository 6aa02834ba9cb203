import { describe, expect, it } from 'vitest';
import { formatSilencePreview } from '../../src/cli/format-silence-preview.js';
import type { StoredSilence } from '../../src/store/stored-silence.js';

const silence = { matchers: { event: 'agent.offline' } } as StoredSilence;
const T = Date.UTC(2026, 11, 1, 10);

describe('formatSilencePreview', () => {
  it('says when only the newest events were read, and how far back', () => {
    const text = formatSilencePreview(silence, {
      since: T - 86_400_000,
      until: T,
      scanned: 10_000,
      truncated: true,
      scannedFrom: T - 3_600_000,
      matched: 1,
      groups: [{ kind: 'agent.offline', target: null, events: 1, examples: ['evt_1'] }],
    });
    expect(text).toBe(
      'dry run, nothing stored; the silence would match {"event":"agent.offline"}\n' +
        '1 of the 10000 events received from 2026-11-30T10:00:00.000Z to 2026-12-01T10:00:00.000Z would have been held\n' +
        'only the newest 10000 events were read (back to 2026-12-01T09:00:00.000Z)\n' +
        'KIND           TARGET            EVENTS  EXAMPLES\n' +
        'agent.offline  (routed nowhere)  1       evt_1\n',
    );
  });
});
