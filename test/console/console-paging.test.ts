import { expect, it } from 'vitest';
import { poll } from './support/poll.js';
import { openPage } from './support/open-browser.js';
import { signIn } from './support/sign-in.js';
import { describeChromium } from './support/describe-chromium.js';
import { useConsoleBrowser } from './support/use-console-browser.js';

describeChromium('the events list in the console', () => {
  const harness = useConsoleBrowser();

  it('pages back with "Older" and filters by severity', async () => {
    const running = await harness.start();
    for (let i = 1; i <= 55; i += 1) {
      await running.send('incident.created', { severity: i % 5 === 0 ? 'critical' : 'low', title: `Incident ${i}` });
    }
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    await page.goto(`${running.adminUrl}/console/events`);
    const rows = page.locator('table.events-table tbody tr');
    await poll(() => rows.count()).toBe(50);
    expect(await rows.first().textContent()).toContain('Incident 55');
    await page.getByRole('button', { name: 'Older' }).click();
    await poll(() => rows.count()).toBe(55);
    expect(await rows.last().textContent()).toContain('Incident 1');
    expect(await page.getByRole('button', { name: 'Older' }).count()).toBe(0);

    await page.getByLabel('Severity').selectOption('critical');
    await page.getByRole('button', { name: 'Filter' }).click();
    await poll(() => rows.count()).toBe(11);
    expect(page.url()).toContain('severity=critical');
    expect(await rows.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Incident 50')]));
    expect(errors).toEqual([]);
  }, 90_000);
});
