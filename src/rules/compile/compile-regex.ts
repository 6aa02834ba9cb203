import { RE2JS } from 're2js';

/** `matches` looks at no more than this many characters (UTF-16 code units) of a value. */
export const MAX_MATCHED_LENGTH = 64 * 1024;

/**
 * RE2 is linear in the input but also in the size of the compiled program: `(?:\w+\s?){1000}[!?]` took
 * 4.6 s on one 64 KiB value here, with a program size of 4,003. Capping the program size at 500 keeps a
 * single value under about 25 ms in the worst case while leaving room for any realistic keyword pattern.
 */
export const MAX_PROGRAM_SIZE = 500;

export type CompiledRegex =
  { readonly ok: true; readonly test: (text: string) => boolean } | { readonly ok: false; readonly reason: string };

/**
 * Compiles a `matches` pattern with RE2 semantics (re2js): matching is linear in the input, so a pattern
 * like `(a+)+$` cannot stall the daemon on a crafted event, and the 64 KiB cut bounds the work per value.
 * Backreferences and lookaround, which need backtracking, are rejected at load time by RE2's parser.
 * See https://github.com/google/re2/wiki/Syntax.
 */
export function compileRegex(pattern: string): CompiledRegex {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: lookaroundAdvice(message) ?? message.replace(/^error parsing regexp: /, '') };
  }
  if (regex.programSize() > MAX_PROGRAM_SIZE) {
    return {
      ok: false,
      reason: `pattern is too complex (RE2 program size ${regex.programSize()}, limit ${MAX_PROGRAM_SIZE}); use fewer or smaller counted repetitions`,
    };
  }
  return {
    ok: true,
    test: (text) => regex.test(text.length > MAX_MATCHED_LENGTH ? text.slice(0, MAX_MATCHED_LENGTH) : text),
  };
}

/**
 * RE2 reports lookaround as "unsupported Perl syntax" (or, for lookbehind, a bad named group); say what to
 * write instead. The quoted fragment in RE2's message starts at the offending group.
 */
function lookaroundAdvice(message: string): string | undefined {
  const group = /`(\(\?<?[=!])/.exec(message)?.[1];
  if (group === undefined) return undefined;
  const what = `RE2 has no lookahead or lookbehind ("${group}" is not supported)`;
  return group.endsWith('!')
    ? `${what}: to require that a value does not match a pattern, write that pattern as its own condition: not: { matches: PATTERN }`
    : `${what}: to require that a value matches several patterns, write one where condition per pattern on the same field (all must hold)`;
}
