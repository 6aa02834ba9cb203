import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { attemptDeadline } from '../../../src/delivery/targets/attempt-deadline.js';

describe('attemptDeadline', () => {
  it('aborts when the time is up, and says so', async () => {
    const deadline = attemptDeadline(new AbortController().signal, 20);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
    expect(deadline.timedOut()).toBe(true);
    deadline.dispose();
  });

  it("aborts with the engine's signal, which is not a timeout", () => {
    const engine = new AbortController();
    const deadline = attemptDeadline(engine.signal, 10_000);
    engine.abort(new Error('shutdown'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(false);
    deadline.dispose();
  });

  it('leaves no listener on the long-lived engine signal once disposed', () => {
    const engine = new AbortController();
    for (let i = 0; i < 100; i += 1) attemptDeadline(engine.signal, 10_000).dispose();
    expect(getEventListeners(engine.signal, 'abort')).toHaveLength(0);
  });
});
