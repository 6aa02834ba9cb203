import { describePostgres } from './describe-postgres.js';
import { describeFollowUpStoreContract } from './follow-up-store-contract.js';
import { tempPostgresJournal } from './temp-postgres-journal.js';

describePostgres('PostgreSQL follow-ups', () => {
  describeFollowUpStoreContract('PostgreSQL', () => tempPostgresJournal());
});
