import type { Envelope } from '../ingest/envelope.js';
import { readField } from '../rules/match/read-field.js';
import type { CompiledSilence } from './compile-silence.js';

/** Past this many list elements, an event field is not looked up element by element. */
const MAX_LIST_LOOKUPS = 64;

/**
 * Narrows the silences an event must be tested against. Most silences name a host, an agent or a rule with
 * `where: [{ field, equals }]`: such a silence can only hold an event whose field is that value (`equals` is
 * `===`, on a list any element), so it is filed under its field and value and found by one lookup per field.
 * The others are always candidates. Candidates are still tested in full (`matches`), so the index only saves
 * work, never decides; with 1,000 host silences an event costs a few lookups instead of 1,000 tests.
 */
export function indexSilences(
  silences: readonly CompiledSilence[],
): (envelope: Envelope) => readonly CompiledSilence[] {
  const byField = new Map<
    string,
    { path: string[]; byValue: Map<unknown, CompiledSilence[]>; all: CompiledSilence[] }
  >();
  const always: CompiledSilence[] = [];
  for (const silence of silences) {
    const equality = (silence.silence.matchers.where ?? []).find(
      (condition) => 'equals' in condition && typeof condition.field === 'string',
    );
    if (equality === undefined) {
      always.push(silence);
      continue;
    }
    const field = String(equality.field);
    let entry = byField.get(field);
    if (entry === undefined) byField.set(field, (entry = { path: field.split('.'), byValue: new Map(), all: [] }));
    const list = entry.byValue.get(equality.equals) ?? [];
    list.push(silence);
    entry.byValue.set(equality.equals, list);
    entry.all.push(silence);
  }
  if (byField.size === 0) return () => always;
  const fields = [...byField.values()];
  return (envelope) => {
    // Most events are held by no silence: no list is made for them.
    let found: CompiledSilence[] | undefined;
    for (const { path, byValue, all } of fields) {
      const value = readField(envelope, path);
      if (!Array.isArray(value)) {
        const hit = byValue.get(value);
        if (hit !== undefined) (found ??= [...always]).push(...hit);
      } else if (value.length > MAX_LIST_LOOKUPS) (found ??= [...always]).push(...all);
      else
        for (const hit of new Set(value.flatMap((item) => byValue.get(item) ?? []))) (found ??= [...always]).push(hit);
    }
    return found ?? always;
  };
}
