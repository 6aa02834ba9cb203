import { describeConsoleStoreContract } from './console-store-contract.js';
import { describeDeliveryStoreContract } from './delivery-store-contract.js';
import { describeEventCountsStoreContract } from './event-counts-store-contract.js';
import { describeKeyOrderStoreContract } from './key-order-store-contract.js';
import { describeListingStoreContract } from './listing-store-contract.js';
import { describeRetentionStoreContract } from './retention-store-contract.js';
import { describeSilenceStoreContract } from './silence-store-contract.js';
import { describeStoreContract } from './store-contract.js';
import { tempThreadJournal } from './temp-thread-journal.js';

// The same contract as the direct SQLite store (sqlite-*.test.ts), through the journal thread.
describeStoreContract('SQLite journal thread', tempThreadJournal);
describeSilenceStoreContract('SQLite journal thread', tempThreadJournal);
describeDeliveryStoreContract('SQLite journal thread', tempThreadJournal);
describeKeyOrderStoreContract('SQLite journal thread', tempThreadJournal);
describeListingStoreContract('SQLite journal thread', tempThreadJournal);
describeRetentionStoreContract('SQLite journal thread', tempThreadJournal);
describeConsoleStoreContract('SQLite journal thread', tempThreadJournal);
describeEventCountsStoreContract('SQLite journal thread', tempThreadJournal);
