import type { Writable } from 'node:stream';
import winston from 'winston';
import type { Logger, LogLevel } from './logger.js';
import { createSecretMask } from '../secrets/secret-mask.js';
import { escapeForJson, redactSecrets } from './redact-secrets.js';

// winston keeps the finished line under this symbol (triple-beam's MESSAGE).
const MESSAGE = Symbol.for('message');

export interface LoggerOptions {
  readonly level: LogLevel;
  /** Where JSON lines go (the daemon passes stdout). */
  readonly stream: Writable;
  readonly secrets?: Iterable<string>;
}

/**
 * JSON lines through winston. Redaction runs on the finished line, not on chosen fields, so a secret
 * that reaches a log call by any path (an error message quoting a URL, say) is still masked.
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = new Set<string>();
  let mask = createSecretMask(secrets, escapeForJson);
  const add = (values: Iterable<string>): void => {
    const before = secrets.size;
    for (const value of values) secrets.add(value);
    // Compiled again only when a value is new (start-up, a reload that changed one), not per line.
    if (secrets.size !== before) mask = createSecretMask(secrets, escapeForJson);
  };
  add(options.secrets ?? []);

  // An Error serialises to {} in JSON; log its message instead (masked like everything else).
  const errorsAsText = winston.format((info) => {
    for (const key of Object.keys(info)) if (info[key] instanceof Error) info[key] = (info[key] as Error).message;
    return info;
  });
  const redact = winston.format((info) => {
    const line = (info as unknown as Record<symbol, unknown>)[MESSAGE];
    if (typeof line === 'string') (info as unknown as Record<symbol, unknown>)[MESSAGE] = redactSecrets(line, mask);
    return info;
  });
  const logger = winston.createLogger({
    level: options.level,
    format: winston.format.combine(errorsAsText(), winston.format.timestamp(), winston.format.json(), redact()),
    transports: [new winston.transports.Stream({ stream: options.stream })],
  });
  // winston formats (JSON, redaction) a line before its transport drops it for its level: a `debug` line on
  // the hot path at level `info` would cost nearly as much as one written (issue 11). Ask first, and once:
  // the level and the one transport never change, and winston's isLevelEnabled() builds arrays of its
  // transports on every call (about 650 bytes of garbage per event at ingest).
  const warnOn = logger.isWarnEnabled();
  const infoOn = logger.isInfoEnabled();
  const debugOn = logger.isDebugEnabled();
  return {
    error: (message, fields) => logger.error(message, fields),
    warn: (message, fields) => void (warnOn && logger.warn(message, fields)),
    info: (message, fields) => void (infoOn && logger.info(message, fields)),
    debug: (message, fields) => void (debugOn && logger.debug(message, fields)),
    addSecrets: add,
  };
}
