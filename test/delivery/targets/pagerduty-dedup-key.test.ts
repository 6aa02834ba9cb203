import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DEDUP_KEY, pagerdutyDedupKey } from '../../../src/delivery/targets/pagerduty-dedup-key.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import { makeJob, makePagerdutySpec } from './make-target-spec.js';

const job = (event: string, data: Record<string, unknown>) =>
  makeJob({ event, timestamp: '2026-11-22T10:00:00Z', data });
const keyed = (source: string) => makePagerdutySpec({ correlationKey: compileTemplate(source) });

describe('pagerdutyDedupKey', () => {
  it('defaults to the incident id for incidents and the agent id for agents', () => {
    const spec = makePagerdutySpec();
    expect(pagerdutyDedupKey(spec, job('incident.created', { incident_id: 'inc_1' }))).toBe('incident:inc_1');
    expect(pagerdutyDedupKey(spec, job('incident.resolved', { incident_id: 'inc_1' }))).toBe('incident:inc_1');
    expect(pagerdutyDedupKey(spec, job('agent.offline', { agent: { id: 'agt_17' } }))).toBe('agent:agt_17');
    expect(pagerdutyDedupKey(spec, job('agent.online', { agent_id: 'agt_17' }))).toBe('agent:agt_17');
  });

  it('falls back to the event id when the event has no key', () => {
    const spec = makePagerdutySpec();
    expect(pagerdutyDedupKey(spec, job('threat.detected', { host: 'h' }))).toBe('evt_01TEST');
    expect(pagerdutyDedupKey(spec, job('incident.created', { title: 'no id' }))).toBe('evt_01TEST');
  });

  it('renders the target key: template instead, and a blank rendering stands alone under the event id', () => {
    const spec = keyed('host:{{ data.host }}');
    expect(pagerdutyDedupKey(spec, job('threat.detected', { host: 'fs-02' }))).toBe('host:fs-02');
    expect(pagerdutyDedupKey(keyed('{{ data.host }}'), job('incident.created', { incident_id: 'inc_1' }))).toBe(
      'evt_01TEST',
    );
  });

  it('takes the correlation key the journal gives the delivery over its own', () => {
    const delivery = { ...job('incident.created', { incident_id: 'inc_1' }), correlationKey: 'from-journal' };
    expect(pagerdutyDedupKey(keyed('{{ data.host }}'), delivery)).toBe('from-journal');
    expect(pagerdutyDedupKey(makePagerdutySpec(), { ...delivery, correlationKey: null })).toBe('incident:inc_1');
  });

  it('replaces a key over 255 characters by its SHA-256, the same for every event of the key', () => {
    const long = 'x'.repeat(MAX_DEDUP_KEY + 1);
    const expected = `sha256:${createHash('sha256').update(`incident:${long}`).digest('hex')}`;
    const spec = makePagerdutySpec();
    expect(pagerdutyDedupKey(spec, job('incident.created', { incident_id: long }))).toBe(expected);
    expect(pagerdutyDedupKey(spec, job('incident.resolved', { incident_id: long }))).toBe(expected);
    const fits = 'y'.repeat(MAX_DEDUP_KEY - 'incident:'.length);
    expect(pagerdutyDedupKey(spec, job('incident.created', { incident_id: fits }))).toBe(`incident:${fits}`);
  });

  it('throws template_render when key: fails to render', () => {
    const spec = keyed('{% for i in (1..100000000) %}x{% endfor %}');
    expect(() => pagerdutyDedupKey(spec, job('incident.created', { host: 'h' }))).toThrow(
      expect.objectContaining({ code: 'template_render' }),
    );
  });
});
