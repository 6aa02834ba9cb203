import pg from 'pg';
import { describe } from 'vitest';
import { testDatabaseUrl } from './temp-postgres-journal.js';

/** Why the test database cannot be used, or undefined when it answers. */
async function unreachableReason(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return `${code === undefined ? '' : `${code}: `}${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => {});
  }
}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable SWITCHYARD_TEST_DATABASE_URL)';
  }
}

const reason = await unreachableReason(testDatabaseUrl);

/**
 * A describe block that needs the test database (SWITCHYARD_TEST_DATABASE_URL). Without it the block is
 * reported as skipped, with the reason in its name and on stderr, and the run still passes.
 */
export function describePostgres(name: string, body: () => void): void {
  if (reason === undefined) {
    describe(name, body);
    return;
  }
  const why = `SKIPPED: no PostgreSQL at ${redacted(testDatabaseUrl)} (${reason}); set SWITCHYARD_TEST_DATABASE_URL or start the server`;
  console.warn(`\n*** ${name}: ${why}\n`);
  describe.skip(`${name} — ${why}`, body);
}
