import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { checkPage } from './support/check-page.js';
import { poll } from './support/poll.js';
import { openPage } from './support/open-browser.js';
import { signIn } from './support/sign-in.js';
import { describeChromium } from './support/describe-chromium.js';
import { useConsoleBrowser } from './support/use-console-browser.js';

describeChromium('silences and the rule tester in the console', () => {
  const harness = useConsoleBrowser();

  it('creates a silence from an event ("like this"), then expires it', async () => {
    const running = await harness.start();
    const id = await running.send('agent.offline', { host: 'db-9', title: 'Agent offline on db-9' });
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.operatorKey);
    await page.goto(`${running.adminUrl}/console/events/${id}`);
    await page.getByRole('button', { name: 'Silence events like this' }).click();

    await page.getByRole('heading', { name: 'New silence' }).waitFor();
    expect(await page.getByLabel('Event kind (glob)').inputValue()).toBe('agent.offline');
    expect(await page.getByLabel('Field (optional)').inputValue()).toBe('data.host');
    expect(await page.getByLabel('Value').inputValue()).toBe('db-9');
    await page.getByLabel('Why (comment)').fill('patching db-9');
    await page.getByRole('button', { name: 'Create silence' }).click();
    const row = page.getByRole('row', { name: /patching db-9/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('active');
    expect(await row.textContent()).toContain('data.host equals "db-9"');
    expect(await row.textContent()).toContain('shift-lead');
    expect(await checkPage(page, 'silences')).toEqual([]);

    // An event like it now is held by the silence, and its page says so.
    const held = await running.send('agent.offline', { host: 'db-9', title: 'Agent offline on db-9 again' });
    await page.goto(`${running.adminUrl}/console/events/${held}`);
    await page.getByRole('heading', { name: 'Agent offline on db-9 again' }).waitFor();
    expect(await page.locator('.delivery .held').textContent()).toMatch(/^silenced by sil_/);
    expect(await checkPage(page, 'event-silenced')).toEqual([]);
    await page.goBack();
    await row.waitFor();

    const before = await row.locator('time').getAttribute('datetime');
    await row.getByRole('button', { name: /in 4h$/ }).click();
    await page.getByRole('status').filter({ hasText: 'now ends' }).waitFor();
    await poll(() => row.locator('time').getAttribute('datetime')).not.toBe(before);
    const extended = Date.parse((await row.locator('time').getAttribute('datetime')) ?? '');
    expect(extended - Date.now()).toBeGreaterThan(3.9 * 3600_000);

    await row.getByRole('button', { name: 'Expire' }).click();
    const dialog = page.getByRole('dialog', { name: 'Expire this silence?' });
    await dialog.getByRole('button', { name: 'Expire now' }).click();
    await page.getByRole('status').filter({ hasText: 'expired.' }).waitFor();
    await page.getByText('No active silences.').waitFor();
    await page.getByLabel('Show').selectOption('expired');
    await page
      .getByRole('row', { name: /patching db-9/ })
      .getByText('expired')
      .waitFor();
    expect(await checkPage(page, 'silences-expired')).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it('empties the form after creating, so a second click makes no duplicate; focus stays on the page after Expire now', async () => {
    const running = await harness.start();
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.operatorKey);
    await page.getByRole('link', { name: 'Silences' }).click();
    await page.getByLabel('Event kind (glob)').fill('agent.*');
    await page.getByLabel('Why (comment)').fill('maintenance window');
    const create = page.getByRole('button', { name: 'Create silence' });
    await create.click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
    await poll(() => page.getByLabel('Why (comment)').inputValue()).toBe('');
    expect(await page.getByLabel('Event kind (glob)').inputValue()).toBe('');
    // The emptied form's required fields stop a second click: no second silence.
    await create.click();
    const rows = page.getByRole('row', { name: /maintenance window/ });
    await rows.first().waitFor();
    const listed = await fetch(`${running.adminUrl}/api/v1/silences`, {
      headers: { authorization: `Bearer ${running.readerKey}` },
    });
    expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(1);
    expect(await rows.count()).toBe(1);

    await rows.getByRole('button', { name: 'Expire' }).click();
    await page
      .getByRole('dialog', { name: 'Expire this silence?' })
      .getByRole('button', { name: 'Expire now' })
      .click();
    await page.getByText('No active silences.').waitFor();
    // Its row (and the button that had focus) left the list: focus is on what happened, not on the page's body.
    const focused = () => page.evaluate<string>('document.activeElement.textContent');
    await poll(focused).toMatch(/^Silence sil_\w+ expired\.$/);
    expect(await page.evaluate<string>('document.activeElement.tagName')).not.toBe('BODY');
    await page.screenshot({ path: '/tmp/cons/silences-after-expire.png', fullPage: true });
    expect(await checkPage(page, 'silences-after-expire')).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it('checks an edited copy of the rules, showing an error with its line, and leaves the rules in force alone', async () => {
    const running = await harness.start();
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    await page.getByRole('link', { name: 'Rule tester' }).click();
    await page.getByRole('heading', { name: 'Rule tester' }).waitFor();

    // No copy of the rules: the sample event is routed under the rules in force.
    await page.getByRole('button', { name: 'Check' }).click();
    const result = page.getByRole('region', { name: /Result under the rules in force/ });
    await result.waitFor();
    expect(await result.getByRole('row', { name: /serious-incidents/ }).textContent()).toContain('matched');

    const edited = [
      'targets:',
      '  receiver: { type: http, url: "http://127.0.0.1:9/hook" }',
      'routes:',
      '  - name: everything',
      '    match: { event: "*" }',
      '    to: [reciever]',
      'fallback: []',
    ].join('\n');
    await page.getByLabel('Rules (YAML)').fill(edited);
    await page.getByRole('button', { name: 'Check' }).click();
    const problems = page.getByRole('region', { name: /Result under the edited rules/ });
    await problems.getByText('The rules are invalid.').waitFor();
    const problem = problems.locator('.problem-error').first();
    expect(await problem.textContent()).toMatch(/^6:\d+ error: .*reciever/);
    await problem.getByRole('button').click();
    // The cursor is put on the problem's line in the editor.
    const caret = await page.evaluate<number>('document.getElementById("tester-rules").selectionStart');
    expect(edited.slice(0, caret).split('\n')).toHaveLength(6);
    expect(await checkPage(page, 'rule-tester')).toEqual([]);

    const rules = await fetch(`${running.adminUrl}/api/v1/rules`, {
      headers: { authorization: `Bearer ${running.readerKey}` },
    });
    expect(JSON.stringify(await rules.json())).toContain('serious-incidents');

    // The same mistake in the file itself: the reload fails, the Overview says so with the problem's line.
    writeFileSync(running.daemon.rulesPath, edited);
    const reload = await fetch(`${running.adminUrl}/api/v1/rules/reload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.operatorKey}` },
    });
    expect(reload.status).toBe(422);
    await page.getByRole('link', { name: 'Overview' }).click();
    const failure = page.getByRole('region', { name: 'Rules' });
    await failure.getByText(/The last reload .* failed/).waitFor();
    expect(await failure.textContent()).toMatch(/6:10 error: unknown target "reciever"/);
    expect(await checkPage(page, 'overview-reload-failed')).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);
});
