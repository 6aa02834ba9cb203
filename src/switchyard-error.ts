/**
 * The one error type the daemon and the CLI raise on purpose: a stable machine-readable `code`, a message
 * for humans, and optionally where it comes from (a `file:line:column`, a config key) and the HTTP status
 * it maps to at the edge. Modelled on fastify's coded errors.
 */
export class SwitchyardError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly where: string | undefined;

  constructor(code: string, message: string, options: { status?: number; where?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchyardError';
    this.code = code;
    this.status = options.status;
    this.where = options.where;
  }
}
