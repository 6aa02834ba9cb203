/**
 * Cost of masking secrets (issue 10): per log line, and per attempt record (mask, cut, mask at the cut),
 * with 0, 20 and 200 secrets, each expanded into the forms it travels in (base64, percent, JSON...). The
 * baseline, in the same run, is the masking this replaced: one split/join per secret as written, no forms
 * (followed by the same shape, URL and cut steps as now, which did not change).
 * Reports, never asserts.
 *
 *   npx tsx bench/masking-bench.ts          (or via `npm run bench`, which calls main())
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatTable } from '../src/cli/format-table.js';
import { redactDetail } from '../src/delivery/redact-detail.js';
import { escapeForJson, redactSecrets } from '../src/log/redact-secrets.js';
import { secretVariants } from '../src/rules/env/secret-variants.js';
import { createSecretMask } from '../src/secrets/secret-mask.js';

const SIZES = [0, 20, 200];
const NO_SECRETS: readonly string[] = [];
const RUNS = 9;
const CALLS = 20_000;

/** Half webhook URLs (with their parts), half tokens: what a rules file with many targets hands over. */
function secretsOf(count: number): string[] {
  const token = () => randomBytes(18).toString('base64url');
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? secretVariants(`https://hooks.slack.com/services/T${i}AAAA/B${i}BBBB/${token()}`) : [token()],
  ).flat();
}

const LINE = JSON.stringify({
  level: 'info',
  message: 'delivery attempt failed; will retry',
  delivery: 'dlv_123456',
  target: 'tickets',
  attempt: 3,
  detail: `HTTP 503: ${'upstream unavailable, please retry later '.repeat(5)}`,
  timestamp: '2026-11-23T21:00:00.000Z',
});
const ANSWER = `HTTP 500: ${'{"error":"internal","trace":"abc123def456"} '.repeat(12)}`;

/** The masking before issue 10: each secret (JSON-escaped for a log line) searched and replaced in turn. */
function splitJoin(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join('[redacted]');
  return result;
}

/** Mean time per call of `call`, in microseconds, over one run. */
function timeRun(call: () => string): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink += call().length;
  if (sink < 0) console.log(sink); // keeps the work observable
  return Number(process.hrtime.bigint() - started) / 1_000 / CALLS;
}

/** Medians over RUNS for the baseline and the current code, runs interleaved so that load hits both alike. */
function compare(before: () => string, now: () => string): [number, number] {
  for (let i = 0; i < 5_000; i++) void (before().length + now().length); // warm-up (JIT)
  const times: [number[], number[]] = [[], []];
  for (let run = 0; run < RUNS; run++) {
    times[0].push(timeRun(before));
    times[1].push(timeRun(now));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? Number.NaN;
  return [median(times[0]), median(times[1])];
}

export async function main(): Promise<void> {
  const rows: string[][] = [];
  for (const size of SIZES) {
    const secrets = secretsOf(size);
    const escaped = secrets.map(escapeForJson);
    const mask = createSecretMask(secrets, escapeForJson);
    const none = createSecretMask([]);
    const [oldLine, newLine] = compare(
      () => redactSecrets(splitJoin(LINE, escaped), none),
      () => redactSecrets(LINE, mask),
    );
    const [oldDetail, newDetail] = compare(
      () => redactDetail(splitJoin(ANSWER, secrets), NO_SECRETS),
      () => redactDetail(ANSWER, secrets),
    );
    rows.push([
      `${size} (${secrets.length} values)`,
      oldLine.toFixed(2),
      newLine.toFixed(2),
      (newLine / oldLine).toFixed(2),
      oldDetail.toFixed(2),
      newDetail.toFixed(2),
      (newDetail / oldDetail).toFixed(2),
    ]);
  }
  const header = ['secrets', 'line µs: before', 'now', 'ratio', 'attempt µs: before', 'now', 'ratio'];
  console.log(formatTable(header, rows));
  console.log(`(${RUNS} runs of ${CALLS} calls; "now" also masks the base64, percent and JSON forms)`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
