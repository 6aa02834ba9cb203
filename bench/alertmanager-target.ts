import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import type { PipelineJournal } from './pipeline-journals.js';

/**
 * Alertmanager as the pipeline benchmark's reference (issue 11: "a sustained end-to-end rate at least that of
 * Alertmanager's unique-alert run on the same machine"): the binary given (Debian's `prometheus-alertmanager`,
 * 0.25 as in the issue), one webhook receiver, every alert its own group (`group_by: ['...']`) sent at once
 * (`group_wait: 0s`), no resolved notifications, no cluster. It keeps alerts in memory only.
 * https://prometheus.io/docs/alerting/0.25/configuration/
 */
export async function startAlertmanager(options: {
  readonly binary: string;
  readonly dir: string;
  readonly port: number;
  readonly receiverOrigin: string;
  readonly cwd: string;
}): Promise<{ server: ChildServer; journal: PipelineJournal }> {
  mkdirSync(path.join(options.dir, 'data'), { recursive: true });
  const config = path.join(options.dir, 'alertmanager.yml');
  writeFileSync(
    config,
    [
      '# Written by bench/alertmanager-target.ts for the pipeline benchmark.',
      // An hour, longer than any run: an alert resolved after the default 5 minutes leaves the API's answer, and
      // each group's pipeline runs again every group_interval, work that would land in a later round.
      'global: { resolve_timeout: 1h }',
      "route: { receiver: bench, group_by: ['...'], group_wait: 0s, group_interval: 1h, repeat_interval: 4h }",
      'receivers:',
      `  - { name: bench, webhook_configs: [{ url: "${options.receiverOrigin}/", send_resolved: false }] }`,
      '',
    ].join('\n'),
  );
  const server = await startChildServer({
    name: 'alertmanager',
    command: options.binary,
    args: [
      `--config.file=${config}`,
      `--storage.path=${path.join(options.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${options.port}`,
      // Empty: no gossip listener (it would take port 9094 and wait for peers).
      '--cluster.listen-address=',
    ],
    port: options.port,
    env: process.env,
    cwd: options.cwd,
    readyPath: '/-/ready',
  });
  return { server, journal: alertmanagerJournal(server.origin) };
}

interface ApiAlert {
  readonly startsAt: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** The alerts Alertmanager holds, read back through its API: each one's incident id and the time it arrived. */
function alertmanagerJournal(origin: string): PipelineJournal {
  const received = async (since: number) => {
    const response = await fetch(`${origin}/api/v2/alerts`);
    if (!response.ok) throw new Error(`alertmanager: GET /api/v2/alerts answered ${response.status}`);
    const alerts = (await response.json()) as ApiAlert[];
    return alerts
      .map((alert) => ({ id: alert.labels.incident_id ?? '', at: Date.parse(alert.startsAt) }))
      .filter((alert) => alert.at >= since);
  };
  return {
    count: async (since) => (await received(since)).length,
    received,
    readLoadsServer: true,
    close: async () => {},
  };
}
