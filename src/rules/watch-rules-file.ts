import { unwatchFile, watchFile, type Stats } from 'node:fs';

/**
 * Calls `onChange` when the rules file changes: its content (mtime, size) or its identity (inode: an editor
 * that writes a temp file and renames it over the original). Polls `stat` every `intervalMs`: `fs.watch`
 * follows the inode on Linux and loses a file replaced by rename, and polling one small file is cheap.
 * https://nodejs.org/api/fs.html#caveats The watcher never keeps the process alive. Returns `stop`.
 * The 250 ms default keeps a change's pickup well inside the promised 2 s even on a loaded machine.
 */
export function watchRulesFile(path: string, onChange: () => void, intervalMs = 250): () => void {
  const listener = (current: Stats, previous: Stats): void => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size) {
      onChange();
    }
  };
  watchFile(path, { interval: intervalMs, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
