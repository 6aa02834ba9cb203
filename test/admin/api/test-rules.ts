/** Secret-looking values for every option that may hold one; no response of the admin API may contain any. */
export const SECRETS = {
  SLACK_URL: 'https://hooks.slack.example/services/T0SECRET/B0SECRET/slacksecretpath0123',
  TICKETS_URL: 'https://tickets.example/api/issues?token=urlsecret0123456789',
  TICKETS_HEADER: 'headersecret-0123456789abcdef',
  TICKETS_TOKEN: 'bearersecret-0123456789abcdef',
  TICKETS_SIGNING: 'signingsecret-0123456789abcdef',
  SMTP_USER: 'smtpuser-secret-0123',
  SMTP_PASS: 'smtppass-secret-0123456789',
} as const;

/** Also option values, though not secrets: the API leaves every target option out, so these must not show. */
export const OPTION_VALUES = ['smtp.internal.example', 'oncall@example.com', 'soc@example.com'];

export const TEST_RULES = `
severities: [info, low, medium, high, critical]
targets:
  soc-slack: { type: slack, webhook_url: "\${SLACK_URL}", rate_limit: { per_second: 1, burst: 5 } }
  tickets:
    type: http
    url: "\${TICKETS_URL}"
    headers: { X-Api-Key: "\${TICKETS_HEADER}" }
    auth: { bearer: "\${TICKETS_TOKEN}" }
    sign: { secret: "\${TICKETS_SIGNING}" }
    retry: { max_attempts: 5 }
  oncall-mail:
    type: email
    smtp: { host: smtp.internal.example, port: 587, auth: { user: "\${SMTP_USER}", pass: "\${SMTP_PASS}" } }
    from: soc@example.com
    to: [oncall@example.com]
routes:
  - name: serious-incidents
    match: { event: "incident.*", severity: { at_least: high } }
    to: [soc-slack, tickets]
  - name: agents
    match: { event: "agent.*" }
    to: [tickets]
    stop: true
fallback: [oncall-mail]
`;
