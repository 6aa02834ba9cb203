import type { SlackMessage } from './start-slack-stand-in.js';
import type { ReceivedMail } from './start-smtp-stand-in.js';
import type { TicketingRequest } from './start-ticketing-stand-in.js';

/** Everything the three stand-ins recorded, in arrival order. */
export interface StandInsReceived {
  readonly slack: readonly SlackMessage[];
  readonly mail: readonly ReceivedMail[];
  readonly ticketing: readonly TicketingRequest[];
}
