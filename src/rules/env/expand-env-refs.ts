const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type EnvExpansion =
  | {
      readonly ok: true;
      /** The text with every reference replaced; a missing variable's reference is left as written. */
      readonly value: string;
      /** Variables referenced, in order. */
      readonly names: readonly string[];
      /** Referenced variables that are unset or empty. */
      readonly missing: readonly string[];
      /** Values taken from the environment. */
      readonly substituted: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

/**
 * Expands `${NAME}` references in one string. `$${` stands for a literal `${`; any other `$` is literal.
 * A set-but-empty variable counts as missing: an empty webhook URL or token is never what was meant.
 */
export function expandEnvRefs(text: string, env: Readonly<Record<string, string | undefined>>): EnvExpansion {
  const names: string[] = [];
  const missing: string[] = [];
  const substituted: string[] = [];
  let value = '';
  let index = 0;
  for (;;) {
    const dollar = text.indexOf('$', index);
    if (dollar < 0) break;
    value += text.slice(index, dollar);
    if (text.startsWith('$${', dollar)) {
      value += '${';
      index = dollar + 3;
    } else if (text[dollar + 1] === '{') {
      const end = text.indexOf('}', dollar + 2);
      if (end < 0) return { ok: false, reason: '"${" without a closing "}"' };
      const name = text.slice(dollar + 2, end);
      if (!VARIABLE_NAME.test(name)) {
        return { ok: false, reason: `"\${${name}}" is not a variable reference (names are letters, digits and _)` };
      }
      names.push(name);
      const found = env[name];
      if (found === undefined || found === '') {
        missing.push(name);
        value += `\${${name}}`;
      } else {
        substituted.push(found);
        value += found;
      }
      index = end + 1;
    } else {
      value += '$';
      index = dollar + 1;
    }
  }
  value += text.slice(index);
  return { ok: true, value, names, missing, substituted };
}
