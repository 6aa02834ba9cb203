import { describe, expect, it } from 'vitest';
import { makeEmailJob } from './make-email-job.js';
import { makeEmailSpec } from './make-email-spec.js';
import { never, useEmailTargets } from './use-email-targets.js';

const use = useEmailTargets();
const to = ['soc@example.com', 'oncall@example.com'];
/** The second RCPT TO (the on-call address) is refused with `code`. */
const refusingOncall = (code: number) => ({
  rcpt: (n: number) =>
    n === 2 ? { code, message: `${code === 451 ? '4.2.2 Mailbox full' : '5.7.1 Blocked'}` } : 'accept',
});

describe('e-mail target: a message taken for some recipients and refused for others', () => {
  it('by default retries a 4xx refusal, owing the message to the refused recipient only', async () => {
    const server = await use.server(refusingOncall(451));

    const outcome = await use.target(makeEmailSpec(server.port, { to })).send(makeEmailJob(), never());

    expect(outcome).toEqual({
      kind: 'retry',
      status: 451,
      error:
        'refused for oncall@example.com (451 4.2.2 Mailbox full); accepted for soc@example.com (not sent to them again)',
      refused: ['oncall@example.com'],
      owed: ['oncall@example.com'],
    });
    expect(server.messages.map((message) => message.rcptTo)).toEqual([['soc@example.com']]);
  });

  it('by default dead-letters a 5xx refusal at once, still owing it to the refused recipient only', async () => {
    const server = await use.server(refusingOncall(550));

    const outcome = await use.target(makeEmailSpec(server.port, { to })).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', status: 550, owed: ['oncall@example.com'] });
  });

  it('with on_partial_refusal: dead_letter, dead-letters a 4xx refusal too', async () => {
    const server = await use.server(refusingOncall(451));
    const spec = makeEmailSpec(server.port, { to, onPartialRefusal: 'dead_letter' });

    const outcome = await use.target(spec).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', status: 451, refused: ['oncall@example.com'] });
  });

  it('sends a later attempt to the recipients still owed only, the headers still naming every one', async () => {
    const server = await use.server();
    const target = use.target(makeEmailSpec(server.port, { to, cc: ['lead@example.com'] }));

    const owedOne = await target.send({ ...makeEmailJob(), owed: ['ONCALL@example.com'] }, never());
    const owedNone = await target.send({ ...makeEmailJob(), owed: ['left@example.com'] }, never());

    expect(owedOne).toMatchObject({ kind: 'delivered', status: 250 });
    expect(owedNone).toMatchObject({ kind: 'delivered', detail: expect.stringContaining('not sent') });
    expect(server.messages.map((message) => message.rcptTo)).toEqual([['oncall@example.com']]);
    expect(server.messages[0]?.mailFrom).toBe('switchyard@example.com');
    expect(server.messages[0]?.raw).toMatch(/^To: soc@example\.com, oncall@example\.com\r$/m);
    expect(server.messages[0]?.raw).toMatch(/^Cc: lead@example\.com\r$/m);
  });
});
