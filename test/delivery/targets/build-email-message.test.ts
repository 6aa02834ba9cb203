import { describe, expect, it } from 'vitest';
import { buildEmailMessage } from '../../../src/delivery/targets/build-email-message.js';
import { buildTemplateContext } from '../../../src/templates/build-template-context.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import { makeEmailJob } from './make-email-job.js';
import { makeEmailSpec } from './make-email-spec.js';

const build = (overrides: Parameters<typeof makeEmailSpec>[1], job = makeEmailJob({ deliveryId: 'dlv_3' })) =>
  buildEmailMessage(makeEmailSpec(25, overrides), job, buildTemplateContext(job));

describe('buildEmailMessage', () => {
  it('falls back to the default subject when the subject template renders empty', () => {
    const message = build({ subject: compileTemplate('{{ data.missing }}  \n') });
    expect(message.subject).toBe('[CRITICAL] Incident created: Suspicious login');
  });

  it('keeps the default text next to an HTML template, and sends no HTML without one', () => {
    const withHtml = build({ html: compileTemplate('<p>{{ data.title }}</p>', 'html') });
    expect(withHtml.html).toBe('<p>Suspicious login</p>');
    expect(withHtml.text).toContain('Incident created: Suspicious login');
    expect(build({})).not.toHaveProperty('html');
  });

  it('derives a stable Message-ID from the delivery and event, on the sender domain', () => {
    const job = makeEmailJob({ deliveryId: 'dlv_3' });
    const first = build({}, job);
    const retried = build({}, { ...job, attempt: 2 });
    expect(first.messageId).toBe(`<dlv_3.${job.event.id}@example.com>`);
    expect(retried.messageId).toBe(first.messageId);
    expect(build({ from: 'switchyard' }, job).messageId).toBe(`<dlv_3.${job.event.id}@switchyard.invalid>`);
    // A replayed delivered delivery is a new message for a receiver that drops repeated Message-IDs.
    const resent = makeEmailJob({ deliveryId: 'dlv_3', idempotencyKey: 'dlv_3.r1' });
    expect(build({}, resent).messageId).toBe(`<dlv_3.r1.${resent.event.id}@example.com>`);
    expect(first.headers).toEqual({ 'X-Switchyard-Delivery': 'dlv_3', 'X-Switchyard-Event': job.event.id });
  });

  it('names the template that failed to render', () => {
    const hungry = compileTemplate('{% for i in (1..100000000) %}x{% endfor %}');
    expect(() => build({ html: hungry })).toThrow(/^e-mail html template: /);
  });
});
