import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnCli, type SpawnedCli } from '../helpers/spawn-cli.js';
import type { TimedRequest } from './timed-receiver.js';

/** Starts `switchyard serve` as its own process; resolves once it listens. */
export async function serve(
  config: string,
  env: Record<string, string>,
  processes: SpawnedCli[],
): Promise<{ cli: SpawnedCli; url: string }> {
  const cli = spawnCli(['serve', '--config', config], env);
  processes.push(cli);
  const line = await cli.waitFor('switchyard listening', 30_000);
  return { cli, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}` };
}

/** Kills every process still running (SIGKILL) and waits for it to be gone. */
export async function killAll(processes: SpawnedCli[]): Promise<void> {
  for (const cli of processes.splice(0)) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await cli.exited;
  }
}

/** A daemon config and rules file in `dir`: every event goes to one HTTP target at `targetUrl`. */
export function writeDaemonConfig(
  dir: string,
  options: { name: string; targetUrl: string; target: string; store: string },
): string {
  const rules = `targets:\n  receiver: { type: http, url: "${options.targetUrl}", ${options.target} }\nroutes:\n  - { name: all, to: [receiver] }\n`;
  return writeDaemonFiles(dir, { name: options.name, rules, store: options.store });
}

/** A daemon config `<name>.yaml` in `dir` with its rules file `<name>-rules.yaml`; returns the config's path. */
export function writeDaemonFiles(dir: string, options: { name: string; rules: string; store: string }): string {
  writeFileSync(path.join(dir, `${options.name}-rules.yaml`), options.rules);
  const config = path.join(dir, `${options.name}.yaml`);
  writeFileSync(
    config,
    `listen: { host: 127.0.0.1, port: 0 }\nrules: ./${options.name}-rules.yaml\nstore: ${options.store}\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\n`,
  );
  return config;
}

/** Polls `read` every `intervalMs` until `check` holds; fails with the last value after `timeoutMs`. */
export async function waitUntil<T>(
  read: () => Promise<T> | T,
  check: (value: T) => boolean,
  timeoutMs: number,
  describe: (value: T) => string = (value) => JSON.stringify(value),
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last: ${describe(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface DeliveryTally {
  /** Acknowledged incidents the target never answered 200 for. */
  readonly missing: string[];
  /** Incidents the target received more than once (requests answered `countStatus` or cut off by a kill). */
  readonly duplicated: Map<string, TimedRequest[]>;
  /** Incidents whose requests carried more than one Idempotency-Key (two deliveries for one target). */
  readonly splitKeys: string[];
}

/**
 * What reached the target, per incident. `counts(r)` says which requests are sends (all of them by default;
 * the outage test leaves the 503-answered ones out).
 */
export function tally(
  requests: readonly TimedRequest[],
  acked: readonly string[],
  counts: (request: TimedRequest) => boolean = () => true,
): DeliveryTally {
  const byIncident = new Map<string, TimedRequest[]>();
  for (const request of requests) {
    byIncident.set(request.incident, [...(byIncident.get(request.incident) ?? []), request]);
  }
  const duplicated = new Map<string, TimedRequest[]>();
  const splitKeys: string[] = [];
  for (const [incident, list] of byIncident) {
    const sends = list.filter(counts);
    if (sends.length > 1) duplicated.set(incident, sends);
    if (new Set(list.map((r) => r.key)).size > 1) splitKeys.push(incident);
  }
  const missing = acked.filter((incident) => !(byIncident.get(incident) ?? []).some((r) => r.status === 200));
  return { missing, duplicated, splitKeys };
}

/** Pairs of requests with the same Idempotency-Key that were in flight at the same time. */
export function overlappingPairs(requests: readonly TimedRequest[]): [TimedRequest, TimedRequest][] {
  const pairs: [TimedRequest, TimedRequest][] = [];
  const byKey = new Map<string, TimedRequest[]>();
  for (const request of requests) byKey.set(request.key, [...(byKey.get(request.key) ?? []), request]);
  for (const list of byKey.values()) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const [a, b] = [sorted[i] as TimedRequest, sorted[j] as TimedRequest];
        if (b.start < (a.end ?? Number.POSITIVE_INFINITY)) pairs.push([a, b]);
      }
    }
  }
  return pairs;
}

/** Per delivery id: how many attempts the daemons logged as failed and to be retried (a timeout, a 5xx). */
export function loggedRetries(processes: readonly SpawnedCli[]): Map<string, number> {
  const retries = new Map<string, number>();
  for (const cli of processes) {
    for (const line of cli.stdout().split('\n')) {
      if (!line.includes('"delivery attempt failed; will retry"')) continue;
      const { delivery } = JSON.parse(line) as { delivery: string };
      retries.set(delivery, (retries.get(delivery) ?? 0) + 1);
    }
  }
  return retries;
}

/**
 * Sends the daemons cannot account for: beyond the first send of each delivery and one per attempt they logged
 * as failed, what reached the target again. Only a crash explains those (an attempt sent, never recorded).
 */
export function unexplainedResends(
  duplicated: ReadonlyMap<string, readonly TimedRequest[]>,
  retries: ReadonlyMap<string, number>,
): Map<string, readonly TimedRequest[]> {
  const result = new Map<string, readonly TimedRequest[]>();
  for (const [incident, requests] of duplicated) {
    const extra = requests.length - 1 - (retries.get(requests[0]?.key ?? '') ?? 0);
    if (extra > 0) result.set(incident, requests);
  }
  return result;
}
