import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CONFIG = fileURLToPath(new URL('../../../console/vite.config.ts', import.meta.url));

/**
 * Builds the console from console/ with its own Vite config into a fresh folder, for a daemon's `consoleDir`:
 * the tests run the page as `npm run build` makes it, without racing other test files (or a build in progress)
 * over dist/console/.
 */
export async function buildConsole(): Promise<string> {
  const outDir = path.join(mkdtempSync(path.join(tmpdir(), 'switchyard-console-')), 'console');
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  if (!existsSync(path.join(outDir, 'index.html'))) throw new Error(`vite wrote no index.html to ${outDir}`);
  return outDir;
}
