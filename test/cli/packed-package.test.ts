import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tempDir = useTempDirs();

/**
 * The checkout as `npm pack` sees it, in `dir`: package.json, schema/, config/ and rules.example.yaml as they
 * are, and dist/ emitted from src/ file by file (esbuild, which tsx and vite already bring: the same ES2022
 * modules tsc emits here, in half a second instead of the build's minute of type checking and console bundling,
 * which are not what is tested).
 */
function stageCheckout(dir: string): void {
  for (const entry of ['package.json', 'README.md', 'schema', 'config', 'rules.example.yaml']) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  const src = path.join(ROOT, 'src');
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const source = readFileSync(path.join(src, file), 'utf8');
    const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: file });
    const out = path.join(dir, 'dist', file.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, code);
  }
}

describe('the packed package (npm pack, installed outside the checkout)', () => {
  it('holds the bin with a node shebang, schema/ and config/, and its bin runs from another directory', () => {
    const staged = tempDir();
    stageCheckout(staged);
    const packs = tempDir();
    // --ignore-scripts: `prepare` would run the full build; no network is needed to pack.
    const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {
      cwd: staged,
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true' },
      encoding: 'utf8',
    });
    const [{ filename, files }] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/cli/main.js',
        'schema/rules.schema.json',
        'config/switchyard.yaml',
        'rules.example.yaml',
      ]),
    );
    expect(paths.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);

    // What `npm install -g <tarball>` lays out: the package under lib/node_modules with its dependencies
    // (here the checkout's, linked: installing them would need the registry), its bin linked into bin/.
    const prefix = tempDir();
    const installed = path.join(prefix, 'lib', 'node_modules', 'switchyard');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(packs, filename), '-C', installed, '--strip-components=1']);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(installed, 'node_modules'));
    const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      version: string;
    };
    expect(pkg.bin).toEqual({ switchyard: 'dist/cli/main.js' });
    const main = path.join(installed, pkg.bin.switchyard ?? '');
    expect(readFileSync(main, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    chmodSync(main, 0o755); // npm makes a bin executable when it installs it
    mkdirSync(path.join(prefix, 'bin'));
    const bin = path.join(prefix, 'bin', 'switchyard');
    symlinkSync(path.relative(path.dirname(bin), main), bin);

    const elsewhere = tempDir();
    // Run as the shell would: through the shebang, with node found on PATH.
    const run = (...args: string[]) =>
      spawnSync(bin, args, {
        cwd: elsewhere,
        env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
        encoding: 'utf8',
      });
    const help = run('--help');
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: switchyard <command> \[options\]/);
    expect(run('--version').stdout).toBe(`${pkg.version}\n`);
    // The rules schema is found beside dist/, not in the working directory.
    cpSync(path.join(installed, 'rules.example.yaml'), path.join(elsewhere, 'rules.yaml'));
    const check = run('check', '--no-env');
    expect(check.status, check.stderr).toBe(0);
  }, 60_000);
});
