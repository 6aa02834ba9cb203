import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { setEnvLine } from './set-env-line.js';

/**
 * Sets `NAME=value` in an env file. The new text goes to a temporary file created with mode 0600 in the same
 * folder (exclusive create, so nothing else can have it open), is flushed to disk, then renamed over the file:
 * a crash leaves the old file or the new one, never half of one, and the result is readable by its owner only
 * even where the old file was not.
 */
export function writeEnvVariable(file: string, name: string, value: string): void {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  let open = true;
  try {
    writeSync(fd, setEnvLine(text, name, value));
    fsyncSync(fd);
    open = false;
    closeSync(fd);
    renameSync(temporary, file);
  } catch (error) {
    if (open) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}
