import { formatTable } from '../cli/format-table.js';
import { clipText } from './clip-text.js';
import type { StandInsReceived } from './stand-ins-received.js';
import type { TicketingRequest } from './start-ticketing-stand-in.js';

/** What each stand-in received, one short table per stand-in, each line indented. */
export function formatStandInSummary(received: StandInsReceived): string {
  const { slack, mail, ticketing } = received;
  const refused = ticketing.filter((r) => r.status !== 201).length;
  return [
    `Slack stand-in: ${count(slack.length, 'message')}`,
    indent(
      formatTable(
        ['WEBHOOK', 'TEXT'],
        slack.map((m) => [m.webhook, clipText(typeof m.payload.text === 'string' ? m.payload.text : '(no text)')]),
      ),
    ),
    `SMTP stand-in: ${count(mail.length, 'mail')}`,
    indent(
      formatTable(
        ['TO', 'SUBJECT'],
        mail.map((m) => [m.to.join(', '), clipText(m.subject)]),
      ),
    ),
    `Ticketing API stand-in: ${count(ticketing.length, 'request')} (${refused} refused with 503 while down, ` +
      `then ${ticketing.length - refused} answered 201)`,
    indent(
      formatTable(
        ['REQUEST', 'ANSWER', 'CONTENT'],
        ticketing.map((r) => [
          `${r.method} ${r.path}`,
          r.ticket === null ? String(r.status) : `${r.status} ${r.ticket}`,
          describeTicket(r),
        ]),
      ),
    ),
  ].join('\n');
}

/** The ticket's summary when the target sent a templated body, else the kind of the forwarded event. */
function describeTicket(request: TicketingRequest): string {
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return clipText(request.body);
  }
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (typeof fields.summary === 'string') return clipText(fields.summary);
  if (typeof fields.event === 'string') return `${fields.event} event, forwarded as received`;
  return clipText(request.body);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}
