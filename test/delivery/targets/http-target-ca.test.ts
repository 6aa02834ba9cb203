import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Target } from '../../../src/delivery/target.js';
import { createHttpTarget } from '../../../src/delivery/targets/http-target.js';
import type { HttpTargetSpec } from '../../../src/rules/rules.js';
import { PRIVATE_CA } from '../../helpers/private-ca.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeJob, quietLog } from './make-target-spec.js';
import { signal } from './use-http-targets.js';

const { compile } = rulesLoader();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An in-house HTTPS API: a certificate for localhost from the private CA; counts the requests it answers. */
async function startInHouseApi(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer(PRIVATE_CA.server, (_request, response) => {
    requests += 1;
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `https://localhost:${(server.address() as AddressInfo).port}/api`, requests: () => requests };
}

function target(options: string, env: Record<string, string> = {}): Target {
  const rules = compile(`targets:\n  tickets: { type: http, ${options} }\nroutes: []\nfallback: [tickets]\n`, env);
  const made = createHttpTarget(rules.targets.get('tickets') as HttpTargetSpec, {
    log: quietLog,
    lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
  });
  closers.push(() => made.close());
  return made;
}

describe('http target: an HTTPS API with a certificate from a private CA', () => {
  it('is reached when ca names the CA, as a file or as PEM text from the environment', async () => {
    const api = await startInHouseApi();

    const fromFile = await target(`url: "${api.url}", ca: ${PRIVATE_CA.caFile}`).send(makeJob(), signal());
    const fromEnv = await target(`url: "${api.url}", ca: "\${API_CA}"`, { API_CA: PRIVATE_CA.ca }).send(
      makeJob(),
      signal(),
    );

    expect([fromFile.kind, fromEnv.kind]).toEqual(['delivered', 'delivered']);
    expect(api.requests()).toBe(2);
  });

  it('dead-letters at once without ca, saying to set ca; no request reaches the API', async () => {
    const api = await startInHouseApi();

    const outcome = await target(`url: "${api.url}"`).send(makeJob(), signal());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('set ca') });
    expect(api.requests()).toBe(0);
  });
});
