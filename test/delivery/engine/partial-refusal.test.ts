import { afterEach, describe, expect, it } from 'vitest';
import { createEmailTarget } from '../../../src/delivery/targets/email-target.js';
import type { Logger } from '../../../src/log/logger.js';
import type { HttpTargetSpec } from '../../../src/rules/rules.js';
import { startSmtpServer, type RunningSmtpServer } from '../../helpers/start-smtp-server.js';
import { describePostgres } from '../../store/describe-postgres.js';
import { makeEmailSpec } from '../targets/make-email-spec.js';
import { quietLog } from '../targets/make-target-spec.js';
import { engineHarness, scriptedTarget, waitFor, type Backend } from './engine-harness.js';

const disposers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

function recordingLog(): Logger & { lines: { message: string; fields?: Record<string, unknown> }[] } {
  const lines: { message: string; fields?: Record<string, unknown> }[] = [];
  const record = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields });
  return { lines, error: record, warn: record, info() {}, debug() {}, addSecrets() {} };
}

/**
 * A real SMTP server that refuses the on-call address with 451 (its mailbox is full) once, then takes it; an
 * e-mail target for both addresses, run by the engine on a real journal, stopped after the first attempt as a
 * crash or a deploy would, and started again with new target clients.
 */
async function refusedOnceThenRestarted(backend: Backend) {
  const server: RunningSmtpServer = await startSmtpServer({
    rcpt: (n) => (n === 2 ? { code: 451, message: '4.2.2 Mailbox full' } : 'accept'),
  });
  disposers.push(() => server.close());
  const spec = makeEmailSpec(server.port, {
    name: 'mail',
    to: ['soc@example.com', 'oncall@example.com'],
  });
  let client = createEmailTarget(spec, { log: quietLog });
  const target = scriptedTarget((job, signal) => client.send(job, signal));
  const log = recordingLog();
  const h = await engineHarness([spec as unknown as HttpTargetSpec], { mail: target }, { backend, log });
  disposers.push(async () => {
    await client.close();
    await h.dispose();
  });
  await h.ingest(1, ['mail']);

  const first = h.newEngine();
  await first.start();
  const [pending] = await waitFor(
    () => h.store.findDeliveries({}),
    (rows) => rows[0]?.attempts === 1,
  );
  await first.stop(0);
  await client.close();

  client = createEmailTarget(spec, { log: quietLog });
  h.clock.advance(60_000);
  await h.newEngine().start();
  const [done] = await waitFor(
    () => h.store.findDeliveries({}),
    (rows) => rows[0]?.state === 'delivered',
  );
  const attempts = await h.store.listAttempts(done?.id ?? '');
  return { server, pending, done, attempts, h, log };
}

function expectOnlyTheRefusedRecipientRetried(run: Awaited<ReturnType<typeof refusedOnceThenRestarted>>) {
  const { server, pending, done, attempts } = run;
  expect(pending).toMatchObject({ state: 'pending', attempts: 1 });
  expect(pending?.lastError).toBe(
    'refused for oncall@example.com (451 4.2.2 Mailbox full); accepted for soc@example.com (not sent to them again) [still owed: oncall@example.com]',
  );
  expect(attempts.map((attempt) => attempt.outcome)).toEqual(['retry', 'delivered']);
  expect(attempts[0]?.detail).toContain('oncall@example.com');
  expect(done).toMatchObject({ state: 'delivered', attempts: 2, lastError: null });
  // The second attempt went to the on-call address only; the message still names both.
  expect(server.messages.map((message) => message.rcptTo)).toEqual([['soc@example.com'], ['oncall@example.com']]);
  expect(server.messages[1]?.raw).toMatch(/^To: soc@example\.com, oncall@example\.com\r$/m);
}

async function expectRefusalCountedAndLogged(run: Awaited<ReturnType<typeof refusedOnceThenRestarted>>) {
  expect(await run.h.metrics.value('switchyard_email_recipients_refused_total', { target: 'mail' })).toBe(1);
  expect(await run.h.metrics.render()).toMatch(/^switchyard_email_recipients_refused_total\{target="mail"\} 1$/m);
  expect(run.log.lines.filter((line) => line.message === 'e-mail recipients refused')).toEqual([
    {
      message: 'e-mail recipients refused',
      fields: expect.objectContaining({ target: 'mail', refused: ['oncall@example.com'], outcome: 'retry' }),
    },
  ]);
}

describe('a recipient the SMTP server refuses while it takes the others (SQLite journal)', () => {
  it('is retried alone, also after a restart, and the refusal is logged and counted', async () => {
    const run = await refusedOnceThenRestarted('sqlite');
    expectOnlyTheRefusedRecipientRetried(run);
    await expectRefusalCountedAndLogged(run);
  });
});

describePostgres('a recipient the SMTP server refuses while it takes the others (PostgreSQL journal)', () => {
  it('is retried alone, also after a restart, and the refusal is logged and counted', async () => {
    const run = await refusedOnceThenRestarted('postgres');
    expectOnlyTheRefusedRecipientRetried(run);
    await expectRefusalCountedAndLogged(run);
  });
});
