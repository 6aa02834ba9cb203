import { formatKey, type ConfigProblem } from './config-problem.js';
import type { RawConfig } from './load-config.js';
import { parseDuration } from './parse-duration.js';
import { parseSize } from './parse-size.js';

type Locate = (parts: readonly (string | number)[]) => string;

/**
 * What the schema cannot say: settings that are each valid alone but wrong together. Run once the schema
 * has passed, so every key here has its documented shape.
 */
export function crossKeyProblems(
  raw: RawConfig,
  locate: Locate,
  defaults: { readonly maxBody: string; readonly maxBodyInFlight: string },
): ConfigProblem[] {
  const problems = [...storeBackendProblems(raw, locate), ...duplicateAdminKeys(raw, locate)];
  if (raw.admin?.health_and_metrics === 'admin' && raw.admin.listen === null) {
    const parts = ['admin', 'health_and_metrics'];
    problems.push({
      key: formatKey(parts),
      message: 'needs the admin listener (admin.listen is null)',
      where: locate(parts),
    });
  }
  for (const [name, source] of Object.entries(raw.sources)) {
    const within = source.expect_events_within;
    // Checked at most every few seconds, so a shorter window would only ever raise false alarms.
    if (within !== undefined && (parseDuration(within) ?? 0) < 60_000) {
      const parts = ['sources', name, 'expect_events_within'];
      problems.push({ key: formatKey(parts), message: 'must be at least 1m', where: locate(parts) });
    }
  }
  const ttl = raw.admin?.console?.session_ttl;
  // A session shorter than a minute would sign the console out between two of its polls; longer than a week
  // keeps a lost laptop's cookie good for too long (rotating the key still revokes it).
  if (ttl !== undefined && ((parseDuration(ttl) ?? 0) < 60_000 || (parseDuration(ttl) ?? 0) > 604_800_000)) {
    const parts = ['admin', 'console', 'session_ttl'];
    problems.push({ key: formatKey(parts), message: 'must be between 1m and 7d', where: locate(parts) });
  }
  const interval = raw.retention?.interval;
  if (interval !== undefined && (parseDuration(interval) ?? 0) < 1000) {
    // A pass right after another would keep the journal busy for nothing.
    const parts = ['retention', 'interval'];
    problems.push({ key: formatKey(parts), message: 'must be at least 1s', where: locate(parts) });
  }
  // A body of max_body must fit in the budget on its own, or the sender's largest events would be answered
  // 503 ingest_busy, and retried, forever.
  const maxBody = raw.max_body ?? defaults.maxBody;
  const inFlight = raw.max_body_in_flight ?? defaults.maxBodyInFlight;
  if ((parseSize(inFlight) ?? 0) < (parseSize(maxBody) ?? 0)) {
    const parts = ['max_body_in_flight'];
    problems.push({
      key: formatKey(parts),
      message: `${inFlight} is less than max_body (${maxBody}): the largest events could never be read`,
      where: raw.max_body_in_flight === undefined ? locate(['max_body']) : locate(parts),
    });
  }
  return problems;
}

/** One journal per daemon: both backends at once would be ambiguous, neither is a typo (`store: {}`). */
function storeBackendProblems(raw: RawConfig, locate: Locate): ConfigProblem[] {
  if (raw.store === undefined) return [];
  const given = [raw.store.sqlite, raw.store.postgres].filter((backend) => backend !== undefined).length;
  if (given === 1) return [];
  const message = given === 0 ? 'needs sqlite or postgres' : 'give sqlite or postgres, not both';
  return [{ key: 'store', message, where: locate(['store']) }];
}

/** Two keys with one name would make the logs ambiguous; two with one hash, the scopes. */
function duplicateAdminKeys(raw: RawConfig, locate: Locate): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = { name: new Set<string>(), hash: new Set<string>() };
  (raw.admin?.keys ?? []).forEach((key, index) => {
    for (const field of ['name', 'hash'] as const) {
      if (seen[field].has(key[field])) {
        const parts = ['admin', 'keys', index, field];
        problems.push({ key: formatKey(parts), message: `another key has this ${field}`, where: locate(parts) });
      }
      seen[field].add(key[field]);
    }
  });
  return problems;
}
