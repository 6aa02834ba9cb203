import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real filesystem conditions for the journal-unavailable tests: a tiny tmpfs that fills up, a read-only bind
 * mount, an immutable file (which stops root too, unlike chmod). They need root with CAP_SYS_ADMIN (mount)
 * or an ext4/xfs-like filesystem (chattr); `skipReason` says why a condition cannot be produced here.
 */
export const filesystemFaults = {
  mountSkipReason: probe(() => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-probe-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 'mounting needs root with CAP_SYS_ADMIN'),

  immutableSkipReason: probe(() => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-probe-'));
    const file = join(dir, 'probe');
    try {
      writeFileSync(file, 'x');
      execFileSync('chattr', ['+i', file], { stdio: 'pipe' });
      execFileSync('chattr', ['-i', file], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 'chattr +i needs root and a filesystem with the immutable attribute'),

  mountTmpfs(dir: string, bytes: number): void {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  },

  bindReadOnly(source: string, target: string): void {
    execFileSync('mount', ['--bind', source, target], { stdio: 'pipe' });
    execFileSync('mount', ['-o', 'remount,bind,ro', target], { stdio: 'pipe' });
  },

  unmount(dir: string): void {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  },

  setImmutable(path: string, on: boolean): void {
    execFileSync('chattr', [on ? '+i' : '-i', path], { stdio: 'pipe' });
  },

  /** Writes `path` until the filesystem has no space left. */
  fill(path: string): void {
    const fd = openSync(path, 'w');
    try {
      for (const size of [65_536, 4_096, 512, 1]) {
        const chunk = Buffer.alloc(size, 0x61);
        try {
          for (;;) writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        }
      }
    } finally {
      closeSync(fd);
    }
  },
};

function probe(attempt: () => void, reason: string): string | undefined {
  try {
    attempt();
    return undefined;
  } catch {
    return reason;
  }
}
