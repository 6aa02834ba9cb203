import { expect, it } from 'vitest';
import { checkPage } from './support/check-page.js';
import { poll } from './support/poll.js';
import { openPage } from './support/open-browser.js';
import { signIn } from './support/sign-in.js';
import { describeChromium } from './support/describe-chromium.js';
import { useConsoleBrowser } from './support/use-console-browser.js';

describeChromium('dead letters in the console', () => {
  const harness = useConsoleBrowser();

  it('replays a dead letter after a dry run and a confirmation, and the recovered receiver gets it', async () => {
    const running = await harness.start();
    const { receiver, daemon } = running;
    receiver.script({ status: 503, body: 'down for maintenance' });
    await running.send('agent.offline', { host: 'db-7', title: 'Agent offline on db-7' });
    await expect
      .poll(async () => (await daemon.deliveries()).map((d) => d.state), { timeout: 10_000 })
      .toEqual(['dead']);

    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.operatorKey);
    await page.getByRole('link', { name: 'Dead letters' }).first().click();
    await page.getByRole('heading', { name: 'Dead letters' }).waitFor();
    const row = page.getByRole('row', { name: /receiver/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('HTTP 503');
    expect(await checkPage(page, 'dead-letters')).toEqual([]);

    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Replay selected (1)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay dead letters?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 delivery will be sent.');
    // Focus is in the dialog, on the safe choice (given once the dialog has rendered, so polled).
    const focused = () => page.evaluate<string>('document.activeElement.textContent');
    await poll(focused).toBe('Cancel');
    expect(await checkPage(page, 'dead-letters-confirm')).toEqual([]);
    // Escape cancels, sends nothing, and gives focus back to the button that opened the dialog.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await poll(focused).toBe('Replay selected (1)');
    expect(receiver.requests).toHaveLength(1);
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Send 1' }).click();
    await page.getByRole('status').filter({ hasText: '1 delivery re-queued.' }).waitFor();
    await receiver.waitForRequests(2, 10_000);
    await expect
      .poll(async () => (await daemon.deliveries()).map((d) => d.state), { timeout: 10_000 })
      .toEqual(['delivered']);
    await page.getByText('No dead letters match.').waitFor();
    expect(errors).toEqual([]);
  }, 90_000);

  it('replays all dead letters matching a reason, and only those', async () => {
    const running = await harness.start();
    const { receiver, daemon } = running;
    receiver.script({ status: 503, body: 'down for maintenance' }, { status: 500, body: 'template exploded' });
    await running.send('agent.offline', { host: 'db-1' });
    await poll(async () => (await daemon.deliveries()).length).toBe(1);
    await running.send('agent.offline', { host: 'db-2' });
    const states = async () => (await daemon.deliveries()).map((d) => d.state);
    await expect.poll(states, { timeout: 10_000 }).toEqual(['dead', 'dead']);

    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.operatorKey);
    await page.goto(`${running.adminUrl}/console/dead-letters`);
    await poll(() => page.getByRole('row', { name: /receiver/ }).count()).toBe(2);
    await page.getByLabel('Target').selectOption('receiver');
    await page.getByLabel('Reason contains').fill('maintenance');
    await page.getByRole('button', { name: 'Filter' }).click();
    await poll(() => page.getByRole('row', { name: /receiver/ }).count()).toBe(1);
    expect(page.url()).toContain('target=receiver&reason=maintenance');
    await page.getByRole('button', { name: 'Replay all matching' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay dead letters?' });
    expect(await dialog.locator('.replay-count').textContent()).toBe('1 delivery will be sent.');
    await dialog.getByRole('button', { name: 'Send 1' }).click();
    await receiver.waitForRequests(3, 10_000);
    await expect.poll(async () => (await states()).sort(), { timeout: 10_000 }).toEqual(['dead', 'delivered']);
    expect(receiver.requests[2]?.body.toString()).toContain('db-1');

    // The other one, from its event's page.
    await page.goto(`${running.adminUrl}/console/dead-letters`);
    await page
      .getByRole('row', { name: /template exploded/ })
      .getByRole('link')
      .click();
    await page.getByRole('button', { name: 'Replay this delivery' }).click();
    await page.getByRole('dialog', { name: 'Replay this delivery?' }).getByRole('button', { name: 'Replay' }).click();
    await receiver.waitForRequests(4, 10_000);
    await expect.poll(() => page.locator('.delivery .badge').textContent(), { timeout: 10_000 }).toBe('delivered');
    expect(await checkPage(page, 'event-replayed')).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it('shows a read-only key no replay button, and the daemon refuses the replay if the page forges it', async () => {
    const running = await harness.start();
    running.receiver.script({ status: 503 });
    await running.send('agent.offline', { host: 'db-8' });
    await poll(async () => (await running.daemon.deliveries())?.map((d) => d.state)).toEqual(['dead']);

    const { page, context } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    expect(await page.locator('.scopes').textContent()).toBe('read');
    await page.getByRole('link', { name: 'Dead letters' }).first().click();
    await page.getByRole('row', { name: /receiver/ }).waitFor();
    expect(await page.getByRole('button', { name: /Replay/ }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await checkPage(page, 'dead-letters-read-only')).toEqual([]);

    // With the session's own CSRF token, from the page itself: the scope is checked on the daemon.
    const forged = await page.evaluate<{ status: number; body: { error?: { code?: string } } }>(`
      fetch('/api/v1/session').then((r) => r.json()).then((session) =>
        fetch('/api/v1/replay', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: JSON.stringify({ target: 'receiver', dryRun: false }),
        })).then(async (r) => ({ status: r.status, body: await r.json() }))
    `);
    expect(forged).toEqual({ status: 403, body: { error: expect.objectContaining({ code: 'insufficient_scope' }) } });
    // Without the token, the CSRF check answers first.
    const tokenless = await page.evaluate<number>(
      `fetch('/api/v1/replay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"target":"receiver"}' }).then((r) => r.status)`,
    );
    expect(tokenless).toBe(403);
    expect((await running.daemon.deliveries()).map((d) => d.state)).toEqual(['dead']);

    // A session that ends (here: its cookie is gone) sends the page back to sign-in at the next live poll.
    await context.clearCookies();
    await page.getByText('Your session ended').waitFor();
    await page.getByLabel('Admin API key').waitFor();
  }, 90_000);
});
