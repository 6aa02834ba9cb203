/**
 * The delivery engine in a worker thread (issue 11, `delivery: { worker_thread: true }`): the same engine as
 * in the main thread, over its own journal connection, so that sending and recording deliveries use the
 * second core instead of the event loop that answers webhooks. It loads the daemon's config itself, and
 * talks to the main thread through the small protocol of engine-worker-protocol.ts: woken after commits,
 * told of rules reloads, stopped with the shutdown grace; it reports its targets' state and its engine's
 * counts (the daemon's /metrics), and sends its log lines back, so they go to the daemon's log stream. Started by create-engine-worker.ts.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { recordMetricDeltas } from '../admin/metric-deltas.js';
import { createMetrics } from '../admin/metrics.js';
import { SWITCHYARD_METRICS } from '../admin/switchyard-metrics.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/load-config.js';
import { createLogger } from '../log/create-logger.js';
import { createLiveRules } from '../rules/create-live-rules.js';
import { watchRulesFile } from '../rules/watch-rules-file.js';
import { createStore } from '../store/create-store.js';
import { buildDeliveryEngine } from './build-delivery-engine.js';
import {
  STATUS_EVERY_MS,
  type EngineWorkerData,
  type FromEngineWorker,
  type ToEngineWorker,
} from './engine-worker-protocol.js';

const port = parentPort;
if (port === null) throw new Error('engine-worker.ts runs as a worker thread (create-engine-worker.ts)');
const post = (message: FromEngineWorker): void => port.postMessage(message);
const data = workerData as EngineWorkerData;
// What a failed start releases before it says so (the main thread ends the thread anyway, but a journal
// connection closed here is closed cleanly).
const opened: (() => Promise<void> | void)[] = [];

try {
  const config = loadConfig({ file: data.configFile, env: data.env, cwd: data.cwd });
  const clock = systemClock;
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      post({ type: 'log', line: chunk.toString() });
      done();
    },
  });
  const log = createLogger({ level: config.log.level, secrets: config.secrets, stream });
  // Its own registry, for the worker's rules; the engine's counts also go to the daemon's /metrics, by message.
  const metrics = createMetrics(SWITCHYARD_METRICS);
  const engineMetrics = recordMetricDeltas(metrics);
  const report = (): void => {
    post({ type: 'status', status: engine.status() });
    const deltas = engineMetrics.take();
    if (deltas !== undefined) post({ type: 'metrics', deltas });
  };
  const rules = createLiveRules({ file: config.rules, env: data.env, log, metrics, now: () => clock.now() });
  const stopWatching = watchRulesFile(config.rules, () => rules.reload('watch'));
  opened.push(stopWatching);
  // The main thread migrated the journal and holds its lock; this is a second connection to it.
  const store = await createStore(config.store, { clock });
  opened.push(() => store.close());
  const engine = buildDeliveryEngine(
    { store, log, clock, metrics: engineMetrics.metrics },
    rules.current,
    config.secrets,
    {
      pollIntervalMs: data.pollIntervalMs,
    },
  );
  await engine.start();
  const reporting = setInterval(report, STATUS_EVERY_MS);
  port.on('message', (message: ToEngineWorker) => {
    if (message.type === 'wake') engine.wake(message.targets);
    else if (message.type === 'reload') rules.reload(message.trigger);
    else if (message.type === 'stop') {
      clearInterval(reporting);
      stopWatching();
      void engine
        .stop(message.deadlineMs)
        .finally(() => store.close())
        .finally(() => {
          report(); // the last attempts' counts
          post({ type: 'stopped' });
          port.close();
        });
    }
  });
  report();
  log.info('delivery engine running in a worker thread (delivery.worker_thread)');
  post({ type: 'started' });
} catch (error) {
  for (const release of opened.reverse()) {
    try {
      await release();
    } catch {
      // The start's error is the one to report.
    }
  }
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  port.close();
}
