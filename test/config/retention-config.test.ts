import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { configFailure } from './config-failure.js';

const tempDir = useTempDirs();
const DAY = 24 * 60 * 60 * 1000;

function load(retention: string) {
  const file = path.join(tempDir(), 'switchyard.yaml');
  writeFileSync(file, `sources: { monitor: { secrets: ["placeholder-secret-0123456789"] } }\n${retention}`);
  return () => loadConfig({ file, env: {}, cwd: '/' });
}

describe('retention config', () => {
  it('defaults to 30 days for events and idle incidents, 90 for dead letters, a pass an hour, 500 events a batch', () => {
    expect(load('')().retention).toEqual({
      enabled: true,
      eventsMs: 30 * DAY,
      deadMs: 90 * DAY,
      incidentsIdleMs: 30 * DAY,
      intervalMs: 3_600_000,
      batchSize: 500,
    });
  });

  it('reads every key', () => {
    const config = load(
      'retention: { enabled: false, events: 2w, dead: 180d, incidents_idle: 60d, interval: 15m, batch_size: 100 }\n',
    )();
    expect(config.retention).toEqual({
      enabled: false,
      eventsMs: 14 * DAY,
      deadMs: 180 * DAY,
      incidentsIdleMs: 60 * DAY,
      intervalMs: 900_000,
      batchSize: 100,
    });
    expect(Object.isFrozen(config.retention)).toBe(true);
  });

  it('refuses unknown keys, malformed durations and sizes, and an interval under a second, naming where', () => {
    expect(configFailure(load('retention: { event: 30d }\n')).message).toMatch(/:2:\d+: retention\.event: unknown key/);
    expect(configFailure(load('retention: { dead: 3 months }\n')).message).toMatch(/retention\.dead: must match/);
    expect(configFailure(load('retention: { batch_size: 0 }\n')).message).toMatch(
      /retention\.batch_size: must be >= 1/,
    );
    expect(configFailure(load('retention: { interval: 10ms }\n')).message).toMatch(
      /:2:\d+: retention\.interval: must be at least 1s/,
    );
  });
});
