import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/log/create-logger.js';
import { describeStore } from '../../src/store/describe-store.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { configFailure } from './config-failure.js';

const SECRET = 'placeholder-secret-0123456789';
const SOURCES = `sources: { monitor: { secrets: ["${SECRET}"] } }\n`;
// A password with characters that are percent-encoded in the URL: it may appear decoded in a message.
const PASSWORD = 'pa ss/w0rd-placeholder';
const DATABASE_URL = `postgres://switchyard:${encodeURIComponent(PASSWORD)}@db.internal:5432/switchyard`;
const tempDir = useTempDirs();

function configFile(text: string): string {
  const dir = tempDir();
  const file = path.join(dir, 'switchyard.yaml');
  writeFileSync(file, `${SOURCES}${text}`);
  return file;
}

const failure = configFailure;

describe('store config', () => {
  it('defaults to SQLite', () => {
    const file = configFile('');
    const config = loadConfig({ file, env: {}, cwd: '/' });
    expect(config.store).toEqual({
      kind: 'sqlite',
      path: path.join(path.dirname(file), 'data', 'switchyard.db'),
      busyTimeoutMs: 1000,
    });
  });

  it('reads store.postgres, with its URL from the environment, and masks the URL and its password in logs', () => {
    const file = configFile('store: { postgres: { url: "${DATABASE_URL}", schema: soc_journal, pool_size: 4 } }\n');
    const config = loadConfig({ file, env: { DATABASE_URL }, cwd: '/' });
    expect(config.store).toEqual({ kind: 'postgres', url: DATABASE_URL, schema: 'soc_journal', poolSize: 4 });
    expect(config.secrets).toEqual(expect.arrayContaining([DATABASE_URL, encodeURIComponent(PASSWORD), PASSWORD]));
    // The database name is not a secret: masking it would mangle every path that contains "switchyard".
    expect(config.secrets).not.toContain('/switchyard');

    let text = '';
    const log = createLogger({
      level: 'info',
      secrets: config.secrets,
      stream: new Writable({ write: (chunk: Buffer, _encoding, done) => done(void (text += chunk.toString())) }),
    });
    log.error('connect failed', { url: DATABASE_URL, detail: `password "${PASSWORD}" rejected`, file });
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(encodeURIComponent(PASSWORD));
    expect(text).toContain('switchyard.yaml');
    expect(describeStore(config.store)).toBe('postgres://db.internal:5432/switchyard (schema soc_journal)');
  });

  it('takes pool size 10 and the search_path schema by default', () => {
    const file = configFile(`store: { postgres: { url: "${DATABASE_URL}" } }\n`);
    expect(loadConfig({ file, env: {}, cwd: '/' }).store).toEqual({
      kind: 'postgres',
      url: DATABASE_URL,
      schema: null,
      poolSize: 10,
    });
  });

  it('wants exactly one backend', () => {
    const both = configFile(`store: { sqlite: { path: ./j.db }, postgres: { url: "${DATABASE_URL}" } }\n`);
    expect(failure(() => loadConfig({ file: both, env: {}, cwd: '/' })).message).toContain(
      `${both}:2:8: store: give sqlite or postgres, not both`,
    );
    const none = configFile('store: {}\n');
    expect(failure(() => loadConfig({ file: none, env: {}, cwd: '/' })).message).toContain(
      'store: needs sqlite or postgres',
    );
  });

  it('refuses a URL that is not postgres://, a schema name that would need quoting and a pool of 0, echoing no URL', () => {
    const file = configFile(
      'store: { postgres: { url: "host=db password=s3cret-placeholder", schema: Soc-Journal, pool_size: 0 } }\n',
    );
    const error = failure(() => loadConfig({ file, env: {}, cwd: '/' }));
    expect(error.message).toContain('store.postgres.url: must match pattern "^postgres(?:ql)?://"');
    expect(error.message).toContain('store.postgres.schema: must match pattern');
    expect(error.message).toContain('store.postgres.pool_size: must be >= 1');
    expect(error.message).not.toContain('s3cret-placeholder');
  });

  describe('SWITCHYARD_DATABASE_URL', () => {
    it('chooses PostgreSQL, over a file that names SQLite, and is masked', () => {
      const file = configFile('store: { sqlite: { path: ./j.db } }\n');
      const config = loadConfig({ file, env: { SWITCHYARD_DATABASE_URL: DATABASE_URL }, cwd: '/' });
      expect(config.store).toMatchObject({ kind: 'postgres', url: DATABASE_URL });
      expect(config.secrets).toContain(DATABASE_URL);
      expect(config.secrets).toContain(PASSWORD);
    });

    it('keeps the schema and pool size of the file', () => {
      const file = configFile('store: { postgres: { url: "postgres://old@127.0.0.1/old", schema: soc } }\n');
      const config = loadConfig({ file, env: { SWITCHYARD_DATABASE_URL: DATABASE_URL }, cwd: '/' });
      expect(config.store).toEqual({ kind: 'postgres', url: DATABASE_URL, schema: 'soc', poolSize: 10 });
    });

    it('is reported under its own name when invalid, without its value', () => {
      const file = configFile('');
      const error = failure(() =>
        loadConfig({ file, env: { SWITCHYARD_DATABASE_URL: 'mysql://u:s3cret-placeholder@db/x' }, cwd: '/' }),
      );
      expect(error.message).toContain('SWITCHYARD_DATABASE_URL: store.postgres.url: must match pattern');
      expect(error.message).not.toContain('s3cret-placeholder');
    });
  });

  it('ignores SWITCHYARD_SQLITE_PATH on PostgreSQL (the container image sets it), and applies it on SQLite', () => {
    const env = { SWITCHYARD_SQLITE_PATH: '/data/switchyard.db' };
    const postgres = configFile(`store: { postgres: { url: "${DATABASE_URL}" } }\n`);
    expect(loadConfig({ file: postgres, env, cwd: '/' }).store).toMatchObject({ kind: 'postgres' });
    const sqlite = configFile('');
    expect(loadConfig({ file: sqlite, env, cwd: '/' }).store).toMatchObject({
      kind: 'sqlite',
      path: '/data/switchyard.db',
    });
  });
});
