import { formatKey, type ConfigProblem } from './config-problem.js';
import { configSchema } from './config-schema.js';

/** Options an earlier version took that now do nothing: a config naming one still loads, with a warning. */
const REMOVED_OPTIONS: readonly { readonly key: readonly string[]; readonly instead: string }[] = [
  {
    key: ['store', 'sqlite', 'thread'],
    instead: "the journal is written on the daemon's main thread (docs/decisions/no-worker-threads.md)",
  },
  {
    key: ['delivery', 'worker_thread'],
    instead: "the delivery engine runs on the daemon's main thread (docs/decisions/no-worker-threads.md)",
  },
];

/**
 * Takes the removed options out of `raw` (the config before the schema sees it) and says where each was. An
 * upgrade must not stop a daemon over an option that changed nothing by default; a section left empty that
 * the schema no longer knows (`delivery:`) goes with its last option.
 */
export function dropRemovedOptions(
  raw: Record<string, unknown>,
  locate: (parts: readonly string[]) => string,
): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  for (const { key, instead } of REMOVED_OPTIONS) {
    const parents = key.slice(0, -1).reduce<Record<string, unknown>[]>(
      (chain, part) => {
        const next = chain.at(-1)?.[part];
        return isMapping(next) ? [...chain, next] : chain;
      },
      [raw],
    );
    const parent = parents.length === key.length ? parents.at(-1) : undefined;
    const name = key.at(-1) ?? '';
    if (parent === undefined || !(name in parent)) continue;
    warnings.push({ key: formatKey(key), message: `removed and ignored: ${instead}`, where: locate(key) });
    delete parent[name];
    const sectionKey = key.slice(0, -1);
    if (Object.keys(parent).length === 0 && !knownSection(sectionKey)) delete parents.at(-2)?.[sectionKey.at(-1) ?? ''];
  }
  return warnings;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function knownSection(key: readonly string[]): boolean {
  let schema: unknown = configSchema;
  for (const part of key) {
    const properties = isMapping(schema) ? schema['properties'] : undefined;
    schema = isMapping(properties) ? properties[part] : undefined;
  }
  return schema !== undefined;
}
