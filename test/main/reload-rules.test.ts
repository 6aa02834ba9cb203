import { renameSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, TEST_RULES, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

async function versionOf(d: TestDaemon, id: string): Promise<string | undefined> {
  const store = createSqliteStore({ path: d.dbPath });
  try {
    return (await store.getEvent(id))?.rulesVersion;
  } finally {
    await store.close();
  }
}

describe('rules reload', () => {
  it('routes with the new rules after a reload and records which version routed what', async () => {
    daemon = await startTestDaemon(tempDir());
    const before = await postWebhook(daemon.url, envelope('threat.detected', { n: 1 }), { secret: SOURCE_SECRET });
    expect(before.body).toMatchObject({ deliveries: 1 }); // fallback
    writeFileSync(
      daemon.rulesPath,
      TEST_RULES.replace('fallback: [tickets]', 'fallback: [tickets, soc-slack, oncall-mail]'),
    );
    expect(daemon.running.reloadRules()).toBe(true);
    const after = await postWebhook(daemon.url, envelope('threat.detected', { n: 2 }), { secret: SOURCE_SECRET });
    expect(after.body).toMatchObject({ deliveries: 3 });
    const v1 = await versionOf(daemon, before.body.id as string);
    const v2 = await versionOf(daemon, after.body.id as string);
    expect(v1).not.toBe(v2);
  });

  it('keeps the rules in force when the new file is invalid, and logs why', async () => {
    daemon = await startTestDaemon(tempDir());
    writeFileSync(daemon.rulesPath, TEST_RULES.replace('to: [soc-slack, oncall-mail]', 'to: [soc-slak]'));
    expect(daemon.running.reloadRules()).toBe(false);
    const answer = await postWebhook(daemon.url, envelope('incident.created', { severity: 'critical' }), {
      secret: SOURCE_SECRET,
    });
    expect(answer.body).toMatchObject({ deliveries: 2 });
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'rules reload failed; the previous rules stay in force' }),
    );
  });

  it('logs each problem of an invalid reload with its file:line:column, as `switchyard check` prints it', async () => {
    daemon = await startTestDaemon(tempDir());
    const invalid = TEST_RULES.replace('to: [soc-slack, oncall-mail]', 'to: [soc-slak]');
    const lines = invalid.split('\n');
    const line = lines.findIndex((l) => l.includes('[soc-slak]')) + 1;
    const column = (lines[line - 1] ?? '').indexOf('soc-slak') + 1;
    writeFileSync(daemon.rulesPath, invalid);
    expect(daemon.running.reloadRules()).toBe(false);
    const failure = daemon
      .logs()
      .find((l) => l.message === 'rules reload failed; the previous rules stay in force' && l.trigger === 'signal');
    expect(failure).toMatchObject({ level: 'error' });
    expect(String(failure?.error)).toContain(
      `${daemon.rulesPath}:${line}:${column}: error: unknown target "soc-slak": did you mean "soc-slack"? (defined: soc-slack, oncall-mail, tickets)`,
    );

    // A YAML syntax error is located the same way.
    writeFileSync(daemon.rulesPath, 'routes: [ {');
    expect(daemon.running.reloadRules()).toBe(false);
    const syntax = daemon.logs().filter((l) => l.level === 'error' && l.trigger === 'signal')[1];
    expect(String(syntax?.error)).toContain(
      `${daemon.rulesPath}:1:11: error: this "{" is not closed: add "}" at the end of the value`,
    );
  });

  it("picks up an editor's write-to-temp-then-rename within 2 s, and ignores an invalid version the same way", async () => {
    daemon = await startTestDaemon(tempDir());
    const running = daemon;
    const replace = (text: string) => {
      const temp = `${running.rulesPath}.tmp`;
      writeFileSync(temp, text);
      renameSync(temp, running.rulesPath);
    };
    const reloads = (level: string) =>
      running.logs().filter((line) => line.level === level && line.trigger === 'watch').length;

    replace(TEST_RULES.replace('fallback: [tickets]', 'fallback: [tickets, soc-slack]'));
    // The watcher polls every 250 ms, so the pickup takes well under 2 s; the test allows 5 s because a loaded
    // CI machine can delay any timer, and a timing bound here would test the machine, not the watcher.
    const started = Date.now();
    while (reloads('info') === 0 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 50));
    expect(reloads('info')).toBe(1);
    const answer = await postWebhook(running.url, envelope('threat.detected', { n: 3 }), { secret: SOURCE_SECRET });
    expect(answer.body).toMatchObject({ deliveries: 2 });

    replace('routes: [ {');
    while (reloads('error') === 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(reloads('error')).toBe(1);
    const still = await postWebhook(running.url, envelope('threat.detected', { n: 4 }), { secret: SOURCE_SECRET });
    expect(still.body).toMatchObject({ deliveries: 2 });
  });

  it('reloads through the admin API (replay scope) on the daemon itself, refusing an invalid file with 422', async () => {
    const { key, hash } = newApiKey();
    daemon = await startTestDaemon(tempDir(), {
      config: `admin: { listen: null, keys: [{ name: ops, hash: "${hash}", scopes: [read, replay] }] }`,
    });
    const reload = () =>
      fetch(`${daemon?.url}/admin/api/v1/rules/reload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await fetch(`${daemon.url}/admin/api/v1/rules/reload`, { method: 'POST' })).status).toBe(401);

    writeFileSync(daemon.rulesPath, TEST_RULES.replace('fallback: [tickets]', 'fallback: [tickets, soc-slack]'));
    expect((await reload()).status).toBe(200);
    const answer = await postWebhook(daemon.url, envelope('threat.detected', { n: 5 }), { secret: SOURCE_SECRET });
    expect(answer.body).toMatchObject({ deliveries: 2 });

    writeFileSync(daemon.rulesPath, 'routes: [ {');
    const refused = await reload();
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: {
        code: 'rules_invalid',
        message: expect.stringMatching(/^the rules file is invalid; the rules in force \(version [0-9a-f]{12}\) stay$/),
        problems: [
          {
            severity: 'error',
            code: 'yaml_syntax',
            message: 'this "{" is not closed: add "}" at the end of the value',
            file: daemon.rulesPath,
            line: 1,
            column: 11,
          },
        ],
      },
    });
    expect(daemon.logs()).toContainEqual(expect.objectContaining({ trigger: 'admin', level: 'error' }));
  });

  it('counts a reload of the unchanged file, and says the rules are valid again when the file in force is put back', async () => {
    const token = 'metrics-token-0123456789abcdef';
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: token } });
    const running = daemon;
    const scrape = async () =>
      (await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    // Replaced by rename, as editors do, so the watcher sees one change; each step waits for the watcher's
    // reload, so no later reload can slip in between the steps and the counts.
    const replace = (text: string) => {
      writeFileSync(`${running.rulesPath}.tmp`, text);
      renameSync(`${running.rulesPath}.tmp`, running.rulesPath);
    };
    const watchLogs = (level: string) => running.logs().filter((l) => l.level === level && l.trigger === 'watch');
    const waitFor = async (found: () => boolean) => {
      const started = Date.now();
      while (!found() && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    };

    expect(running.running.reloadRules()).toBe(true); // on request, nothing changed
    expect(await scrape()).toMatch(/^switchyard_rules_reloads_total\{result="unchanged"\} 1$/m);
    expect(running.logs().filter((l) => l.level === 'info' && l.trigger === 'signal')).toEqual([]);

    replace(TEST_RULES.replace('fallback: [tickets]', 'fallback: [nowhere]'));
    await waitFor(() => watchLogs('error').length > 0);
    expect(await scrape()).toMatch(/^switchyard_rules_last_reload_ok 0$/m);

    replace(TEST_RULES); // the version in force, put back
    await waitFor(() => watchLogs('info').length > 0);
    expect(watchLogs('info')).toEqual([
      expect.objectContaining({ message: 'rules are valid again; the rules in force are unchanged' }),
    ]);
    const text = await scrape();
    expect(text).toMatch(/^switchyard_rules_reloads_total\{result="unchanged"\} 2$/m);
    expect(text).toMatch(/^switchyard_rules_reloads_total\{result="failure"\} 1$/m);
    expect(text).toMatch(/^switchyard_rules_last_reload_ok 1$/m);
    const ready = (await (
      await fetch(`${running.url}/readyz`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { checks: { rules: unknown } };
    expect(ready.checks.rules).toMatchObject({ ok: true, last_reload: { ok: true, trigger: 'watch', error: null } });
  });
});
