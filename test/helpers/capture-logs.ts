import { Writable } from 'node:stream';

export interface CapturedLogs {
  /** Where the daemon writes its JSON log lines. */
  readonly stream: Writable;
  readonly rawLogs: () => string;
  readonly logs: () => Record<string, unknown>[];
}

/** An in-memory log stream for an in-process daemon, read back as text or as parsed JSON lines. */
export function captureLogs(): CapturedLogs {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return {
    stream,
    rawLogs: () => text,
    logs: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
