import { describe, expect, it } from 'vitest';
import { detailRows, readEventDetails } from '../../../src/delivery/targets/read-event-details.js';

describe('readEventDetails', () => {
  it.each([
    [{ host: 'web-1', hostname: 'other' }, 'web-1'],
    [{ hostname: 'db-1' }, 'db-1'],
    [{ agent: { hostname: 'fs-02', name: 'fs-02-agent' } }, 'fs-02'],
    [{ agent: { name: 'host-17' } }, 'host-17'],
    [{ host: '  ', hostname: 'db-2' }, 'db-2'],
    [{ host: 7 }, '7'],
    [{ host: { name: 'x' }, agent: 'a' }, undefined],
  ])('reads the host from %j', (data, host) => {
    expect(readEventDetails(data).host).toBe(host);
  });

  it('reads every documented detail, and nothing from data that is not an object', () => {
    const data = {
      title: 'Disk encryption off',
      incident_id: 'inc_1',
      host: 'hr-laptop-12',
      agent: { id: 'agt_9', name: 'hr-laptop-12' },
      policy: 'disk-encryption',
      verdict: 'confirmed',
    };
    expect(readEventDetails(data)).toEqual({
      title: 'Disk encryption off',
      incident: 'inc_1',
      host: 'hr-laptop-12',
      agent: 'agt_9',
      policy: 'disk-encryption',
      verdict: 'confirmed',
    });
    expect(readEventDetails({ agent_id: 'agt_1' }).agent).toBe('agt_1');
    expect(readEventDetails(['x'])).toEqual({});
    expect(readEventDetails(null)).toEqual({});
  });

  it('lists the details present as labelled rows, in a fixed order', () => {
    expect(detailRows({ verdict: 'confirmed', host: 'web-1', incident: 'inc_1' })).toEqual([
      ['Incident', 'inc_1'],
      ['Host', 'web-1'],
      ['Verdict', 'confirmed'],
    ]);
  });
});
