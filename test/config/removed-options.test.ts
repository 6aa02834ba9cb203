import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfig } from '../../src/cli/doctor/check-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { configFailure } from './config-failure.js';

const SOURCES = 'sources: { monitor: { secrets: ["placeholder-secret-0123456789"] } }\n';
const tempDir = useTempDirs();

function configFile(text: string): string {
  const file = path.join(tempDir(), 'switchyard.yaml');
  writeFileSync(file, `${SOURCES}${text}`);
  return file;
}

describe('options that were removed (store.sqlite.thread, delivery.worker_thread)', () => {
  it('still load, ignored, each with a located warning', () => {
    const file = configFile('store:\n  sqlite: { path: ./j.db, thread: true }\ndelivery:\n  worker_thread: true\n');
    const config = loadConfig({ file, env: {}, cwd: '/' });
    expect(config.store).toEqual({ kind: 'sqlite', path: path.join(path.dirname(file), 'j.db'), busyTimeoutMs: 1000 });
    expect(config.warnings).toEqual([
      {
        key: 'store.sqlite.thread',
        message: expect.stringMatching(/^removed and ignored: the journal is written on the daemon's main thread/),
        where: `${file}:3:35`,
      },
      {
        key: 'delivery.worker_thread',
        message: expect.stringMatching(/^removed and ignored: the delivery engine runs on the daemon's main thread/),
        where: `${file}:5:18`,
      },
    ]);
    expect(Object.isFrozen(config.warnings)).toBe(true);
  });

  it('are ignored whatever their value, and a config without them has no warning', () => {
    const odd = configFile('store: { sqlite: { path: ./j.db, thread: "yes" } }\ndelivery: { worker_thread: false }\n');
    expect(loadConfig({ file: odd, env: {}, cwd: '/' }).warnings.map((w) => w.key)).toEqual([
      'store.sqlite.thread',
      'delivery.worker_thread',
    ]);
    expect(
      loadConfig({ file: configFile('store: { sqlite: { path: ./j.db } }\n'), env: {}, cwd: '/' }).warnings,
    ).toEqual([]);
  });

  it('take only themselves out: anything else beside them is still refused', () => {
    const file = configFile(
      'delivery: { worker_thread: true, workers: 4 }\nstore: { sqlite: { path: ./j.db, threads: 2 } }\n',
    );
    const message = configFailure(() => loadConfig({ file, env: {}, cwd: '/' })).message;
    expect(message).toContain('delivery: unknown key');
    expect(message).toContain('store.sqlite.threads: unknown key');
    expect(message).not.toContain('worker_thread');
  });

  it('make doctor say WARN, with where each one is', () => {
    const file = configFile('delivery: { worker_thread: true }\n');
    const { check, config } = checkConfig(file, {}, '/');
    expect(config).not.toBeNull();
    expect(check.verdict).toBe('WARN');
    expect(check.detail).toContain(`${file}:2:28: delivery.worker_thread: removed and ignored`);
  });
});
