/**
 * The baseline for the delivery benchmark: a bare keep-alive node:http client that POSTs the same kind of
 * event body to the same receiver at the same concurrency, with no journal, no rules and no bookkeeping; the
 * floor any sender pays. Run by bench/delivery-bench.ts in its own process, like the engine:
 * `node --import tsx bench/delivery-client-process.ts '<json>'`. Prints one JSON line (a ClientResult).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ClientResult, ClientRunOptions } from './delivery-results.js';

const options = JSON.parse(process.argv[2] ?? '{}') as ClientRunOptions;
const agent = new Agent({ keepAlive: true });
const body = Buffer.from(
  JSON.stringify({
    event: 'incident.created',
    timestamp: new Date().toISOString(),
    data: { incident_id: 'inc_bench_0', severity: 'high', title: 'Benchmark incident 0: suspicious login burst' },
  }),
);

function post(id: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(options.url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'idempotency-key': `dlv_${id}`,
      },
    });
    outgoing.on('error', reject);
    outgoing.on('response', (incoming) => {
      incoming.resume();
      incoming.on('end', () => (incoming.statusCode === 200 ? resolve() : reject(new Error(`${incoming.statusCode}`))));
      incoming.on('error', reject);
    });
    outgoing.end(body);
  });
}

let sent = 0;
const worker = async (): Promise<void> => {
  while (sent < options.requests) await post(++sent);
};
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: options.concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
agent.destroy();
const result: ClientResult = { requests: sent, seconds, cpuUs: cpu.user + cpu.system };
console.log(JSON.stringify(result));
