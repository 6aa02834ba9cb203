import { fileURLToPath } from 'node:url';

/**
 * Where `npm run build` puts the console (Vite's outDir): `dist/console/` at the package root. This file is two
 * folders below the root both as source (src/admin/) and built (dist/admin/), so the same relative path works
 * under tsx and vitest as in the installed package, whatever the working directory.
 */
export function consoleDir(): string {
  return fileURLToPath(new URL('../../dist/console/', import.meta.url));
}
