import type { EmailTargetSpec } from '../../rules/rules.js';
import type { Template, TemplateContext } from '../../templates/template.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { DeliveryJob } from '../target.js';
import { defaultEmailMessage } from './default-email-message.js';
import { flattenHeaderText } from './flatten-header-text.js';

export interface EmailMessage {
  readonly from: string;
  readonly to: string[];
  readonly cc: string[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly messageId: string;
  readonly headers: Record<string, string>;
}

/**
 * The message for one delivery: the target's templates rendered with the event, defaults where a template is
 * absent (or a subject renders empty). `Message-ID` is derived from the idempotency key and event id, so every
 * attempt of a delivery carries the same one (a replay of a delivered one a new one) and a receiver can drop the copy a retry may produce (a server
 * that accepted the message but whose reply was lost). Throws a `SwitchyardError` naming the template that
 * failed; the target answers that with a permanent outcome.
 */
export function buildEmailMessage(spec: EmailTargetSpec, job: DeliveryJob, context: TemplateContext): EmailMessage {
  const fallback = defaultEmailMessage(job);
  const subject = flattenHeaderText(renderPart('subject', spec.subject, context) ?? '');
  const html = renderPart('html', spec.html, context);
  return {
    from: spec.from,
    to: [...spec.to],
    cc: [...spec.cc],
    subject: subject === '' ? fallback.subject : subject,
    text: renderPart('text', spec.text, context) ?? fallback.text,
    ...(html === undefined ? {} : { html }),
    messageId: `<${job.idempotencyKey}.${job.event.id}@${senderDomain(spec.from)}>`,
    headers: { 'X-Switchyard-Delivery': job.deliveryId, 'X-Switchyard-Event': job.event.id },
  };
}

function renderPart(part: string, template: Template | null, context: TemplateContext): string | undefined {
  if (template === null) return undefined;
  try {
    return template.render(context);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SwitchyardError('template_render', `e-mail ${part} template: ${detail}`, { cause: error });
  }
}

/** The domain of the `from` address (RFC 5322 §3.6.4 suggests a domain the sender controls as the id's right side). */
function senderDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'switchyard.invalid';
}
