import { describeIncidentStoreContract } from './incident-store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describeIncidentStoreContract('SQLite', () => tempSqliteJournal());
