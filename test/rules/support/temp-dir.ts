import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A temp directory for this test file, removed after its tests; `write` puts a file in it and returns its path. */
export function useTempDir(): { readonly dir: string; write(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}
