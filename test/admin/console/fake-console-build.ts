import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const FAKE_INDEX =
  '<!doctype html><title>Switchyard</title><script type="module" src="/console/assets/index-abc123.js"></script>';
export const FAKE_SCRIPT = 'console.log("console");';

/** What Vite's build leaves in dist/console/, in miniature: the page, a hashed script and a favicon. */
export function writeFakeConsoleBuild(dir: string): string {
  const out = path.join(dir, 'console');
  mkdirSync(path.join(out, 'assets'), { recursive: true });
  writeFileSync(path.join(out, 'index.html'), FAKE_INDEX);
  writeFileSync(path.join(out, 'assets', 'index-abc123.js'), FAKE_SCRIPT);
  writeFileSync(path.join(out, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return out;
}
