import { expect, it } from 'vitest';
import { buildDigestEvent } from '../../src/noise/build-digest-event.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { makeIngestItem } from '../store/make-ingest-item.js';
import { checkPage } from './support/check-page.js';
import { describeChromium } from './support/describe-chromium.js';
import { openPage } from './support/open-browser.js';
import { poll } from './support/poll.js';
import { seedEvents } from './support/seed-events.js';
import { signIn } from './support/sign-in.js';
import { useConsoleBrowser } from './support/use-console-browser.js';

describeChromium('events as the console shows and finds them', () => {
  const harness = useConsoleBrowser();

  it('shows a right-to-left override in a title as a marker, so gnp.exe cannot pose as exe.png', async () => {
    const running = await harness.start();
    const id = await running.send('incident.created', {
      severity: 'high',
      title: 'Attachment invoice_\u202Egnp.exe opened',
      host: 'pc-\u2067db\u2069',
    });
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    await page.goto(`${running.adminUrl}/console/events`);
    const row = page.locator('table.events-table tbody tr').first();
    await poll(() => row.textContent()).toContain('invoice_⟨U+202E⟩gnp.exe');
    await page.goto(`${running.adminUrl}/console/events/${id}`);
    const heading = page.getByRole('heading', { level: 1 });
    await poll(() => heading.textContent()).toBe('Attachment invoice_⟨U+202E⟩gnp.exe opened');
    const envelope = page.getByLabel('Envelope as JSON');
    expect(await envelope.textContent()).toContain('"host": "pc-⟨U+2067⟩db⟨U+2069⟩"');
    // Nothing of the page holds the control itself any more.
    expect(await page.evaluate<boolean>('/[\\u202A-\\u202E\\u2066-\\u2069]/.test(document.body.innerText)')).toBe(
      false,
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it('says that a search stopped at its bound, and searches on when asked', async () => {
    const running = await harness.start();
    const start = Date.now() - 3 * 3600_000;
    // The needle is the oldest of 20,005 events: past the 20,000 a search reads at once.
    await seedEvents(running.daemon.dbPath, 20_005, (i) => ({
      receivedAt: start + i,
      title: i === 0 ? 'needle in the haystack' : `hay ${i}`,
    }));
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    await page.goto(`${running.adminUrl}/console/events?q=needle`);
    const notice = page.getByRole('status').filter({ hasText: 'No match yet' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('reads at most 20,000 events at a time');
    expect(await page.getByText('No events match.').count()).toBe(0);
    await checkPage(page, 'events-search-bound');
    await page.screenshot({ path: '/tmp/cons/events-search-bound.png', fullPage: true });

    await page.getByRole('button', { name: 'Search older events' }).click();
    const rows = page.locator('table.events-table tbody tr');
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('needle in the haystack');
    await poll(() => notice.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Search older events' }).count()).toBe(0);
    expect(errors).toEqual([]);
  }, 90_000);

  it('filters by target and delivery state from the URL, as the API does', async () => {
    const running = await harness.start();
    running.receiver.script({ status: 503, body: 'down' });
    await running.send('incident.created', { severity: 'critical', title: 'Ransomware on fs-1' });
    await poll(async () => (await running.daemon.deliveries()).map((d) => d.state)).toEqual(['dead']);
    await running.send('agent.offline', { host: 'db-3', title: 'Agent offline on db-3' });
    await poll(async () => (await running.daemon.deliveries()).map((d) => d.state).sort()).toEqual([
      'dead',
      'delivered',
    ]);
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    await page.goto(`${running.adminUrl}/console/events?target=receiver&state=dead`);
    const rows = page.locator('table.events-table tbody tr');
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Ransomware on fs-1');
    expect(await page.getByLabel('Delivery state').inputValue()).toBe('dead');
    expect(await page.getByLabel('Delivered to target').inputValue()).toBe('receiver');
    await page.getByLabel('Delivery state').selectOption('delivered');
    await page.getByRole('button', { name: 'Filter' }).click();
    await poll(() => rows.first().textContent()).toContain('Agent offline on db-3');
    expect(await rows.count()).toBe(1);
    expect(page.url()).toContain('state=delivered');
    expect(await checkPage(page, 'events-by-delivery')).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it("shows a digest's title in the list and, on its page, what it collected rather than a routing", async () => {
    const running = await harness.start();
    const now = Date.now();
    const store = createSqliteStore({ path: running.daemon.dbPath });
    let digestId: string | undefined;
    try {
      const group = { route: 'agents', key: 'agents|db-4', waitMs: 1, intervalMs: 60_000, maxEvents: 10 };
      await store.ingest(
        [0, 1, 2].map((n) => ({
          ...makeIngestItem({ targets: ['receiver'], receivedAt: now - 10_000 + n }),
          groups: [{ ...group, digestId: 'dig_console' }],
        })),
      );
      // The daemon's own sender may get to it first; either way there is one digest event.
      await store.sendDigest('dig_console', now, (digest, events) =>
        buildDigestEvent(digest, events, { id: 'evt_console_digest', now, rulesVersion: 'test' }),
      );
      await poll(async () => (await store.findEvents({ kind: 'switchyard.digest' })).length).toBe(1);
      digestId = (await store.findEvents({ kind: 'switchyard.digest' }))[0]?.id;
    } finally {
      await store.close();
    }
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.readerKey);
    await page.goto(`${running.adminUrl}/console/events?kind=switchyard.digest`);
    const rows = page.locator('table.events-table tbody tr');
    await poll(() => rows.first().textContent()).toContain('3 events grouped by agents: db-4');
    await page.goto(`${running.adminUrl}/console/events/${digestId}`);
    const digest = page.getByRole('region', { name: 'Digest' });
    await digest.waitFor();
    expect(await digest.textContent()).toContain('3 events grouped by route agents for receiver');
    expect(await digest.getByRole('link').count()).toBe(3);
    expect(await page.getByText('no route matched').count()).toBe(0);
    expect(await checkPage(page, 'event-digest')).toEqual([]);
    await page.screenshot({ path: '/tmp/cons/event-digest.png', fullPage: true });
    expect(errors).toEqual([]);
  }, 90_000);

  it('after a daemon restart, the sign-in page says the daemon forgot the session, not that the key changed', async () => {
    const running = await harness.start();
    const { page, errors } = await openPage(harness.browser());
    await signIn(page, running.adminUrl, running.operatorKey);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await running.restart();
    const notice = page.getByRole('status').filter({ hasText: 'Your session ended' });
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain('it restarted since the sign-in');
    expect(await notice.textContent()).not.toMatch(/changed|rotated|expired/);
    await page.screenshot({ path: '/tmp/cons/sign-in-after-restart.png', fullPage: true });
    // A page whose daemon went away for a moment logs the failed polls; what matters is the notice.
    expect(errors.filter((error) => !error.includes('Failed to fetch'))).toEqual([]);
  }, 90_000);
});
