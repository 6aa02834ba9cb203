import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { watchWorkerThreads } from '../helpers/watch-worker-threads.js';

const tempDir = useTempDirs();

// Issue 11's `store.sqlite.thread`: the journal thread is not restarted in the process, so once it died only
// a restart gives the daemon its journal back, and liveness must ask for one (readiness alone never would).
describe('the journal thread’s death (store.sqlite.thread)', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('makes /healthz answer 503 on the main listener, with a fixed reason; the daemon still stops', async () => {
    const threads = watchWorkerThreads();
    const daemon = await startTestDaemon(tempDir(), { journalThread: true });
    cleanups.push(() => daemon.running.close());
    const healthz = async () => {
      const answer = await fetch(`${daemon.url}/healthz`);
      return { status: answer.status, body: (await answer.json()) as unknown };
    };
    // No event before the kill: a delivery in flight would hold the close for shutdown_grace, recording its
    // attempt into a journal that is gone.
    expect(await healthz()).toEqual({ status: 200, body: { status: 'ok' } });
    expect(threads).toHaveLength(1); // the journal's; deliveries run on the main thread here
    await threads[0]?.worker.terminate(); // as a crash of the thread would end it
    const said = (message: string) => daemon.logs().filter((line) => line.message === message);
    expect(said('the journal thread died; the journal stays closed until a restart')).toEqual([
      expect.objectContaining({ level: 'error', reason: expect.stringContaining('exited with code 1') }),
    ]);
    // Nothing of the deployment: /healthz takes no credential.
    expect(await healthz()).toEqual({
      status: 503,
      body: { status: 'unhealthy', reason: 'the journal thread died; only a restart reopens the journal' },
    });
    // Readiness fails too, as it did before, and ingest refuses rather than acknowledge what it cannot commit.
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(503);
    const refused = await postWebhook(daemon.url, envelope('incident.updated', {}), { secret: SOURCE_SECRET });
    expect(refused.status).toBe(503);
    await daemon.running.close();
    // Said once, not again at the close that follows.
    expect(said('the journal thread died; the journal stays closed until a restart')).toHaveLength(1);
  });
});
