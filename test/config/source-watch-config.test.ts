import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { configFailure } from './config-failure.js';

const tempDir = useTempDirs();

function load(source: string) {
  const file = path.join(tempDir(), 'switchyard.yaml');
  writeFileSync(file, `sources:\n  monitor: { secrets: ["placeholder-secret-0123456789"]${source} }\n`);
  return () => loadConfig({ file, env: {}, cwd: '/' });
}

describe('expect_events_within', () => {
  it('is off by default and read as a duration', () => {
    expect(load('')().sources.get('monitor')?.expectEventsWithinMs).toBeNull();
    expect(load(', expect_events_within: 15m')().sources.get('monitor')?.expectEventsWithinMs).toBe(900_000);
  });

  it('refuses a malformed duration and one under a minute, naming where', () => {
    expect(configFailure(load(', expect_events_within: soon')).message).toMatch(
      /sources\.monitor\.expect_events_within: must match/,
    );
    expect(configFailure(load(', expect_events_within: 30s')).message).toMatch(
      /:2:\d+: sources\.monitor\.expect_events_within: must be at least 1m/,
    );
  });
});
