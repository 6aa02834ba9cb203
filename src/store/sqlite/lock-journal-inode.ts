import { spawnSync } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync } from 'node:fs';

/** What taking the journal file's own lock came to. */
export type InodeLock =
  | { readonly held: true; readonly links: number; release(): void }
  | { readonly held: false; readonly reason: 'taken' | 'unsupported' };

/**
 * An exclusive flock(2) on the journal file itself, so that every name for it (a hard link, a name it was
 * renamed to) meets the same lock. Node has no flock call: the `flock` command (util-linux, in every Debian
 * image) takes it on a descriptor this process opened and passes down as fd 3, and exits; the lock belongs
 * to the open file description, which this process keeps, so it lasts until `release()` or the process ends
 * however it ends. flock locks are apart from the POSIX record locks SQLite takes on the same file (Linux,
 * local file systems), so the daemon's own connections and the CLI's read and write as before; and closing
 * another descriptor of the file, as SQLite does, does not drop it (a POSIX lock would be dropped).
 * The file is created empty when missing (an empty file is an empty SQLite database), so that a journal
 * about to be created is locked too. `command`: the flock program (tests name one that is missing).
 */
export function lockJournalInode(journalPath: string, command = 'flock'): InodeLock {
  // Read-only: this descriptor never writes; 0o644 is the mode SQLite itself would create the file with.
  const fd = openSync(journalPath, constants.O_RDONLY | constants.O_CREAT, 0o644);
  const locked = spawnSync(command, ['--exclusive', '--nonblock', '3'], {
    stdio: ['ignore', 'ignore', 'pipe', fd],
    timeout: 10_000,
  });
  if (locked.status === 0) {
    let released = false;
    return {
      held: true,
      links: fstatSync(fd).nlink,
      release() {
        if (released) return;
        released = true;
        closeSync(fd);
      },
    };
  }
  closeSync(fd);
  // `flock --nonblock` exits 1 when the lock is taken; anything else (not installed, a file system without
  // flock) means this lock cannot be had here.
  return { held: false, reason: locked.status === 1 ? 'taken' : 'unsupported' };
}
