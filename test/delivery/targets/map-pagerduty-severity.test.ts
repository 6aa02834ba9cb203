import { describe, expect, it } from 'vitest';
import {
  FALLBACK_PAGERDUTY_SEVERITY,
  mapPagerdutySeverity,
} from '../../../src/delivery/targets/map-pagerduty-severity.js';

const NONE = new Map();

describe('mapPagerdutySeverity', () => {
  it('maps the five default levels onto PagerDuty four, case-insensitively', () => {
    const mapped = ['critical', 'HIGH', 'Medium', 'low', 'info'].map((level) => mapPagerdutySeverity(level, NONE));
    expect(mapped).toEqual(['critical', 'error', 'warning', 'warning', 'info']);
  });

  it('sends an absent or unknown severity as error', () => {
    expect(FALLBACK_PAGERDUTY_SEVERITY).toBe('error');
    expect(mapPagerdutySeverity(null, NONE)).toBe('error');
    expect(mapPagerdutySeverity('sev1', NONE)).toBe('error');
    expect(mapPagerdutySeverity('', NONE)).toBe('error');
  });

  it('lets severity_map (keys lower-cased by the compiler) win over the defaults and name other levels', () => {
    const overrides = new Map([
      ['low', 'info'],
      ['p1', 'critical'],
    ] as const);
    expect(mapPagerdutySeverity('LOW', overrides)).toBe('info');
    expect(mapPagerdutySeverity('P1', overrides)).toBe('critical');
    expect(mapPagerdutySeverity('high', overrides)).toBe('error');
  });

  it('never reads a level from the prototype of a map', () => {
    expect(mapPagerdutySeverity('constructor', NONE)).toBe('error');
    expect(mapPagerdutySeverity('__proto__', NONE)).toBe('error');
  });
});
