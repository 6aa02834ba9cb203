/** Placeholder values for the variables rules.example.yaml references (no real credentials anywhere). */
export const EXAMPLE_ENV: Readonly<Record<string, string>> = {
  SLACK_SOC_WEBHOOK_URL: 'https://hooks.slack.example/services/T000/B000/soc-placeholder-secret',
  SLACK_INFRA_WEBHOOK_URL: 'https://hooks.slack.example/services/T000/B000/infra-placeholder-secret',
  SECURITY_LEAD_EMAIL: 'lead-placeholder@example.com',
  TICKETS_API_TOKEN: 'tickets-placeholder-token',
  TRIAGE_QUEUE_URL: 'https://triage.example/queue/placeholder-secret',
};
