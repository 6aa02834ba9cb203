import { describeEventCountsStoreContract } from './event-counts-store-contract.js';
import { describeConsoleStoreContract } from './console-store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describeConsoleStoreContract('SQLite', () => tempSqliteJournal());
describeEventCountsStoreContract('SQLite', () => tempSqliteJournal());
