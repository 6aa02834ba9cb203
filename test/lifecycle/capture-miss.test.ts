import { describe, expect, it } from 'vitest';
import { captureMissOf, describeCaptureMiss } from '../../src/lifecycle/capture-miss.js';

describe('capture misses', () => {
  it('are described one part per reason, the names of each together', () => {
    expect(
      describeCaptureMiss([
        { name: 'issue', reason: 'the answer is not JSON' },
        { name: 'location', reason: 'no header location in the answer' },
        { name: 'number', reason: 'the answer is not JSON' },
      ]),
    ).toBe('capture missed: issue, number (the answer is not JSON); location (no header location in the answer)');
  });

  it("are a delivered delivery's warning; the same text on a pending or dead one is not", () => {
    const lastError = 'capture missed: issue (no body.issue.id in the answer)';
    expect(captureMissOf({ state: 'delivered', lastError })).toBe(lastError);
    expect(captureMissOf({ state: 'pending', lastError })).toBeNull();
    expect(captureMissOf({ state: 'delivered', lastError: null })).toBeNull();
    expect(captureMissOf({ state: 'dead', lastError: 'HTTP 400: capture missed: x' })).toBeNull();
  });
});
