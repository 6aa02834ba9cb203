const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface Expansion {
  readonly value: string;
  /** Names referenced but not set (an empty value counts as set). */
  readonly missing: readonly string[];
  /** The values substituted, so callers can keep them out of logs. */
  readonly substituted: readonly string[];
}

/** Replaces each `${VAR}` in `text` with the variable's value from `env`. */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const missing: string[] = [];
  const substituted: string[] = [];
  const value = text.replace(REFERENCE, (_whole, name: string) => {
    const found = env[name];
    if (found === undefined) {
      missing.push(name);
      return '';
    }
    substituted.push(found);
    return found;
  });
  return { value, missing, substituted };
}
