/** One thing wrong with the config, named by key (`sources.monitor.secrets[0]`) and, when known, position. */
export interface ConfigProblem {
  readonly key: string;
  readonly message: string;
  /** `file:line:column`, or the environment variable the value came from. */
  readonly where: string;
}

/** Renders a key path the way an operator would write it: `sources.monitor.secrets[0]`. */
export function formatKey(parts: readonly (string | number)[]): string {
  return parts.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  );
}
