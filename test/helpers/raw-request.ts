import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number | null;
  readonly text: string;
  /** True when the server closed the connection. */
  readonly closed: boolean;
}

/**
 * Writes raw bytes to the server and collects what comes back until the server closes or `waitMs`
 * passes: for what fetch cannot do (a body that stalls half-way, a body larger than announced).
 */
export function rawRequest(port: number, chunks: readonly (string | Buffer)[], waitMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : null, text, closed });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (data) => (text += data.toString('utf8')));
    socket.on('error', () => undefined); // a reset after the answer is expected when we stop reading
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}
