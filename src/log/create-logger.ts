import type { Writable } from 'node:stream';
import winston from 'winston';
import type { Logger, LogLevel } from './logger.js';
import { redactSecrets } from './redact-secrets.js';

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
  const add = (values: Iterable<string>): void => {
    // Very short values would mask ordinary words; nobody should use a secret that short anyway.
    for (const value of values) if (value.length >= 4) secrets.add(value);
  };
  add(options.secrets ?? []);

  const redact = winston.format((info) => {
    const redacted = redactSecrets(info, secrets);
    return redacted as winston.Logform.TransformableInfo;
  });
  const logger = winston.createLogger({
    level: options.level,
    format: winston.format.combine(winston.format.timestamp(), redact(), winston.format.json()),
    transports: [new winston.transports.Stream({ stream: options.stream })],
  });
  return {
    error: (message, fields) => logger.error(message, fields),
    warn: (message, fields) => logger.warn(message, fields),
    info: (message, fields) => logger.info(message, fields),
    debug: (message, fields) => logger.debug(message, fields),
    addSecrets: add,
  };
}
