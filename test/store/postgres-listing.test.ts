import { describePostgres } from './describe-postgres.js';
import { describeListingStoreContract } from './listing-store-contract.js';
import { tempPostgresJournal } from './temp-postgres-journal.js';

describePostgres('PostgreSQL listings', () => {
  describeListingStoreContract('PostgreSQL', () => tempPostgresJournal());
});
