import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SwitchyardError } from '../../switchyard-error.js';
import { lockJournalInode, type InodeLock } from './lock-journal-inode.js';

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
  /** What the holder should be told at warn: the journal's own lock not taken, or a second name for it. */
  readonly warnings: readonly string[];
}

/**
 * Takes the exclusive locks that make one process the only daemon on a SQLite journal, or throws
 * `journal_locked` naming the holder. Two locks, both dropped by the kernel when the process ends however it
 * ends, so a daemon killed with SIGKILL never blocks its restart:
 * - the journal file's own (lock-journal-inode.ts), which every name for the file meets: a hard link, or a
 *   name the file was renamed to, would otherwise let a second daemon take the first one's deliveries;
 * - SQLite's own on `<journal>.lock` beside the journal's real path: a transaction opened with BEGIN EXCLUSIVE
 *   and kept open, a POSIX record lock (https://www.sqlite.org/lockingv3.html). It is the one that versions
 *   before the file's own lock take, so that one of them and this one still exclude each other, and the one
 *   beside which the holder is recorded (`<journal>.lock.holder`), for the refusal to name it.
 * The journal itself is not locked against SQLite: the CLI reads and replays beside the daemon through WAL.
 * The lock file is never deleted: a process that had opened it before the deletion would lock a file that no
 * longer has a name, and two daemons could then run.
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
  const inode = takeInodeLock(journalPath, () => held.close());
  try {
    // Written whole then renamed, so that a reader never sees half a record.
    writeFileSync(`${holderPath}.tmp`, `${JSON.stringify(holder)}\n`);
    renameSync(`${holderPath}.tmp`, holderPath);
  } catch (error) {
    if (inode.held) inode.release();
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
      if (inode.held) inode.release();
      held.close();
    },
    warnings: inodeWarnings(inode),
  };
}

/** The journal file's own lock; when another process holds it, gives the name lock up and refuses. */
function takeInodeLock(journalPath: string, releaseNameLock: () => void): InodeLock {
  let inode: InodeLock;
  try {
    inode = lockJournalInode(journalPath);
  } catch (error) {
    releaseNameLock();
    throw new SwitchyardError('journal_unavailable', `cannot lock the journal ${journalPath}: ${String(error)}`, {
      status: 503,
      where: journalPath,
      cause: error,
    });
  }
  if (inode.held || inode.reason !== 'taken') return inode;
  releaseNameLock();
  throw new SwitchyardError(
    'journal_locked',
    `the journal ${journalPath} is in use by another switchyard daemon that opened it by another name (a hard ` +
      'link to the file, or a name it had before a rename): stop it first, or give this one its own ' +
      'store.sqlite.path; the read-only and replay commands work beside it',
    { where: journalPath },
  );
}

function inodeWarnings(inode: InodeLock): string[] {
  if (!inode.held) {
    return [
      'the journal file could not be locked itself (the flock command is missing, or the file system has no ' +
        'flock): a second daemon reaching it by another name (a hard link) would not be refused',
    ];
  }
  if (inode.links === 1) return [];
  // SQLite keeps the WAL beside the name it was given: through another name, a command would not see the
  // daemon's latest commits, and its own writes would go to a WAL of their own (https://www.sqlite.org/howtocorrupt.html#_multiple_links_to_the_same_file).
  return [
    `the journal file has ${inode.links} hard links: open it by this name only, from the daemon and the CLI alike, ` +
      'since SQLite keeps the write-ahead log beside the name it is given',
  ];
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
