import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import type { SwitchyardError } from '../../src/switchyard-error.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const HASH_A = `sha256:${'a'.repeat(64)}`;
const HASH_B = `sha256:${'b'.repeat(64)}`;

function load(admin: string, env: Record<string, string> = {}) {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'etc'));
  const file = path.join(dir, 'etc', 'switchyard.yaml');
  writeFileSync(file, `sources: { monitor: { secrets: ["placeholder-secret-0123456789"] } }\n${admin}`);
  return { file, run: () => loadConfig({ file, env, cwd: '/' }) };
}
function problems(admin: string): string {
  const { run } = load(admin);
  try {
    run();
  } catch (error) {
    expect((error as SwitchyardError).code).toBe('invalid_config');
    return (error as SwitchyardError).message;
  }
  throw new Error('expected loadConfig to fail');
}

describe('admin config', () => {
  it('defaults to a loopback listener on 9090, no keys, and no token', () => {
    const config = load('').run();
    expect(config.admin).toEqual({
      listen: { host: '127.0.0.1', port: 9090 },
      keys: [],
      healthAndMetrics: 'main',
      console: { sessionTtlMs: 8 * 3_600_000 },
    });
    expect(config.shutdownGraceMs).toBe(10_000);
    expect(config.adminToken).toBeNull();
    expect(Object.isFrozen(config.admin.keys)).toBe(true);
  });

  it('reads the listener, null for none, and keys by hash with their scopes', () => {
    const own = load(
      `admin:
  listen: { port: 9191 }
  keys:
    - { name: dashboard, hash: "${HASH_A}", scopes: [read] }
    - { name: ops, hash: "\${OPS_KEY_HASH}", scopes: [read, replay] }
`,
      { OPS_KEY_HASH: HASH_B },
    ).run();
    expect(own.admin).toEqual({
      listen: { host: '127.0.0.1', port: 9191 },
      keys: [
        { name: 'dashboard', hash: HASH_A, scopes: ['read'] },
        { name: 'ops', hash: HASH_B, scopes: ['read', 'replay'] },
      ],
      healthAndMetrics: 'main',
      console: { sessionTtlMs: 8 * 3_600_000 },
    });
    expect(load('admin: { listen: null }').run().admin.listen).toBeNull();
    expect(load('admin: { health_and_metrics: admin }\nshutdown_grace: 30s').run()).toMatchObject({
      admin: { healthAndMetrics: 'admin' },
      shutdownGraceMs: 30_000,
    });
    expect(problems('admin: { listen: null, health_and_metrics: admin }')).toContain(
      'admin.health_and_metrics: needs the admin listener (admin.listen is null)',
    );
  });

  it('keeps the /metrics token working from the file and from SWITCHYARD_ADMIN_TOKEN', () => {
    expect(load('admin: { token: file-token-0123456789 }').run().adminToken).toBe('file-token-0123456789');
    expect(load('', { SWITCHYARD_ADMIN_TOKEN: 'env-token-0123456789' }).run().adminToken).toBe('env-token-0123456789');
  });

  it('refuses a key given as itself rather than a hash, unknown scopes, and missing fields, with positions', () => {
    const message = problems(`admin:
  keys:
    - { name: dashboard, hash: "sy_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", scopes: [read] }
    - { name: ops, hash: "${HASH_B}", scopes: [admin] }
    - { name: ci, hash: "${HASH_A}" }
    - { name: ci2, hash: "${HASH_A.toUpperCase()}", scopes: [] }
`);
    expect(message).toMatch(/switchyard\.yaml:4:\d+: admin\.keys\[0\]\.hash: must match pattern/);
    expect(message).toContain('admin.keys[1].scopes[0]: must be equal to one of the allowed values');
    expect(message).toContain("admin.keys[2]: must have required property 'scopes'");
    expect(message).toContain('admin.keys[3].hash: must match pattern');
    expect(message).toContain('admin.keys[3].scopes: must NOT have fewer than 1 items');
    // A secret-looking value is named by key, never echoed.
    expect(message).not.toContain('sy_AAAA');
  });

  it('refuses two keys with one name or one hash', () => {
    const message = problems(`admin:
  keys:
    - { name: ops, hash: "${HASH_A}", scopes: [read] }
    - { name: ops, hash: "${HASH_B}", scopes: [read] }
    - { name: other, hash: "${HASH_A}", scopes: [replay] }
`);
    expect(message).toMatch(/:5:\d+: admin\.keys\[1\]\.name: another key has this name/);
    expect(message).toMatch(/:6:\d+: admin\.keys\[2\]\.hash: another key has this hash/);
  });

  it('refuses a malformed listener', () => {
    expect(problems('admin: { listen: { port: 70000 } }')).toContain('admin.listen.port: must be <= 65535');
    expect(problems('admin: { listen: { hots: x } }')).toContain('admin.listen.hots: unknown key');
    expect(problems('admin: { listen: 9090 }')).toContain('admin.listen: must be object');
  });

  it('reads the console session TTL, and refuses one that is malformed, too short or too long', () => {
    expect(load('admin: { console: { session_ttl: 30m } }').run().admin.console).toEqual({ sessionTtlMs: 1_800_000 });
    expect(problems('admin: { console: { session_ttl: soon } }')).toContain('admin.console.session_ttl');
    expect(problems('admin: { console: { session_ttl: 10s } }')).toContain('must be between 1m and 7d');
    expect(problems('admin: { console: { session_ttl: 8d } }')).toContain('must be between 1m and 7d');
    expect(problems('admin: { console: { ttl: 8h } }')).toContain('admin.console');
  });
});
