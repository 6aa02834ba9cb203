import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTurnEnd } from '../../src/ingest/at-turn-end.js';
import { createBodyBudget } from '../../src/ingest/body-budget.js';
import { readBody } from '../../src/ingest/read-body.js';

// A request as readBody sees it: events, headers, pause(). The real-socket cases (a stalled sender's 408, a
// body over the limit) are in ingest-reject.test.ts and ingest-body-budget.test.ts.
const fakeRequest = () => Object.assign(new EventEmitter(), { headers: {}, pause() {} }) as unknown as IncomingMessage;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
afterEach(() => vi.restoreAllMocks());

describe('readBody: the body timer, set at the end of the turn', () => {
  it('sets no timer for a body that ends in the same turn, and gives the budget back', async () => {
    const budget = createBodyBudget(1 << 20, 1024);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const request = fakeRequest();
    const read = readBody(request, 1 << 20, 100, budget, createTurnEnd());
    process.nextTick(() => {
      request.emit('data', Buffer.from('{}'));
      request.emit('end');
    });
    expect((await read).toString()).toBe('{}');
    await nextTurn();
    expect(timers).not.toHaveBeenCalled();
    expect(budget.inFlight()).toBe(0);
  });

  it('clears the timer of a body that ends in a later turn, and gives the budget back once', async () => {
    const budget = createBodyBudget(1 << 20, 1024);
    const request = fakeRequest();
    const read = readBody(request, 1 << 20, 60, budget, createTurnEnd());
    await nextTurn();
    request.emit('data', Buffer.from('{}'));
    setTimeout(() => request.emit('end'), 20);
    expect((await read).length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100)); // past the timeout: a live timer would have fired
    expect(budget.inFlight()).toBe(0);
  });

  it('cuts a stalled body off timeoutMs after the read began, not after the turn ended', async () => {
    const budget = createBodyBudget(1 << 20, 1024);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const request = fakeRequest();
    const began = performance.now();
    const read = readBody(request, 1 << 20, 200, budget, createTurnEnd());
    const until = performance.now() + 120; // a long turn: the timer is set at least 120 ms into the 200
    while (performance.now() < until);
    request.emit('data', Buffer.from('{'));
    await expect(read).rejects.toMatchObject({ code: 'body_timeout', status: 408 });
    expect(timers).toHaveBeenCalledTimes(1);
    expect(timers.mock.calls[0]?.[1]).toBeLessThanOrEqual(80);
    expect(performance.now() - began).toBeGreaterThanOrEqual(195);
    expect(budget.inFlight()).toBe(0);
  });

  it('sets no timer for a request aborted before the turn ends', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const request = fakeRequest();
    const read = readBody(request, 1 << 20, 100, createBodyBudget(1 << 20, 1024), createTurnEnd());
    request.emit('aborted');
    await expect(read).rejects.toMatchObject({ code: 'body_aborted' });
    await nextTurn();
    expect(timers).not.toHaveBeenCalled();
  });
});
