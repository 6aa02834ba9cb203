/** Placeholder values for the variables rules.example.yaml references (no real credentials anywhere). */
export const EXAMPLE_ENV: Readonly<Record<string, string>> = {
  SLACK_SOC_WEBHOOK_URL: 'https://hooks.slack.example/services/T000/B000/soc-placeholder-secret',
  SLACK_INFRA_WEBHOOK_URL: 'https://hooks.slack.example/services/T000/B000/infra-placeholder-secret',
  SECURITY_LEAD_EMAIL: 'lead-placeholder@example.com',
  SMTP_URL: 'smtp://user:smtp-placeholder-secret@smtp.example:587',
  TICKETS_URL: 'https://tickets.example/api/incidents',
  TICKETS_API_TOKEN: 'tickets-placeholder-token',
  TRIAGE_QUEUE_URL: 'https://triage.example/queue/placeholder-secret',
};
