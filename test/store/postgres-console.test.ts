import { describeEventCountsStoreContract } from './event-counts-store-contract.js';
import { describeConsoleStoreContract } from './console-store-contract.js';
import { describePostgres } from './describe-postgres.js';
import { tempPostgresJournal } from './temp-postgres-journal.js';

describePostgres('PostgreSQL console reads', () => {
  describeConsoleStoreContract('PostgreSQL', () => tempPostgresJournal());
  describeEventCountsStoreContract('PostgreSQL', () => tempPostgresJournal());
});
