/** One event the demo sends: the envelope's `event` and `data`; the timestamp is added when it is sent. */
export interface DemoEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Every documented event kind (docs/events.md), with several severities, chosen to exercise every route of rules.example.yaml
 * and every target. Slack's rate limit (1 message/s after a burst of 5 per webhook) makes each Slack message
 * beyond the fifth cost a second, so the list stays short: 4 messages to soc-slack, 2 to infra-slack.
 */
export const DEMO_EVENTS: readonly DemoEvent[] = [
  {
    event: 'incident.created',
    data: {
      incident_id: 'inc_1001',
      severity: 'critical',
      title: 'Ransomware encrypting files on fs-02',
      host: 'fs-02',
      environment: 'production',
    },
  },
  {
    event: 'incident.updated',
    data: {
      incident_id: 'inc_1002',
      severity: 'high',
      title: 'Suspicious admin login from a new country',
      host: 'vpn-1',
      environment: 'production',
    },
  },
  {
    event: 'incident.created',
    data: { incident_id: 'inc_1003', severity: 'low', title: 'Port scan from 203.0.113.7', host: 'edge-3' },
  },
  {
    event: 'incident.updated',
    data: {
      incident_id: 'inc_1004',
      severity: 'medium',
      title: 'Malware blocked on web-1',
      host: 'web-1',
      environment: 'production',
    },
  },
  { event: 'incident.resolved', data: { incident_id: 'inc_1001', title: 'Files on fs-02 restored from backup' } },
  { event: 'agent.offline', data: { host: 'db-1', agent: { id: 'agt_17', name: 'db-1' } } },
  { event: 'agent.online', data: { host: 'db-1', agent: { id: 'agt_17', name: 'db-1' } } },
  {
    event: 'threat.detected',
    data: {
      severity: 'high',
      verdict: 'confirmed',
      title: 'Credential dumping tool on hr-laptop-12',
      host: 'hr-laptop-12',
    },
  },
  {
    event: 'compliance.violation',
    data: {
      severity: 'medium',
      policy: 'disk-encryption',
      title: 'Disk encryption off on hr-laptop-12',
      host: 'hr-laptop-12',
    },
  },
];
