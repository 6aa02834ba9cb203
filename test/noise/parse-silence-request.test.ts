import { describe, expect, it } from 'vitest';
import { parseNewSilence, parseSilenceChange } from '../../src/noise/parse-silence-request.js';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';
import { TARGETS_YAML } from '../rules/support/targets-yaml.js';

const rules = rulesLoader().compile(`${TARGETS_YAML}
routes:
  - { name: all, to: [a] }
`);
const NOW = Date.parse('2026-12-01T10:00:00Z');
const HOUR = 3_600_000;
const base = { match: { event: 'agent.*' }, comment: 'patching', created_by: 'alice' };
const parse = (input: unknown) => parseNewSilence(input, { now: NOW, id: 'sil_1', rules });

function refusal(run: () => unknown): SwitchyardError {
  try {
    run();
  } catch (error) {
    if (error instanceof SwitchyardError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseNewSilence', () => {
  it('starts now by default and ends after the duration, or at ends_at', () => {
    expect(parse({ ...base, duration: '2h' })).toEqual({
      id: 'sil_1',
      matchers: { event: 'agent.*' },
      startsAt: NOW,
      endsAt: NOW + 2 * HOUR,
      comment: 'patching',
      createdBy: 'alice',
      onExpiry: 'drop',
      createdAt: NOW,
      updatedAt: NOW,
      releasedAt: null,
    });
    const later = parse({
      ...base,
      starts_at: '2026-12-24T22:00:00+01:00',
      ends_at: '2026-12-25T06:00:00+01:00',
      on_expiry: 'deliver_unresolved',
    });
    expect([later.startsAt, later.endsAt, later.onExpiry]).toEqual([
      Date.parse('2026-12-24T21:00:00Z'),
      Date.parse('2026-12-25T05:00:00Z'),
      'deliver_unresolved',
    ]);
  });

  it.each([
    [{ ...base }, 'exactly one of ends_at and duration'],
    [{ ...base, duration: '1h', ends_at: '2026-12-01T12:00:00Z' }, 'exactly one of ends_at and duration'],
    [{ ...base, duration: 'soon' }, 'duration'],
    [{ ...base, duration: '1h', match: {} }, 'match'],
    [{ ...base, duration: '1h', color: 'red' }, 'color'],
    [{ match: { event: 'agent.*' }, duration: '1h', created_by: 'alice' }, 'comment'],
    [{ ...base, ends_at: '2026-12-01T09:00:00Z' }, 'already have ended'],
    [{ ...base, ends_at: '2026-12-02 10:00' }, 'ISO 8601'],
    [{ ...base, starts_at: '2026-12-02T10:00:00Z', ends_at: '2026-12-02T09:00:00Z' }, 'end after it starts'],
    [{ ...base, duration: '400d' }, 'at most 366 days'],
    [{ ...base, duration: '1h', match: { severity: { at_least: 'apocalyptic' } } }, 'apocalyptic'],
    [{ ...base, duration: '1h', match: { event: 'agent.[' } }, 'invalid event pattern'],
    ['not an object', 'must be a map'],
  ])('refuses %j with invalid_silence (%s)', (input, words) => {
    const error = refusal(() => parse(input));
    expect(error.code).toBe('invalid_silence');
    expect(error.status).toBe(400);
    expect(error.message).toContain(words);
  });
});

describe('parseSilenceChange', () => {
  const silence = parse({ ...base, duration: '2h' });

  it('expires now, extends by a duration from now, moves the end, or re-words', () => {
    expect(parseSilenceChange({ expire: true }, silence, NOW + HOUR)).toEqual({
      endsAt: NOW + HOUR,
      comment: undefined,
    });
    expect(parseSilenceChange({ duration: '4h' }, silence, NOW + HOUR).endsAt).toBe(NOW + 5 * HOUR);
    expect(parseSilenceChange({ ends_at: '2026-12-01T18:00:00Z' }, silence, NOW).endsAt).toBe(NOW + 8 * HOUR);
    expect(parseSilenceChange({ comment: 'still patching' }, silence, NOW)).toEqual({
      endsAt: undefined,
      comment: 'still patching',
    });
  });

  it('refuses an empty change, two ends at once, and changing the end of an ended silence', () => {
    expect(refusal(() => parseSilenceChange({}, silence, NOW)).code).toBe('invalid_silence');
    expect(refusal(() => parseSilenceChange({ expire: true, duration: '1h' }, silence, NOW)).message).toContain(
      'at most one',
    );
    expect(refusal(() => parseSilenceChange({ ends_at: '2026-12-01T09:00:00Z' }, silence, NOW)).message).toContain(
      'already have ended',
    );
    const ended = refusal(() => parseSilenceChange({ expire: true }, silence, NOW + 3 * HOUR));
    expect([ended.code, ended.status]).toEqual(['silence_ended', 409]);
  });
});
