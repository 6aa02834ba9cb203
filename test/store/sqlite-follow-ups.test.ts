import { describeFollowUpStoreContract } from './follow-up-store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describeFollowUpStoreContract('SQLite', () => tempSqliteJournal());
