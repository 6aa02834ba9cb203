import { describe, expect, it } from 'vitest';
import { followCandidates } from '../../src/lifecycle/follow-candidates.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';

const loader = rulesLoader();
const rules = loader.compile(`targets:
  pager: { type: pagerduty, routing_key: "c0ffee5ecre7c0ffee5ecre7c0ffee5e" }
  jira:
    type: http
    requests: { create: { url: https://jira.example/issue }, update: { url: https://jira.example/comment } }
  keyed: { type: http, url: https://keyed.example/x, key: "{{ data.incident_id }}" }
  thread: { type: slack, token: xoxb-test, channel: C1 }
  hook: { type: slack, webhook_url: https://hooks.slack.example/y }
  feed: { type: http, url: https://feed.example/x, follow: true }
  quiet: { type: pagerduty, routing_key: "c0ffee5ecre7c0ffee5ecre7c0ffee5e", follow: false }
routes: []
fallback: []
`);
const resolved = { event: 'incident.resolved', timestamp: '2026-11-22T10:00:00Z', data: { incident_id: 'inc_1' } };

describe('followCandidates', () => {
  it('follows by default to targets with a lifecycle or a key, to plain ones only with follow: true', () => {
    expect(followCandidates(rules, resolved, []).map((f) => f.target)).toEqual([
      'pager',
      'jira',
      'keyed',
      'thread',
      'feed',
    ]);
  });

  it('keeps only the reached targets given, and leaves out those a route sends the event to', () => {
    const followed = followCandidates(rules, resolved, ['jira'], ['jira', 'hook', 'pager', 'gone']);
    expect(followed).toEqual([
      { target: 'pager', reason: 'followed incident:inc_1 (it received this incident before)' },
    ]);
  });

  it('follows nothing for an event without an incident', () => {
    expect(followCandidates(rules, { ...resolved, data: {} }, [])).toEqual([]);
  });
});
