import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newApiKey } from '../admin/api/new-api-key.js';
import { startSwitchyard } from '../main.js';
import { createSqliteStore } from '../store/sqlite/create-sqlite-store.js';
import { createLogFileStream } from './create-log-file-stream.js';
import { demoEnvironment } from './demo-environment.js';
import { DEMO_EVENTS, type DemoEvent } from './demo-events.js';
import type { DemoRow } from './demo-row.js';
import { exampleRulesPath } from './example-rules-path.js';
import { formatDeliveryTable } from './format-delivery-table.js';
import { formatStandInSummary } from './format-stand-in-summary.js';
import { readDemoRows } from './read-demo-rows.js';
import { sendSignedEvent } from './send-signed-event.js';
import type { StandInsReceived } from './stand-ins-received.js';
import { startSlackStandIn } from './start-slack-stand-in.js';
import { startSmtpStandIn } from './start-smtp-stand-in.js';
import { startTicketingStandIn } from './start-ticketing-stand-in.js';
import { waitForDeliveries, type DeliveryProgress } from './wait-for-deliveries.js';
import { writeDemoConfig } from './write-demo-config.js';

export interface RunDemoOptions {
  /** Where the demo's report goes (the CLI passes stdout). */
  readonly print: (text: string) => void;
  /** Keep the temporary folder (config, journal, daemon log) afterwards. */
  readonly keep?: boolean;
  /** How long to wait for every delivery to be delivered or dead; default 60 s. */
  readonly timeoutMs?: number;
  readonly events?: readonly DemoEvent[];
  /** How many requests the ticketing stand-in refuses with 503 before it recovers; default 3. */
  readonly ticketingFailures?: number;
  /**
   * With `keep`: called once the report is printed, with the console's address and the demo's admin key;
   * the daemon and its stand-ins keep running until the promise settles (the CLI waits for Ctrl-C).
   */
  readonly whileKept?: (console: DemoConsole) => Promise<void>;
}

/** Where the kept demo's console answers, and the throwaway key (all scopes) that signs in to it. */
export interface DemoConsole {
  readonly url: string;
  readonly key: string;
}

export interface DemoResult {
  /** True when every delivery was delivered. */
  readonly allDelivered: boolean;
  readonly dir: string;
  /** The folder was left in place (--keep, or something was not delivered). */
  readonly kept: boolean;
  readonly rows: readonly DemoRow[];
  readonly received: StandInsReceived;
}

/**
 * `switchyard demo`: starts local stand-ins for every target of rules.example.yaml, starts the daemon on them
 * in-process with a fresh journal in a temporary folder, sends signed events of every kind, waits until each
 * delivery is delivered or dead, and prints what reached which target. Everything it started is stopped and
 * the folder removed afterwards, unless `keep` is set or something was not delivered (then it is left for
 * `switchyard deliveries --config <folder>/switchyard.yaml`).
 */
