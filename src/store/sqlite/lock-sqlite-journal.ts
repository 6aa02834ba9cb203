import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SwitchyardError } from '../../switchyard-error.js';

/** Who holds a journal: recorded beside the lock so that a refused daemon can name it. */
export interface JournalHolder {
  readonly pid: number;
  readonly host: string;
  /** Epoch ms. */
  readonly startedAt: number;
}

export interface JournalLock {
  /** Gives the journal up (idempotent). A process that dies without calling it loses the lock all the same. */
  release(): void;
}

/**
 * Takes the exclusive lock that makes one process the only daemon on a SQLite journal, or throws
 * `journal_locked` naming the holder. The lock is SQLite's own: a transaction opened with BEGIN EXCLUSIVE on a
 * small empty database `<journal>.lock` and kept open. SQLite takes it with a POSIX record lock
 * (https://www.sqlite.org/lockingv3.html), which the kernel drops when the process ends however it ends, so a
 * daemon killed with SIGKILL never blocks its restart; and SQLite also refuses a second connection in the same
 * process. The journal itself is not locked: the CLI reads and replays beside the daemon through WAL.
 * The lock file is never deleted: a process that had opened it before the deletion would lock a file that no
 * longer has a name, and two daemons could then run. The holder's details live in `<journal>.lock.holder`.
 */
export function lockSqliteJournal(journalPath: string, holder: JournalHolder): JournalLock {
  let lockPath = `${journalPath}.lock`;
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(lockPath), { recursive: true });
    // The journal's real path: a daemon that reaches the same journal through a symbolic link to the file
    // locks the same lock file (a link to its folder already does). A journal not created yet has no link.
    lockPath = `${existsSync(journalPath) ? realpathSync(journalPath) : journalPath}.lock`;
    // timeout 0: a lock held by a running daemon stays held; waiting would only delay the refusal.
    db = new Database(lockPath, { timeout: 0 });
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db?.close();
    if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY')) {
      throw new SwitchyardError(
        'journal_locked',
        `the journal ${journalPath} is in use by another switchyard daemon (${describeHolder(`${lockPath}.holder`)}): ` +
          'stop it first, or give this one its own store.sqlite.path; the read-only and replay commands work beside it',
        { where: lockPath, cause: error },
      );
    }
    throw new SwitchyardError('journal_unavailable', `cannot lock the journal ${journalPath}: ${String(error)}`, {
      status: 503,
      where: lockPath,
      cause: error,
    });
  }
  const held = db;
  const holderPath = `${lockPath}.holder`;
  try {
    // Written whole then renamed, so that a reader never sees half a record.
    writeFileSync(`${holderPath}.tmp`, `${JSON.stringify(holder)}\n`);
    renameSync(`${holderPath}.tmp`, holderPath);
  } catch (error) {
    held.close();
    throw new SwitchyardError('journal_unavailable', `cannot record the holder of ${lockPath}: ${String(error)}`, {
      status: 503,
      where: holderPath,
      cause: error,
    });
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Removed while still holding the lock: removed after, it could be the next holder's record.
      rmSync(holderPath, { force: true });
      held.close();
    },
  };
}

/** The holder as its record names it, for the refusal message; a record being written or gone says so. */
function describeHolder(holderPath: string): string {
  let text: string;
  try {
    text = readFileSync(holderPath, 'utf8');
  } catch {
    return 'its process is not recorded';
  }
  try {
    const record = JSON.parse(text) as Partial<JournalHolder>;
    const started = new Date(typeof record.startedAt === 'number' ? record.startedAt : NaN);
    return `pid ${String(record.pid)} on host ${String(record.host)}, started ${Number.isNaN(started.getTime()) ? 'at an unknown time' : started.toISOString()}`;
  } catch {
    return 'its process record is unreadable';
  }
}
