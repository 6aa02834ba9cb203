import { rmSync } from 'node:fs';
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
      // /readyz is not asserted here: its write probe commits one small page, which may still fit where an
      // event does not (docs/operations.md). Ingest itself never answers 200 without its commit.
      expect((await daemon.counts()).events).toBe(before.events + acknowledged);

      rmSync(filler);
      expect(await daemon.counts()).toEqual(before);
      const accepted = await post(6);
      expect(accepted).toMatchObject({ status: 200, body: { duplicate: false } });
      expect((await daemon.counts()).events).toBe(before.events + 1);
      expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
    });
  },
);
