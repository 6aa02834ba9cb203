/** What the main thread gives the journal thread: the SQLite store's options that can cross threads. */
export interface JournalThreadData {
  readonly path: string;
  readonly busyTimeoutMs: number | undefined;
}

/**
 * Main thread to journal thread: one call of a `Store` method, its arguments as given (`migrate` carries the
 * main thread's clock reading instead, and `sendDigest` is split in `peekDigest` and `commitDigest`, since a
 * builder function cannot cross threads), or `close`.
 */
export interface ToJournalThread {
  readonly id: number;
  readonly method: string;
  readonly args: readonly unknown[];
}

/** An error as it crosses threads: what it takes to rebuild an equivalent one (see revive-error.ts). */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  /** Own enumerable properties with cloneable values: `code`, `status`, `where`... */
  readonly props: Readonly<Record<string, unknown>>;
  readonly cause: WireError | undefined;
}

/** Journal thread to main thread: the answer to call `id`. */
export type FromJournalThread =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError };
