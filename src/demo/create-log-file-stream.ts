import { appendFileSync } from 'node:fs';
import { Writable } from 'node:stream';

/**
 * A stream that appends each chunk to `file` synchronously. Unlike fs.createWriteStream it needs no closing,
 * so a log line the daemon writes a tick after it has stopped cannot fail with "write after end"; a line
 * that cannot be written (the demo's folder already removed) is dropped, as the demo is over by then.
 */
export function createLogFileStream(file: string): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        appendFileSync(file, chunk);
      } catch {
        // Only the demo's own log; nothing to do about it.
      }
      done();
    },
  });
}
