import { describePostgres } from './describe-postgres.js';
import { describeDeliveryStoreContract } from './delivery-store-contract.js';
import { describeHeldRetentionStoreContract } from './held-retention-store-contract.js';
import { describeKeyOrderStoreContract } from './key-order-store-contract.js';
import { describeRetentionStoreContract } from './retention-store-contract.js';
import { describeSilenceStoreContract } from './silence-store-contract.js';
import { describeStoreContract } from './store-contract.js';
import { tempPostgresJournal } from './temp-postgres-journal.js';

describePostgres('PostgreSQL store', () => {
  describeStoreContract('PostgreSQL', () => tempPostgresJournal());
  describeSilenceStoreContract('PostgreSQL', () => tempPostgresJournal());
  describeDeliveryStoreContract('PostgreSQL', () => tempPostgresJournal());
  describeKeyOrderStoreContract('PostgreSQL', () => tempPostgresJournal());
  describeRetentionStoreContract('PostgreSQL', () => tempPostgresJournal());
  describeHeldRetentionStoreContract('PostgreSQL', () => tempPostgresJournal());
});
