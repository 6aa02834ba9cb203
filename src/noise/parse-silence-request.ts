import type { ErrorObject } from 'ajv';
import { parseDuration } from '../config/parse-duration.js';
import { compileRegex } from '../rules/compile/compile-regex.js';
import type { CompiledRules } from '../rules/rules.js';
import { describeSchemaError } from '../rules/schema/describe-schema-error.js';
import { displayPath } from '../rules/schema/display-path.js';
import { parseJsonPointer } from '../rules/schema/parse-json-pointer.js';
import type { SilenceChange, SilenceMatchers, StoredSilence } from '../store/stored-silence.js';
import { SwitchyardError } from '../switchyard-error.js';
import { compileSilence } from './compile-silence.js';
import { invalidSilence as invalid } from './invalid-silence.js';
import { parseSilenceMatchers } from './parse-silence-matchers.js';
import { silenceRequestValidators } from './silence-request-validator.js';

/** The longest a silence may last: a forgotten silence is how a real incident goes unseen. */
export const MAX_SILENCE_MS = 366 * 86_400_000;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

interface NewSilenceInput {
  readonly match?: SilenceMatchers;
  /** Alertmanager-style matchers (parseSilenceMatchers), instead of `match`. */
  readonly matchers?: readonly string[];
  readonly starts_at?: string;
  readonly ends_at?: string;
  readonly duration?: string;
  readonly comment: string;
  readonly created_by: string;
  readonly on_expiry?: StoredSilence['onExpiry'];
}

/**
 * Validates a new silence (CLI or admin API) into what the journal stores: the schema, then times (it must end
 * in the future, after it starts, within MAX_SILENCE_MS; `duration` counts from the start) and the matchers
 * (`match`, or `matchers` in Alertmanager's form, turned into `match`) compiled against the rules in force. Throws `invalid_silence` (400) naming the first problem.
 */
export function parseNewSilence(
  input: unknown,
  context: { readonly now: number; readonly id: string; readonly rules: CompiledRules },
): StoredSilence {
  const { now, rules } = context;
  const request = validate<NewSilenceInput>('create', input);
  if ((request.match === undefined) === (request.matchers === undefined)) {
    throw invalid('give exactly one of match and matchers');
  }
  const matchers = request.match ?? parseSilenceMatchers(request.matchers ?? [], rules.severities);
  const startsAt = request.starts_at === undefined ? now : instant('starts_at', request.starts_at);
  if ((request.ends_at === undefined) === (request.duration === undefined)) {
    throw invalid('give exactly one of ends_at and duration');
  }
  const endsAt =
    request.ends_at === undefined
      ? startsAt + (parseDuration(request.duration ?? '') ?? 0)
      : instant('ends_at', request.ends_at);
  checkWindow(startsAt, endsAt, now);
  const silence: StoredSilence = {
    id: context.id,
    matchers,
    startsAt,
    endsAt,
    comment: request.comment,
    createdBy: request.created_by,
    onExpiry: request.on_expiry ?? 'drop',
    createdAt: now,
    updatedAt: now,
    releasedAt: null,
  };
  const compiled = compileSilence(silence, rules, compileRegex);
  if (!compiled.ok) throw invalid(compiled.problems.join('; '));
  return silence;
}

/** Validates a change (`expire`, a new end or duration from now, a new comment) to an existing silence. */
export function parseSilenceChange(input: unknown, silence: StoredSilence, now: number): SilenceChange {
  const request = validate<{ ends_at?: string; duration?: string; expire?: true; comment?: string }>('change', input);
  const ends = [request.ends_at, request.duration, request.expire].filter((value) => value !== undefined);
  if (ends.length > 1) throw invalid('give at most one of ends_at, duration and expire');
  if (silence.endsAt <= now && ends.length > 0) {
    throw new SwitchyardError('silence_ended', `silence ${silence.id} has already ended; create a new one`, {
      status: 409,
    });
  }
  let endsAt: number | undefined;
  if (request.expire === true) endsAt = Math.max(now, silence.startsAt);
  else if (request.duration !== undefined) endsAt = now + (parseDuration(request.duration) ?? 0);
  else if (request.ends_at !== undefined) endsAt = instant('ends_at', request.ends_at);
  if (endsAt !== undefined && request.expire !== true) checkWindow(silence.startsAt, endsAt, now);
  return { endsAt, comment: request.comment };
}

function validate<T>(which: 'create' | 'change', input: unknown): T {
  const validator = silenceRequestValidators()[which];
  if (validator(input)) return input as T;
  const first = (validator.errors ?? [])[0] as ErrorObject | undefined;
  const where = first === undefined ? '' : displayPath(parseJsonPointer(first.instancePath));
  const message = (first && describeSchemaError(first)) ?? 'is not a valid silence';
  throw invalid(where === '' ? message : `${where}: ${message}`);
}

function instant(name: string, text: string): number {
  const ms = ISO_WITH_ZONE.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalid(`${name}: not an ISO 8601 date and time with Z or an offset, e.g. 2026-12-24T22:00:00+01:00`);
  return ms;
}

function checkWindow(startsAt: number, endsAt: number, now: number): void {
  if (endsAt <= now) throw invalid('the silence would already have ended');
  if (endsAt <= startsAt) throw invalid('the silence must end after it starts');
  if (endsAt - startsAt > MAX_SILENCE_MS) throw invalid('a silence lasts at most 366 days');
}
