import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { demoEnvironment } from '../../src/demo/demo-environment.js';
import { exampleRulesPath } from '../../src/demo/example-rules-path.js';
import { runDemo } from '../../src/demo/run-demo.js';
import type { SlackStandIn } from '../../src/demo/start-slack-stand-in.js';
import { KNOWN_EVENT_KINDS } from '../../src/ingest/envelope.js';

/** Where each demo event must end up under rules.example.yaml, keyed by "kind severity" (- for none). */
const EXPECTED: Readonly<Record<string, readonly string[]>> = {
  'incident.created critical': ['oncall-mail', 'soc-slack', 'tickets'],
  'incident.updated high': ['oncall-mail', 'soc-slack', 'tickets'],
  'incident.created low': ['triage-queue'],
  'incident.updated medium': ['tickets'],
  'incident.resolved -': ['soc-slack'],
  'agent.offline -': ['infra-slack'],
  'agent.online -': ['infra-slack'],
  'threat.detected high': ['soc-slack', 'tickets'],
  'compliance.violation medium': ['compliance-mail'],
};

const leftOver: string[] = [];
afterEach(() => {
  for (const dir of leftOver.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('switchyard demo', () => {
  it('delivers every kind of event to its targets, through an outage of the ticketing API', async () => {
    let out = '';
    const result = await runDemo({ print: (text) => (out += text) });
    leftOver.push(result.dir);

    const reached: Record<string, string[]> = {};
    for (const row of result.rows) (reached[`${row.kind} ${row.severity ?? '-'}`] ??= []).push(row.target);
    expect(reached).toEqual(EXPECTED);
    expect(new Set(result.rows.map((row) => row.kind))).toEqual(KNOWN_EVENT_KINDS);
    expect(result.rows.filter((row) => row.state !== 'delivered')).toEqual([]);
    expect(result.allDelivered).toBe(true);

    // The ticketing stand-in refused its first 3 requests: those deliveries took more than one attempt.
    const retried = result.rows.filter((row) => row.attempts > 1);
    expect(retried.length).toBeGreaterThan(0);
    for (const row of retried) {
      expect(['tickets', 'triage-queue']).toContain(row.target);
      expect(row.answers.at(-1)).toBe(201);
      expect(row.answers.slice(0, -1).every((answer) => answer === 503)).toBe(true);
    }
    expect(result.rows.flatMap((row) => row.answers).filter((answer) => answer === 503)).toHaveLength(3);

    const { slack, mail, ticketing } = result.received;
    expect(slack.filter((m) => m.webhook === 'soc')).toHaveLength(4);
    expect(slack.filter((m) => m.webhook === 'infra')).toHaveLength(2);
    expect(mail.map((m) => m.subject)).toContain('[CRITICAL] Ransomware encrypting files on fs-02 (inc_1001)');
    expect(mail.find((m) => m.to.includes('compliance@example.com'))?.to).toEqual([
      'compliance@example.com',
      'audit@example.com',
    ]);
    expect(ticketing.map((r) => r.status)).toEqual([503, 503, 503, 201, 201, 201, 201, 201]);

    expect(out).toMatch(/^EVENT +SEVERITY +TARGET +STATE +ATTEMPTS +ANSWERS$/m);
    expect(out).toMatch(/^incident\.created +critical +tickets +delivered +\d+/m);
    expect(out).toContain('All 14 deliveries delivered.\n');
    expect(existsSync(result.dir)).toBe(false);
  });

  it('reports what was not delivered in time, and keeps the folder for a closer look', async () => {
    let out = '';
    const result = await runDemo({ print: (text) => (out += text), ticketingFailures: 1000, timeoutMs: 1_500 });
    leftOver.push(result.dir);

    expect(result.allDelivered).toBe(false);
    expect(result.kept).toBe(true);
    expect(existsSync(`${result.dir}/journal.db`)).toBe(true);
    const stuck = result.rows.filter((row) => row.state !== 'delivered');
    const ticketingRows = result.rows.filter((row) => ['tickets', 'triage-queue'].includes(row.target));
    expect(ticketingRows.length).toBeGreaterThan(0);
    for (const row of ticketingRows) expect(row.state).toBe('pending');
    expect(out).toContain(`${stuck.length} of 14 deliveries not delivered`);
    expect(out).toContain(`switchyard deliveries --config ${result.dir}/switchyard.yaml`);
  });

  it('with keep, leaves the daemon and its admin listener up until told to stop, and prints how to sign in', async () => {
    let out = '';
    let answer: { status: number; body: unknown } | undefined;
    let refused: number | undefined;
    const result = await runDemo({
      print: (text) => (out += text),
      keep: true,
      whileKept: async ({ url, key }) => {
        // Still running: the admin API behind the printed address answers the printed key, and only it.
        const api = new URL('/api/v1/targets', url);
        const response = await fetch(api, { headers: { authorization: `Bearer ${key}` } });
        answer = { status: response.status, body: await response.json() };
        refused = (await fetch(api, { headers: { authorization: 'Bearer sy_wrong' } })).status;
      },
    });
    leftOver.push(result.dir);

    expect(answer?.status).toBe(200);
    expect(refused).toBe(401);
    expect(out).toMatch(/The console: http:\/\/127\.0\.0\.1:\d+\/console\/\n {2}sign in with the demo's admin key sy_/);
    expect(result.kept).toBe(true);
    // Only the key's hash is written down.
    const key = /admin key (sy_\S+)/.exec(out)?.[1] ?? 'missing';
    expect(readFileSync(`${result.dir}/switchyard.yaml`, 'utf8')).not.toContain(key);
  });

  it('sets every variable rules.example.yaml references', () => {
    // Comments mention `${VAR}` as syntax; only values count.
    const rules = readFileSync(exampleRulesPath(), 'utf8')
      .split('\n')
      .map((line) => (line.trimStart().startsWith('#') ? '' : line.replace(/\s#\s.*$/, '')))
      .join('\n');
    const referenced = [...rules.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => match[1]);
    const slack = { webhookUrl: (name: string) => `http://127.0.0.1:1/${name}` } as SlackStandIn;
    const env = demoEnvironment({
      slack,
      smtpUrl: 'smtp://127.0.0.1:2',
      ticketingUrl: 'http://127.0.0.1:3',
      secret: 's',
    });
    expect(referenced.length).toBeGreaterThan(0);
    expect(referenced.filter((name) => name === undefined || env[name] === undefined)).toEqual([]);
  });
});