export async function runDemo(options: RunDemoOptions): Promise<DemoResult> {
  const { print } = options;
  const events = options.events ?? DEMO_EVENTS;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const failFirst = options.ticketingFailures ?? 3;
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-demo-'));
  const releases: (() => Promise<void>)[] = [];
  let kept = options.keep === true;
  try {
    const slack = await startSlackStandIn();
    releases.push(() => slack.close());
    const smtp = await startSmtpStandIn();
    releases.push(() => smtp.close());
    const ticketing = await startTicketingStandIn({ failFirst });
    releases.push(() => ticketing.close());

    const secret = randomBytes(24).toString('hex');
    const env = demoEnvironment({ slack, smtpUrl: smtp.url, ticketingUrl: ticketing.url, secret });
    const rulesPath = exampleRulesPath();
    const adminKey = newApiKey();
    const configFile = writeDemoConfig(dir, rulesPath, adminKey.hash);
    const logFile = path.join(dir, 'switchyard.log');
    const daemon = await startSwitchyard({ configFile, env, cwd: dir, logStream: createLogFileStream(logFile) });
    releases.push(() => daemon.close());
    // The demo's config (write-demo-config.ts) always names a SQLite journal.
    const journalPath = daemon.config.store.kind === 'sqlite' ? daemon.config.store.path : '';
    const journal = createSqliteStore({ path: journalPath, busyTimeoutMs: 5_000 });
    releases.push(() => journal.close());
    const daemonUrl = `http://127.0.0.1:${daemon.port}`;

    print(
      [
        `Switchyard demo: ${path.basename(rulesPath)} with local stand-ins for its targets`,
        `  Slack webhooks  ${slack.webhookUrl('{soc,infra}')}`,
        `  SMTP server     ${smtp.url}`,
        `  ticketing API   ${ticketing.url} (answers 503 to its first ${failFirst} requests, then recovers)`,
        `  daemon          ${daemonUrl}, config and journal in ${dir}`,
        `  daemon log      ${logFile}${kept ? '' : ' (removed at the end; --keep keeps it)'}`,
        '',
      ].join('\n') + '\n',
    );

    const sent = [];
    for (const event of events) {
      const body = JSON.stringify({ event: event.event, timestamp: new Date().toISOString(), data: event.data });
      sent.push({ event, ...(await sendSignedEvent(`${daemonUrl}/webhooks/monitor`, secret, body)) });
    }
    const queued = sent.reduce((sum, s) => sum + s.deliveries, 0);
    print(`Sent ${events.length} signed events to POST /webhooks/monitor: ${queued} deliveries queued.\n`);
    print(`Waiting until each is delivered or dead (at most ${Math.round(timeoutMs / 1000)} s):\n`);

    let lastLine = '';
    const perEvent = await waitForDeliveries({
      journal,
      eventIds: sent.map((s) => s.id),
      timeoutMs,
      now: Date.now,
      onProgress: (progress) => {
        const line = describeProgress(progress);
        if (line === lastLine) return;
        lastLine = line;
        print(`  ${(progress.elapsedMs / 1000).toFixed(1).padStart(5)} s  ${line}\n`);
      },
    });

    const rows = await readDemoRows(
      sent.map((s) => s.event),
      perEvent,
      journal,
    );
    const received: StandInsReceived = {
      slack: [...slack.messages],
      mail: [...smtp.mails],
      ticketing: [...ticketing.requests],
    };
    print(`\n${formatDeliveryTable(rows)}\n${formatStandInSummary(received)}\n`);

    const missing = rows.filter((row) => row.state !== 'delivered');
    const allDelivered = missing.length === 0 && rows.length === queued;
    if (allDelivered) {
      print(`All ${rows.length} deliveries delivered.${kept ? ` The folder is kept: ${dir}` : ''}\n`);
    } else {
      kept = true;
      print(
        `${missing.length} of ${rows.length} deliveries not delivered. The folder is kept; look closer with\n` +
          `  switchyard deliveries --config ${path.join(dir, 'switchyard.yaml')}\n`,
      );
    }
    if (options.keep === true && options.whileKept !== undefined && daemon.adminPort !== null) {
      // The key is made for this loopback daemon alone and dies with it: printing it is how one signs in.
      const consoleUrl = `http://127.0.0.1:${daemon.adminPort}/console/`;
      print(
        `\nThe console: ${consoleUrl}\n  sign in with the demo's admin key ${adminKey.key}\nCtrl-C stops the demo.\n`,
      );
      await options.whileKept({ url: consoleUrl, key: adminKey.key });
    }
    return { allDelivered, dir, kept, rows, received };
  } finally {
    for (const release of releases.splice(0).reverse()) await release();
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

function describeProgress(p: DeliveryProgress): string {
  const parts = [`${p.delivered} of ${p.total} delivered`];
  if (p.waiting > 0) parts.push(`${p.waiting} waiting`);
  if (p.retrying > 0) parts.push(`${p.retrying} retrying`);
  if (p.dead > 0) parts.push(`${p.dead} dead`);
  return parts.join(', ');
}
