import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor-command.js';
import { PRIVATE_CA } from '../helpers/private-ca.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const tempDir = useTempDirs();
let server: Server;
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** doctor's line about the `tickets` target, `options` added to it. */
async function doctorTickets(options: string): Promise<string> {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'switchyard.yaml'),
    'listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\n' +
      'sources: { monitor: { secrets: ["test-secret-0123456789abcdef"] } }\n',
  );
  const { port } = server.address() as AddressInfo;
  writeFileSync(
    path.join(dir, 'rules.yaml'),
    `targets:\n  tickets: { type: http, url: "https://127.0.0.1:${port}/api"${options} }\nroutes: []\nfallback: [tickets]\n`,
  );
  const io = fakeCliIo(dir, {});
  await runDoctor(['--config', 'switchyard.yaml'], io);
  return (
    io
      .out()
      .split('\n')
      .find((line) => line.includes('target tickets')) ?? '(no line)'
  );
}

describe('switchyard doctor: an https target with an in-house CA', () => {
  it('verifies the certificate against ca, and says to set ca without it', async () => {
    server = createServer(PRIVATE_CA.server, (_request, response) => response.end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

    expect(await doctorTickets(`, ca: ${PRIVATE_CA.caFile}`)).toMatch(/^OK\s+target tickets\s+.*certificate valid/);
    expect(await doctorTickets('')).toMatch(/^FAIL\s+target tickets\s+.*set ca/);
  });
});
