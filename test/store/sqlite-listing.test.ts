import { describeListingStoreContract } from './listing-store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describeListingStoreContract('SQLite', () => tempSqliteJournal());
