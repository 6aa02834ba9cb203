import { RE2JS } from 're2js';
import { compileEventPattern } from '../rules/compile/compile-event-pattern.js';
import { compileRegex } from '../rules/compile/compile-regex.js';
import type { SilenceMatchers } from '../store/stored-silence.js';
import { invalidSilence } from './invalid-silence.js';

type Condition = Readonly<Record<string, unknown>>;

const MATCHER = /^(event|severity|data(?:\.[^.=!~]+)*)(=~|!~|!=|=)([\s\S]*)$/;
const TYPED = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/**
 * Parses Alertmanager-style matchers (`name=value`, `!=`, `=~`, `!~`; all must hold) into the `match:` a
 * route takes, so a silence written either way is stored, listed and matched by the same code. `name` is
 * `event`, `severity` or a `data.` path. `=~`/`!~` take an RE2 regex anchored at both ends, as Alertmanager
 * does. `severity` compares levels ignoring case, as routes do; one `event=` becomes `match.event`. A
 * value in double quotes is a JSON string; unquoted, a number, true, false or null also equals that value
 * (`data.port=22` holds for 22 and "22"). `severities` are the levels `severity=`/`!=` may name.
 */
export function parseSilenceMatchers(texts: readonly string[], severities: readonly string[]): SilenceMatchers {
  let event: string | undefined;
  let severity: string | undefined;
  const where: Condition[] = [];
  for (const text of texts) {
    const bad = (why: string) => invalidSilence(`matcher ${JSON.stringify(text)}: ${why}`);
    const parts = MATCHER.exec(text.trim());
    if (parts === null) {
      throw bad(
        'expected NAME=VALUE, NAME!=VALUE, NAME=~REGEX or NAME!~REGEX, NAME being event, severity or data.<key>',
      );
    }
    const [, name = '', op = '', raw = ''] = parts;
    const { value, quoted } = unquote(raw.trim(), bad);
    if (op === '=~' || op === '!~') {
      const pattern = `${name === 'severity' ? '(?i)' : ''}^(?:${value})$`;
      const compiled = compileRegex(pattern);
      if (!compiled.ok) throw bad(`invalid regular expression: ${compiled.reason}`);
      where.push(negated(op === '!~', field(name), { matches: pattern }));
    } else if (name === 'event') {
      const pattern = compileEventPattern(value);
      if (!pattern.ok || pattern.form !== 'exact') {
        throw bad(
          `not an event kind (${pattern.ok ? '= compares exactly' : pattern.reason}); for a pattern write event=~'agent\\..*'`,
        );
      }
      if (op === '=' && event === undefined) event = value;
      else where.push(negated(op === '!=', 'event', { equals: value }));
    } else if (name === 'severity') {
      if (!severities.some((level) => level.toLowerCase() === value.toLowerCase())) {
        throw bad(`"${value}" is not one of the severities (${severities.join(', ')})`);
      }
      if (op === '=' && severity === undefined) severity = value;
      else where.push(negated(op === '!=', 'data.severity', { matches: `(?i)^${RE2JS.quote(value)}$` }));
    } else {
      const typed = quoted || !TYPED.test(value) ? undefined : (JSON.parse(value) as unknown);
      where.push(negated(op === '!=', name, typed === undefined ? { equals: value } : { in: [value, typed] }));
    }
  }
  return {
    ...(event !== undefined && { event }),
    ...(severity !== undefined && { severity: { in: [severity] } }),
    ...(where.length > 0 && { where }),
  };
}

function field(name: string): string {
  return name === 'severity' ? 'data.severity' : name;
}

function negated(not: boolean, name: string, operator: Condition): Condition {
  return not ? { field: name, not: operator } : { field: name, ...operator };
}

function unquote(raw: string, bad: (why: string) => Error): { value: string; quoted: boolean } {
  if (!raw.startsWith('"')) {
    if (raw === '')
      throw bad('no value (for an empty string write NAME=""; for an absent field use match: with exists)');
    return { value: raw, quoted: false };
  }
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'string') return { value, quoted: true };
  } catch {
    // Reported below.
  }
  throw bad('a quoted value must be one JSON string, e.g. "db 1"');
}
