import { expect, it } from 'vitest';
import { screenshot, seriousAxeViolations } from './support/check-page.js';
import { describeChromium } from './support/describe-chromium.js';
import { openPage } from './support/open-browser.js';
import { sidewaysOverflow } from './support/page-width.js';
import { poll } from './support/poll.js';
import { seedEvents } from './support/seed-events.js';
import { signIn } from './support/sign-in.js';
import { useConsoleBrowser } from './support/use-console-browser.js';

describeChromium('the console on a narrow screen and with large numbers', () => {
  const harness = useConsoleBrowser();

  it('at 390 px wide no page scrolls sideways and axe finds nothing serious, a 100 KB one-word title included', async () => {
    const running = await harness.start();
    const long = await running.send('incident.created', { severity: 'critical', title: 'A'.repeat(100_000) });
    await running.send('agent.offline', { host: 'db-7', title: 'Agent offline on db-7' });
    const silence = await fetch(`${running.adminUrl}/api/v1/silences`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.operatorKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        match: { event: 'agent.*', where: [{ field: 'data.host', equals: 'db-7' }] },
        duration: '2h',
        comment: 'patching db-7',
      }),
    });
    expect(silence.status).toBe(201);
    const { page, errors } = await openPage(harness.browser());
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, running.adminUrl, running.operatorKey);

    const pages: [name: string, path: string, ready: string][] = [
      ['overview', '/console/', 'Targets'],
      ['events', '/console/events', 'Events'],
      ['event-long-title', `/console/events/${long}`, 'Deliveries (1)'],
      ['dead-letters', '/console/dead-letters', 'Dead letters'],
      ['silences', '/console/silences', 'New silence'],
      ['rule-tester', '/console/rule-tester', 'Rule tester'],
    ];
    for (const [name, path, ready] of pages) {
      await page.goto(`${running.adminUrl}${path}`);
      await page.getByRole('heading', { name: ready, exact: true }).waitFor();
      if (name === 'silences') await page.getByRole('row', { name: /patching db-7/ }).waitFor();
      if (name === 'rule-tester') {
        await page.getByRole('button', { name: 'Check' }).click();
        await page.getByRole('region', { name: /Result under the rules in force/ }).waitFor();
      }
      await screenshot(page, `narrow-${name}`);
      await page.screenshot({ path: `/tmp/cons/narrow-${name}.png`, fullPage: true });
      expect.soft(await sidewaysOverflow(page), name).toEqual({ overflow: 0, culprits: [] });
      expect.soft(await seriousAxeViolations(page), name).toEqual([]);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it("shows the chart's five-digit y-axis label whole, and info apart from events without a severity", async () => {
    const running = await harness.start();
    const minuteAgo = Date.now() - 5 * 60_000;
    await seedEvents(running.daemon.dbPath, 10_006, (i) => ({
      receivedAt: minuteAgo,
      severity: i < 10_000 ? 'high' : i < 10_003 ? 'info' : null,
    }));
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    const legend = page.locator('.legend');
    await poll(() => legend.textContent()).toContain('high: 10000');
    // In the SVG's own units: a label starting left of 0 is cut off by the viewBox.
    const labelX = `[...document.querySelectorAll('svg.chart-svg text')]
      .find((text) => text.textContent === '10006').getBBox().x`;
    expect(await page.evaluate<number>(labelX)).toBeGreaterThanOrEqual(0);
    const colour = (severity: string) =>
      page.evaluate<string>(`getComputedStyle(document.querySelector('.legend .sev-${severity}')).backgroundColor`);
    expect(await colour('info')).not.toBe(await colour('none'));
    await page.screenshot({ path: '/tmp/cons/chart.png', fullPage: true });
    expect(errors).toEqual([]);
  }, 120_000);
});
