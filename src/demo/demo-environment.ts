import type { SlackStandIn } from './start-slack-stand-in.js';
import { DEMO_SECRET_VARIABLE } from './write-demo-config.js';

export interface DemoEndpoints {
  readonly slack: SlackStandIn;
  /** `smtp://127.0.0.1:<port>` */
  readonly smtpUrl: string;
  /** `http://127.0.0.1:<port>` of the ticketing stand-in. */
  readonly ticketingUrl: string;
  /** The `monitor` source's HMAC secret, random per run. */
  readonly secret: string;
}

/**
 * The whole environment the daemon sees in the demo: every `${VAR}` that config and rules.example.yaml use,
 * pointing at the stand-ins. Nothing is taken from the caller's environment, so a shell with `SWITCHYARD_*`
 * or real webhook URLs set cannot send the demo's events anywhere real.
 */
export function demoEnvironment(endpoints: DemoEndpoints): Record<string, string> {
  return {
    [DEMO_SECRET_VARIABLE]: endpoints.secret,
    SLACK_SOC_WEBHOOK_URL: endpoints.slack.webhookUrl('soc'),
    SLACK_INFRA_WEBHOOK_URL: endpoints.slack.webhookUrl('infra'),
    SMTP_URL: endpoints.smtpUrl,
    SECURITY_LEAD_EMAIL: 'security-lead@example.com',
    TICKETS_URL: `${endpoints.ticketingUrl}/api/issues`,
    TICKETS_API_TOKEN: 'demo-ticket-token-not-a-secret',
    TRIAGE_QUEUE_URL: `${endpoints.ticketingUrl}/api/queue`,
  };
}
