import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    // No event before the kill: the next test has a delivery in flight.
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

  it('stops without waiting shutdown_grace for an attempt whose record the dead journal can no longer take', async () => {
    // The target holds its answer until the thread is gone, so the attempt ends with nowhere to record it.
    const held: (() => void)[] = [];
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const receiver = createServer((request, response) => {
      request.resume();
      held.push(() => response.end('ok'));
      arrived();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
    const { port } = receiver.address() as AddressInfo;
    const threads = watchWorkerThreads();
    const daemon = await startTestDaemon(tempDir(), {
      journalThread: true,
      rules: `targets:\n  hook: { type: http, url: "http://127.0.0.1:${port}/in" }\nroutes: []\nfallback: [hook]\n`,
      // Far beyond the test's timeout: the close would wait it out if the record were tried again and again.
      config: 'shutdown_grace: 120s',
    });
    cleanups.push(() => daemon.running.close());
    const posted = await postWebhook(daemon.url, envelope('incident.created', {}), { secret: SOURCE_SECRET });
    expect(posted.status).toBe(200);
    await reached;
    await threads[0]?.worker.terminate();
    for (const answer of held) answer();

    await daemon.running.close();
    expect(
      daemon.logs().filter((line) => String(line.message).startsWith('recording a delivery attempt failed')),
    ).toEqual([expect.objectContaining({ level: 'error', error: expect.stringContaining('exited with code 1') })]);
  });
});
