import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { SLACK_URL, SOURCE_SECRET, TEST_RULES } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const ENV = { MONITOR_SECRET: SOURCE_SECRET, TEST_SLACK_URL: SLACK_URL };

function writeSetup(dir: string, extra = ''): string {
  writeFileSync(path.join(dir, 'rules.yaml'), TEST_RULES);
  const file = path.join(dir, 'switchyard.yaml');
  writeFileSync(
    file,
    `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\n${extra}`,
  );
  return file;
}

async function startServe(dir: string) {
  const cli = spawnCli(['serve', '--config', writeSetup(dir)], ENV);
  const line = await cli.waitFor('switchyard listening');
  const port = (JSON.parse(line) as { port: number }).port;
  return { cli, url: `http://127.0.0.1:${port}` };
}

describe('switchyard serve (a real process)', () => {
  it('refuses to start on an invalid config, naming the key and the problem', async () => {
    const dir = tempDir();
    const cli = spawnCli(['serve', '--config', writeSetup(dir, 'max_body: lots\ndedup_window: 7d\n')], ENV);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(/invalid_config: .*switchyard\.yaml:5:11: max_body: must match pattern/s);
    expect(cli.stderr()).toMatch(/switchyard\.yaml:6:1: dedup_window: unknown key: did you mean "dedupe_window"\?/);
  });

  it('refuses to start when a secret variable is missing, naming it', async () => {
    const dir = tempDir();
    const cli = spawnCli(['serve', '--config', writeSetup(dir)], { TEST_SLACK_URL: SLACK_URL });
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('environment variable MONITOR_SECRET is not set');
  });

  it('loses no answered event when killed with SIGKILL, and still knows them as duplicates after restart', async () => {
    const dir = tempDir();
    const { cli, url } = await startServe(dir);
    const bodies = Array.from({ length: 50 }, (_, i) =>
      envelope('incident.created', { incident_id: `inc_${i}`, severity: 'critical' }),
    );
    const answers = await Promise.all(bodies.map((body) => postWebhook(url, body, { secret: SOURCE_SECRET })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    cli.child.kill('SIGKILL');
    expect(await cli.exited).toBe('SIGKILL');

    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    expect(await store.counts()).toEqual({ events: 50, deliveries: 100 });
    for (const answer of answers) expect(await store.getEvent(answer.body.id as string)).toBeDefined();
    await store.close();

    const again = await startServe(dir);
    const replay = await postWebhook(again.url, bodies[7]!, { secret: SOURCE_SECRET });
    expect(replay.body).toEqual({ id: answers[7]!.body.id, duplicate: true, deliveries: 0 });
    again.cli.child.kill('SIGTERM');
    expect(await again.cli.exited).toBe(0);
  });

  it('shuts down cleanly on SIGTERM and reloads rules on SIGHUP', async () => {
    const dir = tempDir();
    const { cli } = await startServe(dir);
    writeFileSync(path.join(dir, 'rules.yaml'), TEST_RULES.replace('fallback: [tickets]', 'fallback: [soc-slack]'));
    cli.child.kill('SIGHUP');
    await cli.waitFor('rules reloaded');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('switchyard stopped');
  });
});
