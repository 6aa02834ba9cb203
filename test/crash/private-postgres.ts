import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The PostgreSQL server binaries (initdb, pg_ctl) of the newest installed Debian-style version, if any. */
const BIN_DIR = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
})();

// PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user (through runuser);
// as anyone else, to the current user.
const asRoot = process.getuid?.() === 0;
const postgresUid = (() => {
  try {
    return Number(
      execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  } catch {
    return undefined;
  }
})();

/** Why a private cluster cannot be made here, or undefined when it can. */
export const privateClusterSkipReason: string | undefined =
  BIN_DIR === undefined
    ? 'no PostgreSQL server binaries (initdb) under /usr/lib/postgresql'
    : asRoot && (postgresUid === undefined || !existsSync('/usr/sbin/runuser'))
      ? 'running as root without a postgres user or runuser'
      : undefined;

export interface PrivateCluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication). */
  readonly url: string;
  /** `pg_ctl stop -m immediate`: the server dies at once, without a checkpoint, as on a crash. */
  stop(): Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections (after crash recovery). */
  start(): Promise<void>;
  /** Stops the server if running and removes its directory. */
  dispose(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A throwaway PostgreSQL cluster in a temporary directory, on its own port: safe to stop and start. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  if (BIN_DIR === undefined) throw new Error(privateClusterSkipReason);
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-pg-'));
  if (asRoot && postgresUid !== undefined) chownSync(dir, postgresUid, postgresUid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const as = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(BIN_DIR, tool), ...args], { cwd: dir })
      : run(path.join(BIN_DIR, tool), args, { cwd: dir });
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  let running = false;
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-N', '-E', 'UTF8', '--locale=C']);
  await start();
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stop();
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async dispose() {
      if (running) await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
