import type { IncomingMessage } from 'node:http';

/** The whole body of a request (the stand-ins only ever receive small JSON documents). */
export async function readRequestBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
