import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dedupeKey } from '../../src/store/sqlite/dedupe-key.js';
import { dedupeKeySql } from '../../src/store/sqlite/dedupe-key-sql.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';
import { makeIngestItem, T0 } from './make-ingest-item.js';

describe('dedupeKey', () => {
  it('is the first 6 bytes of the hash, big-endian and unsigned', () => {
    expect(dedupeKey(Buffer.from('000000000001ff' + '00'.repeat(25), 'hex'))).toBe(1);
    expect(dedupeKey(Buffer.from('ffffffffffff' + '00'.repeat(26), 'hex'))).toBe(2 ** 48 - 1);
    expect(dedupeKey(Buffer.from('0102030405060708' + '00'.repeat(24), 'hex'))).toBe(0x010203040506);
  });

  it('gives the same key in SQL as in the code, for every byte value', () => {
    const db = new Database(':memory:');
    try {
      const sql = db.prepare(`WITH t (h) AS (SELECT ?) SELECT ${dedupeKeySql('h')} FROM t`).pluck();
      const hashes = [Buffer.alloc(32), Buffer.alloc(32, 0xff), ...Array.from({ length: 300 }, () => randomBytes(32))];
      for (let b = 0; b < 256; b += 1) hashes.push(Buffer.alloc(32, b));
      for (const hash of hashes) expect(sql.get(hash)).toBe(dedupeKey(hash));
    } finally {
      db.close();
    }
  });
});

describe('the dedupe lookup through the key', () => {
  it('compares the whole hash and the source on the row: sharing a key makes no duplicate', async () => {
    const journal = await tempSqliteJournal();
    try {
      const store = await journal.open();
      await store.migrate();
      const first = makeIngestItem({ body: '{"n":1}' });
      const other = makeIngestItem({ body: '{"n":2}', receivedAt: T0 + 1 });
      const elsewhere = makeIngestItem({ body: '{"n":1}', source: 'other', receivedAt: T0 + 2 });
      await store.ingest([first]);
      // Give the first event the second body's key, as a 48-bit prefix collision would.
      const db = new Database(journal.path);
      const key = dedupeKey(createHash('sha256').update('{"n":2}').digest());
      db.prepare('UPDATE events SET dedupe_key = ? WHERE id = ?').run(key, first.event.id);
      db.close();
      expect(await store.ingest([other, elsewhere])).toEqual([
        { duplicate: false, eventId: other.event.id, deliveries: 2 },
        { duplicate: false, eventId: elsewhere.event.id, deliveries: 2 },
      ]);
      // And a real copy of the second body finds it through the key it shares with the first.
      const copy = makeIngestItem({ body: '{"n":2}', receivedAt: T0 + 3 });
      expect(await store.ingest([copy])).toEqual([{ duplicate: true, eventId: other.event.id, deliveries: 0 }]);
      await store.close();
    } finally {
      await journal.dispose();
    }
  });
});
