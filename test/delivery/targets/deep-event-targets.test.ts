import { afterEach, describe, expect, it } from 'vitest';
import type { Target } from '../../../src/delivery/target.js';
import { createHttpTarget } from '../../../src/delivery/targets/http-target.js';
import { createSlackTarget } from '../../../src/delivery/targets/slack-target.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import { compileTemplateTree } from '../../../src/templates/compile-template-tree.js';
import { TOO_DEEP } from '../../../src/templates/limit-depth.js';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/start-http-receiver.js';
import { startSlackStandIn } from '../../helpers/start-slack-stand-in.js';
import { makeEmailSpec } from './make-email-spec.js';
import { makeHttpSpec, makeJob, makeSlackSpec, quietLog } from './make-target-spec.js';
import { parseRawMessage } from './parse-raw-message.js';
import { never, useEmailTargets } from './use-email-targets.js';

/** A threat whose `data.context` nests 5,000 objects deep, as text: JSON.stringify of it overflows the stack. */
const RAW = Buffer.from(
  `{"event":"threat.detected","timestamp":"2026-11-22T10:00:00Z","data":{"severity":"high",` +
    `"title":"Deep payload","hostname":"web-1","context":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}}`,
);
const job = () => makeJob(JSON.parse(RAW.toString('utf8')) as Record<string, unknown>, { raw: RAW });

const use = useEmailTargets();
const opened: { targets: Target[]; receivers: HttpReceiver[] } = { targets: [], receivers: [] };
afterEach(async () => {
  for (const target of opened.targets.splice(0)) await target.close();
  for (const receiver of opened.receivers.splice(0)) await receiver.close();
});
function keep<T extends Target | HttpReceiver>(kind: 'targets' | 'receivers', made: T): T {
  (opened[kind] as T[]).push(made);
  return made;
}

describe('an event nested 5,000 levels deep is delivered by every target', () => {
  it('e-mail, default message: the body shows the event down to a marker (real SMTP server)', async () => {
    const server = await use.server();
    const outcome = await use.target(makeEmailSpec(server.port)).send(job(), never());
    expect(outcome).toMatchObject({ kind: 'delivered', status: 250 });
    const mail = parseRawMessage(server.messages[0]?.raw ?? '');
    expect(mail.header('subject')).toBe('[HIGH] Threat detected: Deep payload');
    expect(mail.text).toContain('"title": "Deep payload"');
    expect(mail.text).toContain(TOO_DEEP);
  });

  it('e-mail, a text template printing the data as JSON', async () => {
    const server = await use.server();
    const spec = makeEmailSpec(server.port, { text: compileTemplate('{{ data | json }}') });
    expect(await use.target(spec).send(job(), never())).toMatchObject({ kind: 'delivered' });
    expect(parseRawMessage(server.messages[0]?.raw ?? '').text).toContain(TOO_DEEP);
  });

  it('Slack: the default card, and a message template printing the nested part', async () => {
    const hook = keep('receivers', await startSlackStandIn());
    const url = `${hook.url}/services/T/B/x`;
    const message = compileTemplateTree({ text: '{{ data.title }}: {{ data.context | json }}' }, 'slack');
    for (const spec of [{ webhookUrl: url }, { webhookUrl: url, message }]) {
      const target = keep('targets', createSlackTarget(makeSlackSpec(spec), { log: quietLog }));
      expect(await target.send(job(), never())).toMatchObject({ kind: 'delivered' });
    }
    expect(hook.requests[0]?.body.toString('utf8')).toContain('Deep payload');
    expect(hook.requests[1]?.body.toString('utf8')).toContain(TOO_DEEP);
  });

  it('HTTP: the default body forwards the exact bytes, and a JSON body template renders', async () => {
    const api = keep('receivers', await startHttpReceiver());
    const tree = compileTemplateTree({ summary: '{{ data.title }}', context: '{{ data.context | json }}' });
    for (const body of [{ kind: 'forward' as const }, { kind: 'json' as const, tree }]) {
      const target = keep('targets', createHttpTarget(makeHttpSpec({ url: api.url, body }), { log: quietLog }));
      expect(await target.send(job(), never())).toMatchObject({ kind: 'delivered' });
    }
    expect(api.requests[0]?.body.equals(RAW)).toBe(true);
    const rendered = JSON.parse(api.requests[1]!.body.toString('utf8')) as { summary: string; context: string };
    expect(rendered.summary).toBe('Deep payload');
    expect(rendered.context).toContain(TOO_DEEP);
  });
});
