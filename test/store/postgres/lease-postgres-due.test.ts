import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { leasePostgresDue } from '../../../src/store/postgres/lease-postgres-due.js';

describe('leasePostgresDue', () => {
  it('sends the lease unnamed, so PostgreSQL plans it for the journal as it is, never with a generic plan kept', async () => {
    const sent: pg.QueryConfig[] = [];
    const client = {
      query: async (config: pg.QueryConfig) => {
        sent.push(config);
        return { rows: [] };
      },
    } as unknown as pg.PoolClient;
    const request = { target: 't', now: 1_000, limit: 5, leaseMs: 60_000 };
    await leasePostgresDue(client, request);
    await leasePostgresDue(client, request, false);
    // A named statement's generic plan, made on a nearly empty journal, scanned the whole table per claim.
    expect(sent.map((config) => config.name)).toEqual([undefined, undefined]);
    expect(sent[0]?.values).toEqual(['t', 1_000, 5, expect.any(String), 61_000]);
  });
});
