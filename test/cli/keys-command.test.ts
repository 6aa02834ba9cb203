import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createKeyMatcher } from '../../src/admin/api/create-key-matcher.js';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import { runKeys } from '../../src/cli/keys-command.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const KEY = /^sy_[A-Za-z0-9_-]{43}$/;

describe('switchyard keys new', () => {
  it('prints a new key once and the YAML with its hash for admin.keys', async () => {
    const io = fakeCliIo('/');
    expect(await runKeys(['new', '--name', 'dashboard', '--scope', 'read,replay'], io)).toBe(0);
    const out = io.out();
    const key = /^ {2}(sy_\S+)$/m.exec(out)?.[1] ?? '';
    expect(key).toMatch(KEY);
    expect(out.split(key)).toHaveLength(2); // shown exactly once
    const yaml = out.slice(out.indexOf('admin:'), out.indexOf('\nUse it as'));
    const config = parse(yaml) as { admin: { keys: { name: string; hash: string; scopes: string[] }[] } };
    expect(config.admin.keys).toEqual([
      {
        name: 'dashboard',
        hash: `sha256:${createHash('sha256').update(key).digest('hex')}`,
        scopes: ['read', 'replay'],
      },
    ]);
    // The printed hash is what the API checks the key against.
    const configured = config.admin.keys[0] as { name: string; hash: string; scopes: ('read' | 'replay')[] };
    expect(createKeyMatcher([configured])(key)?.name).toBe('dashboard');
    expect(io.err()).toBe('');
  });

  it('defaults to the read scope, makes a different key each time, and prints JSON on request', async () => {
    const first = fakeCliIo('/');
    const second = fakeCliIo('/');
    expect(await runKeys(['new', '--name', 'ci', '--json'], first)).toBe(0);
    expect(await runKeys(['new', '--name', 'ci', '--json'], second)).toBe(0);
    const a = JSON.parse(first.out()) as { name: string; key: string; hash: string; scopes: string[] };
    const b = JSON.parse(second.out()) as { key: string };
    expect(a).toEqual({
      name: 'ci',
      key: expect.stringMatching(KEY),
      hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      scopes: ['read'],
    });
    expect(a.key).not.toBe(b.key);
  });

  it('refuses a missing or malformed name, an unknown scope and an unknown subcommand (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['new'], '--name is required'],
      [['new', '--name', '.x'], '--name ".x"'],
      [['new', '--name', 'a b'], '--name "a b"'],
      [['new', '--name', 'x', '--scope', 'read,admin'], 'unknown scope "admin"'],
      [['list'], 'unknown subcommand "list"'],
    ];
    for (const [args, message] of cases) {
      const io = fakeCliIo('/');
      expect(await runKeys(args, io), args.join(' ')).toBe(2);
      expect(io.err()).toContain(message);
      expect(io.out()).toBe('');
    }
  });

  it('is a command of the switchyard CLI', async () => {
    const cli = spawnCli(['keys', 'new', '--name', 'ops', '--scope', 'replay'], {});
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/^ {2}sy_[A-Za-z0-9_-]{43}$/m);
    expect(cli.stdout()).toContain('      scopes: [replay]');
  });
});

describe('newApiKey', () => {
  it('encodes 32 random bytes after sy_ and hashes the whole key text', () => {
    const { key, hash } = newApiKey(() => Buffer.alloc(32, 0xff));
    expect(key).toBe(`sy_${'_'.repeat(42)}8`);
    expect(hash).toBe(`sha256:${createHash('sha256').update(key).digest('hex')}`);
    expect(() => newApiKey(() => Buffer.alloc(16))).toThrow(RangeError);
  });
});
