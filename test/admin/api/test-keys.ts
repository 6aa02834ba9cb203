import { newApiKey } from '../../../src/admin/api/new-api-key.js';
import type { AdminKeyConfig, AdminScope } from '../../../src/config/config.js';

function key(name: string, scopes: AdminScope[]): { key: string; config: AdminKeyConfig } {
  const made = newApiKey();
  return { key: made.key, config: { name, hash: made.hash, scopes } };
}

/** Three keys, one per useful scope set; fresh for each test process. */
export const READER = key('dashboard', ['read']);
export const REPLAYER = key('replay-bot', ['replay']);
export const OPERATOR = key('operator', ['read', 'replay']);
export const SILENCER = key('shift-lead', ['read', 'silence']);
export const REPAIRER = key('fixer', ['read', 'repair']);
export const ALL_KEYS: readonly AdminKeyConfig[] = [
  READER.config,
  REPLAYER.config,
  OPERATOR.config,
  SILENCER.config,
  REPAIRER.config,
];
