import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { filesystemFaults as faults } from '../store/filesystem-faults.js';

const tempDir = useTempDirs();
const skip = faults.mountSkipReason;

// The store-level tests (test/store/sqlite-store-unavailable.test.ts) cover a full disk, an immutable file and a
// read-only mount; this one drives the same fault through a running daemon's HTTP answers.
describe.skipIf(skip !== undefined)(
  `a running daemon whose journal disk fills up${skip ? ` — SKIPPED: ${skip}` : ''}`,
  () => {
    let daemon: TestDaemon | undefined;
    let mounted: string | undefined;
    afterEach(async () => {
      await daemon?.running.close();
      if (mounted !== undefined) faults.unmount(mounted);
      daemon = undefined;
      mounted = undefined;
    });

    it('answers 503 journal_unavailable (never 200) and stores nothing while full, then recovers by itself', async () => {
      const dir = tempDir();
      faults.mountTmpfs(dir, 2 * 1024 * 1024);
      mounted = dir;
      daemon = await startTestDaemon(dir);
      const post = (n: number) =>
        postWebhook(daemon?.url ?? '', envelope('agent.offline', { hostname: `db-${n}`, pad: 'x'.repeat(2000) }), {
          secret: SOURCE_SECRET,
        });
      expect((await post(1)).status).toBe(200);
      const before = await daemon.counts();

      const filler = path.join(dir, 'filler');
      faults.fill(filler);
      // Commits that fit in journal pages already on disk (a WAL reused after a checkpoint) still succeed and are
      // durable; keep going until one needs a new page. Each 200 must be stored, each 503 must store nothing.
      let acknowledged = 0;
      let refused: Awaited<ReturnType<typeof post>> | undefined;
      for (let n = 2; n < 500 && refused === undefined; n++) {
        const answer = await post(n);
        if (answer.status === 200) acknowledged += 1;
        else refused = answer;
      }
      expect(refused?.status).toBe(503);
      expect(refused?.body).toMatchObject({ error: { code: 'journal_unavailable' } });
      expect(refused?.headers.get('retry-after')).toBe('5');
      for (const n of [600, 601, 602]) expect((await post(n)).status).toBe(503);
      expect((await daemon.counts()).events).toBe(before.events + acknowledged);

      rmSync(filler);
      expect(await daemon.counts()).toEqual(before);
      const accepted = await post(6);
      expect(accepted).toMatchObject({ status: 200, body: { duplicate: false } });
      expect((await daemon.counts()).events).toBe(before.events + 1);
      expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
    });

    it('fails /readyz from the first refused commit until there is room again, and logs the outage once with the path and the free space', async () => {
      const dir = tempDir();
      faults.mountTmpfs(dir, 2 * 1024 * 1024);
      mounted = dir;
      // The largest event is 64 KiB: readiness wants four of them free (256 KiB) before it comes back.
      const started = await startTestDaemon(dir, { config: 'max_body: 64kb' });
      daemon = started;
      const ready = async () => (await fetch(`${started.url}/readyz`)).status;
      const post = (n: number) =>
        postWebhook(started.url, envelope('agent.offline', { hostname: `db-${n}`, pad: 'x'.repeat(2000) }), {
          secret: SOURCE_SECRET,
        });
      expect((await post(1)).status).toBe(200);
      const filler = path.join(dir, 'filler');
      faults.fill(filler);
      let refused = false;
      for (let n = 2; n < 500 && !refused; n++) refused = (await post(n)).status === 503;
      expect(refused).toBe(true);
      // Every later webhook is refused, and /readyz says so each time: its probe's one small page, which still
      // fits, does not clear the failure.
      for (let n = 600; n < 620; n++) {
        expect((await post(n)).status).toBe(503);
        expect(await ready()).toBe(503);
      }
      const outage = started.logs().filter((line) => String(line.message).startsWith('journal commits are failing'));
      expect(outage).toHaveLength(1);
      expect(outage[0]).toMatchObject({
        level: 'error',
        journal: started.dbPath,
        error: expect.stringContaining('SQLITE_FULL'),
      });
      expect(outage[0]?.free_bytes).toBeLessThan(64 * 1024);
      // The outage line says it once; the refused webhooks are counted in metrics, not logged one by one.
      expect(started.logs().filter((line) => line.level !== 'debug' && line.reason === 'journal_unavailable')).toEqual(
        [],
      );

      // Room for a small event but not for four of the largest: still not ready.
      rmSync(filler);
      const { bavail, bsize } = statfsSync(dir);
      writeFileSync(filler, Buffer.alloc(Number(bavail * bsize) - 100 * 1024));
      expect(await ready()).toBe(503);
      // Room again: /readyz comes back by itself, no webhook needed (a load balancer sends none to an unready
      // instance), and says so once.
      rmSync(filler);
      expect(await ready()).toBe(200);
      expect(await ready()).toBe(200);
      const back = started.logs().filter((line) => line.message === 'journal commits succeed again');
      expect(back).toHaveLength(1);
      expect(back[0]).toMatchObject({ level: 'info', journal: started.dbPath, refused: expect.any(Number) });
      expect((await post(700)).status).toBe(200);
    });
  },
);
