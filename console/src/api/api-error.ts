import type { Problem } from './api-types.js';

/** An answer of the admin API that was not a success: its HTTP status and the `error.code` it carried. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** `rules_invalid` carries the problems of the file. */
    readonly problems: readonly Problem[] = [],
    /** Seconds, from `Retry-After` (429, 503). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** What a person should read for an error: the API's message, with the wait when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const wait = error.retryAfter === null ? '' : ` Try again in ${error.retryAfter} s.`;
    return `${error.message} (${error.code}).${wait}`;
  }
  if (error instanceof Error) return `The admin API could not be reached: ${error.message}`;
  return String(error);
}
