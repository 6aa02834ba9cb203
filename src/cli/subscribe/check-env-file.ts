import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Whether `writeEnvVariable` can safely replace `file`: its folder exists and is writable (the new file is
 * renamed into place), and the file, if present, is a regular file we may write, not a symlink (which would
 * be replaced by a plain file: surely not what a link to shared secrets meant). Returns the problem, if any.
 * Checked before the subscription is created, so a subscription is not made for a secret that cannot be kept.
 */
export function checkEnvFile(file: string): string | undefined {
  const folder = dirname(file);
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    return `--write-env-file: cannot write in ${folder} (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  try {
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) return `--write-env-file: ${file} is a symbolic link; give the file it points to`;
    if (!stat.isFile()) return `--write-env-file: ${file} is not a regular file`;
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return `--write-env-file: cannot read and write ${file} (${code ?? 'error'})`;
  }
  return undefined;
}
