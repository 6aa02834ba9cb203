/**
 * Routing cost per event with 10, 1,000 and 10,000 routes (issue 2, Performance). The large rule sets add
 * routes for OTHER event kinds (exact names and globs) around the same ten routes the baseline has, so a
 * router that scans every route shows up as a ratio far above 1. Reports, never asserts.
 *
 *   npx tsx bench/routing-bench.ts          (or via `npm run bench`, which calls main())
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Envelope } from '../src/ingest/envelope.js';
import { loadRulesFile } from '../src/rules/load-rules-file.js';
import { routeEvent } from '../src/rules/route-event.js';
import type { CompiledRules } from '../src/rules/rules.js';

const SIZES = [10, 1_000, 10_000];
const RUNS = 7;
const EVENTS_PER_RUN = 50_000;

// The ten routes every rule set has: what a SOC team's real file looks like.
const CORE_ROUTES = [
  `{ name: drop-test, match: { where: [{ field: data.agent.tags, equals: test }] }, to: [], stop: true }`,
  `{ name: critical, match: { event: [incident.created, incident.updated], severity: { at_least: high } }, to: [t0, t1] }`,
  `{ name: ransomware, match: { event: incident.*, where: [{ field: data.title, matches: "(?i)ransomware|encrypt" }] }, to: [t0] }`,
  `{ name: low, match: { event: incident.created, severity: { at_most: low } }, to: [t2], stop: true }`,
  `{ name: medium-prod, match: { event: incident.*, severity: { in: [medium] }, where: [{ field: data.environment, in: [production] }, { field: data.host, not: { matches: "^lab-" } }] }, to: [t3] }`,
  `{ name: agents, match: { event: agent.* }, to: [t4] }`,
  `{ name: threats, match: { event: threat.detected, where: [{ field: data.verdict, equals: confirmed }] }, to: [t0, t3] }`,
  `{ name: compliance, match: { event: compliance.violation }, to: [t5], stop: true }`,
  `{ name: resolved, match: { event: incident.resolved, where: [{ field: data.severity, exists: false }] }, to: [t6] }`,
  `{ name: high-anything, match: { event: "*", severity: { at_least: critical } }, to: [t7] }`,
];

/** A route for a kind the events never have: 1 in 20 a glob, the rest exact names, most with conditions. */
function otherRoute(i: number): string {
  const event = i % 20 === 0 ? `vendor${i}.*` : `vendor${i % 500}.kind${i}`;
  return `{ name: other-${i}, match: { event: "${event}", severity: { at_least: medium }, where: [{ field: data.title, matches: "(?i)case-${i}" }] }, to: [t${i % 10}] }`;
}

function rulesYaml(size: number): string {
  const targets = Array.from({ length: 10 }, (_, i) => `  t${i}: { type: http, url: "https://t${i}.example/hook" }`);
  const others = Array.from({ length: size - CORE_ROUTES.length }, (_, i) => otherRoute(i));
  // Spread the core routes through the file so that order-preserving merges are exercised.
  const routes: string[] = [];
  const step = Math.max(1, Math.floor(others.length / CORE_ROUTES.length));
  CORE_ROUTES.forEach((route, i) => routes.push(route, ...others.slice(i * step, (i + 1) * step)));
  routes.push(...others.slice(CORE_ROUTES.length * step));
  return `targets:\n${targets.join('\n')}\nroutes:\n${routes.map((route) => `  - ${route}`).join('\n')}\nfallback: [t9]\n`;
}

const at = '2026-11-22T10:00:00Z';
const EVENTS: Envelope[] = [
  {
    event: 'incident.created',
    timestamp: at,
    data: { incident_id: 'inc_1', severity: 'critical', title: 'Ransomware on fs-1' },
  },
  {
    event: 'incident.updated',
    timestamp: at,
    data: { incident_id: 'inc_2', severity: 'medium', title: 'Malware', environment: 'production', host: 'web-3' },
  },
  { event: 'incident.created', timestamp: at, data: { incident_id: 'inc_3', severity: 'low', title: 'Port scan' } },
  { event: 'incident.resolved', timestamp: at, data: { incident_id: 'inc_1' } },
  { event: 'agent.offline', timestamp: at, data: { agent: { name: 'host-17', tags: ['prod'] } } },
  { event: 'agent.online', timestamp: at, data: { agent: { name: 'lab-2', tags: ['test'] } } },
  { event: 'threat.detected', timestamp: at, data: { verdict: 'confirmed', severity: 'high' } },
  { event: 'compliance.violation', timestamp: at, data: { policy: 'disk-encryption', severity: 'Medium' } },
  { event: 'vendor.unknown', timestamp: at, data: { severity: 'sev0' } },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median over RUNS of the mean time per event, in microseconds. */
function measure(rules: CompiledRules, events: readonly Envelope[]): number {
  let sink = 0;
  for (let i = 0; i < 20_000; i++) sink += routeEvent(rules, events[i % events.length]!).targets.length;
  const perEvent: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < EVENTS_PER_RUN; i++) sink += routeEvent(rules, events[i % events.length]!).targets.length;
    perEvent.push(Number(process.hrtime.bigint() - started) / 1_000 / EVENTS_PER_RUN);
  }
  if (sink < 0) console.log(sink); // keeps the work observable
  return median(perEvent);
}

/** Every event a kind never seen before (a flood of made-up kinds): each one misses the kind memo. */
function measureNewKinds(rules: CompiledRules): number {
  const count = 20_000;
  const events = Array.from({ length: count }, (_, i) => ({ ...EVENTS[0]!, event: `made.up${i}` }));
  const started = process.hrtime.bigint();
  for (const envelope of events) routeEvent(rules, envelope);
  return Number(process.hrtime.bigint() - started) / 1_000 / count;
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-routing-bench-'));
  try {
    const rows: string[][] = [['routes', 'load ms', 'µs/event (median)', 'ratio to 10', 'µs/event, new kind each']];
    let baseline = Number.NaN;
    for (const size of SIZES) {
      const file = path.join(dir, `rules-${size}.yaml`);
      writeFileSync(file, rulesYaml(size));
      const loadStarted = performance.now();
      const result = loadRulesFile(file, {});
      const loadMs = performance.now() - loadStarted;
      if (!result.ok) throw new Error(`bench rules invalid: ${result.problems[0]?.message}`);
      const micros = measure(result.rules, EVENTS);
      if (size === SIZES[0]) baseline = micros;
      const fresh = measureNewKinds(result.rules);
      rows.push([String(size), loadMs.toFixed(0), micros.toFixed(2), (micros / baseline).toFixed(2), fresh.toFixed(2)]);
    }
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    for (const row of rows) console.log(row.map((cell, column) => cell.padStart(widths[column]!)).join('  '));
    console.log(
      `(${EVENTS.length} event shapes, ${RUNS} runs of ${EVENTS_PER_RUN} events; aim: under 50 µs/event at 10,000 routes)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
