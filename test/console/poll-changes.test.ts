import { describe, expect, it } from 'vitest';
import type { Changes } from '../../console/src/api/api-types.js';
import { startChangesPoller } from '../../console/src/live/poll-changes.js';

/** A hand-driven clock and page: timers run only when the test says so. */
function harness(answers: (after: string | undefined) => Promise<Changes>) {
  const timers = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  let visible = true;
  const listeners: (() => void)[] = [];
  const asked: (string | undefined)[] = [];
  const received: Changes[] = [];
  const errors: unknown[] = [];
  const poller = startChangesPoller({
    fetchChanges: (after) => {
      asked.push(after);
      return answers(after);
    },
    onChanges: (changes) => received.push(changes),
    onError: (error) => errors.push(error),
    isVisible: () => visible,
    onVisibilityChange: (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    setTimer: (run, ms) => {
      timers.set(++next, { run, ms });
      return next;
    },
    clearTimer: (timer) => timers.delete(timer as number),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    poller,
    asked,
    received,
    errors,
    timers,
    settle,
    async tick() {
      const [id, timer] = [...timers.entries()][0] ?? [];
      if (id === undefined || timer === undefined) throw new Error('no timer pending');
      timers.delete(id);
      timer.run();
      await settle();
      return timer.ms;
    },
    setVisible(value: boolean) {
      visible = value;
      for (const listener of [...listeners]) listener();
    },
  };
}

const batch = (cursor: string, events = 0): Changes => ({
  events: Array.from({ length: events }, (_, i) => ({ id: `evt_${cursor}_${i}` }) as Changes['events'][number]),
  deliveries: [],
  cursor,
});

describe('startChangesPoller', () => {
  it('learns the cursor first, then polls every 2 s from it, one request at a time', async () => {
    let n = 0;
    const h = harness(async () => batch(`c${++n}`, 1));
    await h.settle();
    expect(h.asked).toEqual([undefined]);
    expect(h.received).toEqual([]);
    expect(h.timers.size).toBe(1);
    expect(await h.tick()).toBe(2000);
    expect(h.asked).toEqual([undefined, 'c1']);
    expect(h.received.map((c) => c.cursor)).toEqual(['c2']);
    expect(h.timers.size).toBe(1);
    h.poller.stop();
    expect(h.timers.size).toBe(0);
  });

  it('asks again after 200 ms while answers say more changed, then every 2 s again', async () => {
    const answers = [
      batch('c1'),
      { ...batch('c2', 100), more: true },
      { ...batch('c3', 100), more: true },
      batch('c4', 3),
    ];
    const h = harness(async () => answers.shift() ?? batch('c5'));
    await h.settle();
    expect(await h.tick()).toBe(2000);
    expect(await h.tick()).toBe(200);
    expect(await h.tick()).toBe(200);
    expect(h.asked).toEqual([undefined, 'c1', 'c2', 'c3']);
    expect(h.received.map((c) => c.events.length)).toEqual([100, 100, 3]);
    expect(h.timers.get([...h.timers.keys()][0] ?? 0)?.ms).toBe(2000);
    h.poller.stop();
  });

  it('stops while the page is hidden and catches up at once when it is shown again', async () => {
    let n = 0;
    const h = harness(async () => batch(`c${++n}`));
    await h.settle();
    h.setVisible(false);
    expect(h.timers.size).toBe(0);
    h.setVisible(true);
    await h.settle();
    expect(h.asked).toEqual([undefined, 'c1']);
    expect(h.timers.size).toBe(1);
    h.poller.stop();
  });

  it('backs off while the API fails, up to 30 s, and says when it works again', async () => {
    let fail = true;
    const h = harness(async () => {
      if (fail) throw new Error('down');
      return batch('c');
    });
    await h.settle();
    const waits = [];
    for (let i = 0; i < 5; i += 1) waits.push(await h.tick());
    expect(waits).toEqual([4000, 8000, 16_000, 30_000, 30_000]);
    fail = false;
    expect(await h.tick()).toBe(30_000);
    expect(h.errors.at(-1)).toBeNull();
    expect(h.timers.get([...h.timers.keys()][0] ?? 0)?.ms).toBe(2000);
    h.poller.stop();
  });
});
