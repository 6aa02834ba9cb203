import { parse } from 'yaml';
import { expect } from 'vitest';
import { waitFor } from '../../delivery/engine/engine-harness.js';
import { docYamlBlocks, placeholderEnv } from '../../docs/support/doc-yaml-blocks.js';
import { envelope, postWebhook } from '../../helpers/post-webhook.js';
import type { HttpReceiver } from '../../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../../helpers/start-test-daemon.js';

/**
 * The rules of docs/targets.md's example for `target`, as a reader would copy them, with the example's origin
 * (`https://your-instance.service-now.com`) replaced by the stand-in's and `concurrency: 4` added so deliveries
 * of different incidents overlap: the test then exercises the documented example, not a copy of it.
 */
export function docLifecycleRules(target: string, origin: string, standInUrl: string): string {
  const block = docYamlBlocks('targets.md').find((candidate) => {
    const targets = (parse(candidate.text) as { targets?: Record<string, unknown> }).targets ?? {};
    return Object.keys(targets).includes(target);
  });
  if (block === undefined) throw new Error(`docs/targets.md has no example for ${target}`);
  expect(block.text).toContain(origin);
  const targetLine = `  ${target}:\n`;
  const text = block.text.replaceAll(origin, standInUrl).replace(targetLine, `${targetLine}    concurrency: 4\n`);
  return `${text}routes:\n  - { name: incidents, match: { event: incident.* }, to: [${target}] }\nfallback: []\n`;
}

/**
 * Runs docs/targets.md's example for `target` (its `origin` pointed at the stand-in) in a daemon, sends it
 * `incidents` incident lifecycles of `updates` updates each (sendIncidentLifecycles), and closes the daemon
 * and the stand-in, whose records stay readable.
 */
export async function runDocLifecycle(
  dir: string,
  standIn: HttpReceiver,
  example: { readonly target: string; readonly origin: string },
  counts: { readonly incidents: number; readonly updates: number },
): Promise<void> {
  try {
    const rules = docLifecycleRules(example.target, example.origin, standIn.url);
    const daemon = await startTestDaemon(dir, { rules, env: placeholderEnv(rules), random: () => 0 });
    try {
      await sendIncidentLifecycles(daemon, counts.incidents, counts.updates);
    } finally {
      await daemon.running.close();
    }
  } finally {
    await standIn.close();
  }
}

/**
 * Sends `incidents` incidents, each created, updated `updates` times and resolved, interleaved (every
 * incident's created, then every incident's first update, ...) without waiting for deliveries, and waits until
 * every delivery is delivered. Titles say which update it was: `inc_2 update 3`.
 */
export async function sendIncidentLifecycles(daemon: TestDaemon, incidents: number, updates: number): Promise<void> {
  const ids = Array.from({ length: incidents }, (_, i) => `inc_${i + 1}`);
  const rounds: [kind: string, title: (id: string) => string][] = [
    ['incident.created', (id) => `${id} created`],
    ...Array.from({ length: updates }, (_, n): [string, (id: string) => string] => [
      'incident.updated',
      (id) => `${id} update ${n + 1}`,
    ]),
    ['incident.resolved', (id) => `${id} resolved`],
  ];
  for (const [kind, title] of rounds) {
    for (const id of ids) {
      const body = envelope(kind, { incident_id: id, title: title(id), severity: 'high', host: 'web-1' });
      const answer = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
      expect(answer.status).toBe(200);
    }
  }
  const total = incidents * rounds.length;
  const rows = await waitFor(
    () => daemon.deliveries(),
    (deliveries) => deliveries.length === total && deliveries.every((row) => row.state !== 'pending'),
    20_000,
  );
  expect(rows.filter((row) => row.state !== 'delivered').map((row) => [row.id, row.state, row.lastError])).toEqual([]);
}
