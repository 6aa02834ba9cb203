import { writeFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, TEST_RULES, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

// Two versions that route threat.detected differently: the fallback alone, or the fallback and Slack.
const V1 = TEST_RULES;
const V2 = TEST_RULES.replace('fallback: [tickets]', 'fallback: [tickets, soc-slack]');

it('routes every event by exactly one rules version while the rules are swapped under load, losing none', async () => {
  daemon = await startTestDaemon(tempDir(), { rules: V1 });
  const running = daemon;
  let swapping = true;
  const swaps = (async () => {
    for (let n = 0; swapping; n++) {
      writeFileSync(running.rulesPath, n % 2 === 0 ? V2 : V1);
      running.running.reloadRules();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const answers = [];
  for (let batch = 0; batch < 10; batch++) {
    answers.push(
      ...(await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          postWebhook(running.url, envelope('threat.detected', { n: batch * 20 + n }), { secret: SOURCE_SECRET }),
        ),
      )),
    );
  }
  swapping = false;
  await swaps;
  expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));

  const store = createSqliteStore({ path: running.dbPath });
  try {
    const events = await store.findEvents({ limit: 1000 });
    expect(events).toHaveLength(200);
    const targetsByVersion = new Map<string, Set<string>>();
    for (const event of events) {
      const targets = (await store.listDeliveries(event.id)).map((d) => d.target).join(',');
      const seen = targetsByVersion.get(event.rulesVersion) ?? new Set<string>();
      seen.add(targets);
      targetsByVersion.set(event.rulesVersion, seen);
    }
    // Both versions routed events, and every event of one version got exactly that version's targets.
    expect(targetsByVersion.size).toBe(2);
    expect([...targetsByVersion.values()].map((set) => [...set]).sort()).toEqual([['soc-slack,tickets'], ['tickets']]);
  } finally {
    await store.close();
  }
}, 30_000);
