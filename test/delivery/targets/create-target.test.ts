import { describe, expect, it } from 'vitest';
import { createTarget } from '../../../src/delivery/targets/create-target.js';
import { startHttpReceiver } from '../../helpers/start-http-receiver.js';
import {
  makeHttpSpec,
  makeJob,
  makePagerdutySpec,
  makeSlackSpec,
  makeTeamsSpec,
  quietLog,
} from './make-target-spec.js';

describe('createTarget', () => {
  it('builds the target module its type names', async () => {
    const receiver = await startHttpReceiver();
    try {
      const http = await createTarget(makeHttpSpec({ url: `${receiver.url}/http` }), { log: quietLog });
      const slack = await createTarget(makeSlackSpec({ webhookUrl: `${receiver.url}/slack` }), { log: quietLog });
      const teams = await createTarget(makeTeamsSpec({ webhookUrl: `${receiver.url}/teams` }), { log: quietLog });
      const pager = await createTarget(makePagerdutySpec({ baseUrl: `${receiver.url}/pd` }), { log: quietLog });
      const signal = new AbortController().signal;
      await http.send(makeJob(), signal);
      await slack.send(makeJob(), signal);
      await teams.send(makeJob(), signal);
      await pager.send(makeJob(), signal);
      await Promise.all([http.close(), slack.close(), teams.close(), pager.close()]);
      expect(receiver.requests.map((request) => [request.url, request.headers['idempotency-key']])).toEqual([
        ['/http', 'dlv_1'],
        ['/slack', undefined],
        ['/teams', undefined],
        ['/pd/v2/enqueue', undefined],
      ]);
      expect(JSON.parse(receiver.requests[2]?.body.toString('utf8') ?? '{}')).toMatchObject({ type: 'message' });
    } finally {
      await receiver.close();
    }
  });
});
