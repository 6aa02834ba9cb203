import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** Where the daemon reads a source's current secret from. */
export interface SourceSecret {
  readonly source: string;
  /**
   * The variable of `sources.<source>.secrets[0]` when that entry is exactly `${VAR}`; null when it is
   * written in the file (Switchyard does not rewrite its operator's config).
   */
  readonly variable: string | null;
}

const WEBHOOK_PATH = /\/webhooks\/([^/]+)\/?$/;
const LONE_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Reads the daemon's config file as written (before `${VAR}` expansion, since the point is to find the
 * variable, which is not set yet) and finds the source the subscription is for: `source` if given, else the
 * `<name>` of a public URL ending in `/webhooks/<name>`, else the config's only source. Returns the problem
 * as a string when the config cannot say.
 */
export function findSourceSecret(file: string, source: string | undefined, publicUrl: URL): SourceSecret | string {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0];
    return `cannot read the config ${file} (${reason}); name the daemon's config with --config`;
  }
  const sources = (raw as { sources?: unknown } | null)?.sources;
  const names = typeof sources === 'object' && sources !== null ? Object.keys(sources) : [];
  const fromUrl = WEBHOOK_PATH.exec(publicUrl.pathname)?.[1];
  if (source !== undefined && fromUrl !== undefined && fromUrl !== source) {
    return `--url ends in /webhooks/${fromUrl}, but --source is "${source}": events would not reach that source`;
  }
  const name = source ?? fromUrl ?? (names.length === 1 ? names[0] : undefined);
  if (name === undefined) {
    return `the config ${file} has ${names.length === 0 ? 'no sources' : `sources ${names.join(', ')}`}: name one with --source`;
  }
  if (!names.includes(name)) {
    const known = names.length === 0 ? 'none' : names.join(', ');
    return `the config ${file} has no source "${name}" (it has: ${known}); add it first, with secrets: ['\${VAR}']`;
  }
  const secrets = (sources as Record<string, { secrets?: unknown } | null>)[name]?.secrets;
  const first = Array.isArray(secrets) ? (secrets[0] as unknown) : undefined;
  const variable = typeof first === 'string' ? (LONE_REFERENCE.exec(first.trim())?.[1] ?? null) : null;
  return { source: name, variable };
}
