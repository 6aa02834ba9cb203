import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { configFailure } from './config-failure.js';

const SECRET = 'placeholder-secret-0123456789';
const tempDir = useTempDirs();

function writeConfig(text: string): { dir: string; file: string } {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'etc'));
  const file = path.join(dir, 'etc', 'switchyard.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

const failure = configFailure;

describe('loadConfig', () => {
  it('refuses a body budget smaller than max_body, where the largest events could never be read', () => {
    const given = writeConfig(
      `sources: { monitor: { secrets: ["${SECRET}"] } }\nmax_body: 2mb\nmax_body_in_flight: 1mb\n`,
    );
    const error = failure(() => loadConfig({ file: given.file, env: {}, cwd: '/' }));
    expect(error.message).toContain(
      `${given.file}:3:21: max_body_in_flight: 1mb is less than max_body (2mb): the largest events could never be read`,
    );
    // The default budget (32mb) against a larger max_body is refused too, pointing at max_body.
    const large = writeConfig(`sources: { monitor: { secrets: ["${SECRET}"] } }\nmax_body: 64mb\n`);
    expect(failure(() => loadConfig({ file: large.file, env: {}, cwd: '/' })).message).toContain(
      `max_body_in_flight: 32mb is less than max_body (64mb)`,
    );
    const equal = writeConfig(
      `sources: { monitor: { secrets: ["${SECRET}"] } }\nmax_body: 2mb\nmax_body_in_flight: 2mb\n`,
    );
    expect(loadConfig({ file: equal.file, env: {}, cwd: '/' }).maxBodyInFlightBytes).toBe(2 * 1024 * 1024);
  });

  it('reads a full config, resolving paths against the config file folder', () => {
    const { dir, file } = writeConfig(`
listen: { host: 127.0.0.1, port: 9090 }
rules: ../rules.yaml
store: { sqlite: { path: ./data/j.db, busy_timeout: 250ms } }
sources:
  monitor:
    secrets: ["\${MONITOR_SECRET}", "next-secret-abcdefghijkl"]
    max_event_age: 1h
dedupe_window: 2d
max_body: 512kb
body_timeout: 3s
log: { level: debug }
`);
    const config = loadConfig({ file, env: { MONITOR_SECRET: SECRET }, cwd: '/' });
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 9090 });
    expect(config.rules).toBe(path.join(dir, 'rules.yaml'));
    expect(config.store).toEqual({
      kind: 'sqlite',
      path: path.join(dir, 'etc', 'data', 'j.db'),
      busyTimeoutMs: 250,
    });
    expect(config.sources.get('monitor')).toEqual({
      name: 'monitor',
      secrets: [SECRET, 'next-secret-abcdefghijkl'],
      maxEventAgeMs: 3_600_000,
      expectEventsWithinMs: null,
    });
    expect(config.dedupeWindowMs).toBe(2 * 86_400_000);
    expect(config.maxBodyBytes).toBe(512 * 1024);
    expect(config.bodyTimeoutMs).toBe(3000);
    expect(config.log.level).toBe('debug');
    expect(config.adminToken).toBeNull();
    expect(config.secrets).toContain(SECRET);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.listen)).toBe(true);
  });

  it('fills defaults for everything but sources', () => {
    const { file } = writeConfig(`sources: { monitor: { secrets: ["${SECRET}"] } }\n`);
    const config = loadConfig({ file, env: {}, cwd: '/' });
    expect(config.listen).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(config.dedupeWindowMs).toBe(7 * 86_400_000);
    expect(config.maxBodyBytes).toBe(1024 * 1024);
    expect(config.sources.get('monitor')?.maxEventAgeMs).toBeNull();
    expect(config.log.level).toBe('info');
  });

  it('takes the file from SWITCHYARD_CONFIG and lets environment variables override it', () => {
    const { dir, file } = writeConfig(`listen: { port: 1 }\nsources: { monitor: { secrets: ["${SECRET}"] } }\n`);
    const config = loadConfig({
      env: {
        SWITCHYARD_CONFIG: file,
        SWITCHYARD_PORT: '9999',
        SWITCHYARD_HOST: '127.0.0.1',
        SWITCHYARD_RULES: 'my-rules.yaml',
        SWITCHYARD_SQLITE_PATH: 'journal.db',
        SWITCHYARD_DEDUPE_WINDOW: '1h',
        SWITCHYARD_MAX_BODY: '64kb',
        SWITCHYARD_BODY_TIMEOUT: '2s',
        SWITCHYARD_LOG_LEVEL: 'warn',
        SWITCHYARD_ADMIN_TOKEN: 'admin-token-0123456789',
      },
      cwd: dir,
    });
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 9999 });
    expect(config.rules).toBe(path.join(dir, 'my-rules.yaml'));
    expect(config.store).toMatchObject({ kind: 'sqlite', path: path.join(dir, 'journal.db') });
    expect(config.dedupeWindowMs).toBe(3_600_000);
    expect(config.maxBodyBytes).toBe(65_536);
    expect(config.bodyTimeoutMs).toBe(2000);
    expect(config.log.level).toBe('warn');
    expect(config.adminToken).toBe('admin-token-0123456789');
    expect(config.secrets).toContain('admin-token-0123456789');
  });

  it('names the environment variable when an override is invalid', () => {
    const { file } = writeConfig(`sources: { monitor: { secrets: ["${SECRET}"] } }\n`);
    const error = failure(() =>
      loadConfig({ file, env: { SWITCHYARD_PORT: 'eighty', SWITCHYARD_LOG_LEVEL: 'loud' }, cwd: '/' }),
    );
    expect(error.message).toMatch(/SWITCHYARD_PORT: listen\.port: must be integer/);
    expect(error.message).toMatch(/SWITCHYARD_LOG_LEVEL: log\.level: must be equal to one of the allowed values/);
  });

  it('names a missing environment variable, with the key and its position', () => {
    const { file } = writeConfig(`sources:\n  monitor:\n    secrets: ["\${MONITOR_SECRET}"]\n`);
    const error = failure(() => loadConfig({ file, env: {}, cwd: '/' }));
    expect(error.message).toContain(
      `${file}:3:15: sources.monitor.secrets[0]: environment variable MONITOR_SECRET is not set`,
    );
  });

  it('treats a set-but-empty variable as missing, and reports a malformed reference', () => {
    const { file } = writeConfig(`sources:\n  monitor:\n    secrets: ["\${MONITOR_SECRET}", "\${BROKEN"]\n`);
    const error = failure(() => loadConfig({ file, env: { MONITOR_SECRET: '' }, cwd: '/' }));
    expect(error.message).toContain('sources.monitor.secrets[0]: environment variable MONITOR_SECRET is not set');
    expect(error.message).toContain('sources.monitor.secrets[1]: "${" without a closing "}"');
  });

  it('reports unknown keys and bad values with their line, all at once', () => {
    const { file } = writeConfig(
      `listen: { port: 70000 }\nsources: { monitor: { secrets: ["${SECRET}"] } }\ndedupe_window: seven days\nlisten_port: 1\n`,
    );
    const error = failure(() => loadConfig({ file, env: {}, cwd: '/' }));
    expect(error.message).toContain(`${file}:1:17: listen.port: must be <= 65535`);
    expect(error.message).toContain(`${file}:3:16: dedupe_window: must match pattern`);
    expect(error.message).toContain(`listen_port: unknown key`);
  });

  it('suggests the key or value meant, as rules errors do, without echoing the value', () => {
    const { file } = writeConfig(
      `listen: { hots: 127.0.0.1 }\nsources: { monitor: { secrets: ["${SECRET}"] } }\nlog: { level: inof }\n`,
    );
    const error = failure(() => loadConfig({ file, env: {}, cwd: '/' }));
    expect(error.message).toContain(
      `${file}:1:11: listen.hots: unknown key: did you mean "host"? (allowed: host, port)`,
    );
    expect(error.message).toContain(
      `${file}:3:15: log.level: must be equal to one of the allowed values: error, warn, info, debug (did you mean "info"?)`,
    );
    expect(error.message).not.toContain('inof');
    const far = writeConfig(`sources: { monitor: { secrets: ["${SECRET}"] } }\nlog: { level: verbose }\nzzz: 1\n`);
    const plain = failure(() => loadConfig({ file: far.file, env: {}, cwd: '/' })).message;
    expect(plain).toMatch(/log\.level: must be equal to one of the allowed values: error, warn, info, debug$/m);
    expect(plain).toMatch(/zzz: unknown key \(allowed: listen, rules, store, sources, /);
  });

  it('refuses a weak secret without echoing it', () => {
    const { file } = writeConfig(`sources: { monitor: { secrets: ["short-s3cret"] } }\n`);
    const error = failure(() => loadConfig({ file, env: {}, cwd: '/' }));
    expect(error.message).toMatch(/sources\.monitor\.secrets\[0\]: must NOT have fewer than 16 characters/);
    expect(error.message).not.toContain('short-s3cret');
  });

  it('refuses a config without sources, and a source without secrets', () => {
    const { file } = writeConfig(`sources: { monitor: {} }\n`);
    expect(failure(() => loadConfig({ file, env: {}, cwd: '/' })).message).toMatch(
      /sources\.monitor: must have required property 'secrets'/,
    );
    const other = writeConfig(`listen: { port: 1 }\n`);
    expect(failure(() => loadConfig({ file: other.file, env: {}, cwd: '/' })).message).toMatch(
      /must have required property 'sources'/,
    );
  });

  it('reports YAML syntax errors and duplicate keys with their position', () => {
    const { file } = writeConfig(`sources:\n  monitor: { secrets: [\n`);
    expect(failure(() => loadConfig({ file, env: {}, cwd: '/' })).message).toMatch(new RegExp(`${file}:\\d+:\\d+`));
    const dup = writeConfig(`sources: { monitor: { secrets: ["${SECRET}"] } }\nsources: {}\n`);
    expect(failure(() => loadConfig({ file: dup.file, env: {}, cwd: '/' })).message).toMatch(
      /:2:1: Map keys must be unique/,
    );
  });

  it('says which file it could not read', () => {
    const error = failure(() => loadConfig({ file: '/nonexistent/switchyard.yaml', env: {}, cwd: '/' }));
    expect(error.message).toContain('cannot read config file /nonexistent/switchyard.yaml');
  });
});
