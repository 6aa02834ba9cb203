import { describe, expect, it } from 'vitest';
import { createBodyBudget } from '../../src/ingest/body-budget.js';

describe('createBodyBudget', () => {
  it('grants bytes up to the limit, refuses past it, and grants again once bytes are given back', () => {
    const budget = createBodyBudget(100, 10);
    expect(budget.take(10, 60)).toBe(true);
    expect(budget.take(10, 40)).toBe(true);
    expect(budget.inFlight()).toBe(100);
    expect(budget.take(50, 1)).toBe(false);
    expect(budget.inFlight()).toBe(100);
    budget.give(60);
    expect(budget.take(50, 60)).toBe(true);
    expect(budget.inFlight()).toBe(100);
  });

  it("always grants a body's first small bytes, even with the shared part used up", () => {
    const budget = createBodyBudget(100, 10);
    expect(budget.take(10, 100)).toBe(true);
    expect(budget.take(0, 6)).toBe(true);
    expect(budget.take(6, 4)).toBe(true);
    expect(budget.take(10, 1)).toBe(false);
    expect(budget.take(0, 11)).toBe(false);
    expect(budget.inFlight()).toBe(110);
  });
});
