import { expect, it } from 'vitest';
import { checkPage } from './support/check-page.js';
import { poll } from './support/poll.js';
import { openPage } from './support/open-browser.js';
import { signIn } from './support/sign-in.js';
import { describeChromium } from './support/describe-chromium.js';
import { useConsoleBrowser } from './support/use-console-browser.js';

describeChromium('the console in Chromium, against a running daemon', () => {
  const harness = useConsoleBrowser();

  it('signs in, shows an event arriving live, explains its routing, and signs out', async () => {
    const running = await harness.start();
    const { page, errors } = await openPage(harness.browser());

    await page.goto(`${running.adminUrl}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await checkPage(page, 'sign-in')).toEqual([]);
    await page.getByLabel('Admin API key').fill('sy_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('unauthorized');

    await running.send('incident.created', { severity: 'critical', title: 'Ransomware on fs-2', host: 'fs-2' });
    await signIn(page, running.adminUrl, running.operatorKey);
    expect(await page.locator('.key-name').textContent()).toBe('shift-lead');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.locator('.chart-svg rect').first().waitFor();
    expect(await page.locator('.rules-version').textContent()).toMatch(/^[0-9a-f]{6,}$/);
    expect(await page.getByRole('table').first().textContent()).toContain('receiver');
    expect(await checkPage(page, 'overview')).toEqual([]);

    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('link', { name: 'Ransomware on fs-2' }).waitFor();
    // The poller has learnt its cursor; an event sent now appears without a reload, announced politely.
    await page.waitForTimeout(2500);
    const id = await running.send('incident.created', {
      severity: 'high',
      title: 'Brute force on vpn-1',
      host: 'vpn-1',
    });
    await page.getByRole('link', { name: 'Brute force on vpn-1' }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole('status').filter({ hasText: 'new event' }).textContent()).toBe('1 new event');
    expect(await checkPage(page, 'events')).toEqual([]);
    // Filters by keyboard alone: the skip link first, then the form, Enter applies it (and the URL keeps it).
    await page.reload();
    await page.getByRole('link', { name: 'Brute force on vpn-1' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Skip to content');
    await page.getByLabel('Title contains').focus();
    await page.keyboard.type('ransomware');
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('link', { name: 'Brute force on vpn-1' }).count()).toBe(0);
    expect(page.url()).toContain('/console/events?q=ransomware');
    await page.getByRole('link', { name: 'Ransomware on fs-2' }).waitFor();
    await page.getByLabel('Title contains').fill('');
    await page.keyboard.press('Enter');

    await page.getByRole('link', { name: 'Brute force on vpn-1' }).click();
    await page.getByRole('heading', { name: 'Brute force on vpn-1' }).waitFor();
    expect(page.url()).toBe(`${running.adminUrl}/console/events/${id}`);
    const routes = page.getByRole('table', { name: 'Routes under the rules in force' });
    await poll(() => routes.getByRole('row', { name: /serious-incidents/ }).textContent()).toContain('matched');
    expect(await routes.getByRole('row', { name: /agents/ }).textContent()).toContain('not-matched');
    expect(await page.locator('.routing > p').first().textContent()).toContain('Severity high; to receiver.');
    expect(await page.locator('pre.code').textContent()).toContain('"title": "Brute force on vpn-1"');
    expect(await checkPage(page, 'event')).toEqual([]);

    // The same event in the rule tester, routed under the rules in force.
    await page.getByRole('link', { name: 'Test in the rule tester' }).click();
    await poll(() => page.getByLabel('Event envelope (JSON)').inputValue()).toContain('Brute force on vpn-1');
    await page.getByRole('button', { name: 'Check' }).click();
    const tested = page.getByRole('region', { name: /Result under the rules in force/ });
    expect(await tested.getByRole('row', { name: /serious-incidents/ }).textContent()).toContain('matched');

    // A delivery's state changes on an open event page without a reload.
    running.receiver.script({ status: 200, delayMs: 4000 });
    const slow = await running.send('agent.offline', { host: 'db-3', title: 'Agent offline on db-3' });
    await page.goto(`${running.adminUrl}/console/events/${slow}`);
    const badge = page.locator('.delivery .badge');
    await poll(() => badge.textContent()).toBe('pending');
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe('delivered');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The session is gone on the daemon too: a reload does not bring the events back.
    await page.goto(`${running.adminUrl}/console/events`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
  }, 90_000);
});
