import { newApiKey } from '../../../src/admin/api/new-api-key.js';
import { envelope, postWebhook } from '../../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../../helpers/start-test-daemon.js';

/** Routes to one HTTP receiver that gives up after one attempt, so a failed delivery is dead at once. */
export const CONSOLE_RULES = `
targets:
  receiver: { type: http, url: "\${RECEIVER_URL}/hook", retry: { max_attempts: 1 } }
routes:
  - name: serious-incidents
    match:
      event: "incident.*"
      severity: { at_least: high }
    to: [receiver]
  - name: agents
    match: { event: "agent.*" }
    to: [receiver]
fallback: []
`;

export interface ConsoleDaemon {
  readonly daemon: TestDaemon;
  readonly receiver: HttpReceiver;
  /** `http://127.0.0.1:<admin port>` */
  readonly adminUrl: string;
  /** Scopes read, replay and silence. */
  readonly operatorKey: string;
  /** Scope read only. */
  readonly readerKey: string;
  /** Sends a signed event to the ingest listener; answers its id. */
  send(kind: string, data: Record<string, unknown>): Promise<string>;
  /** Stops the daemon and starts it again on the same journal and admin port, as a restart does. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A real daemon (SQLite journal in `dir`) with the built console on its admin listener and a local receiver. */
export async function startConsoleDaemon(dir: string, consoleDir: string): Promise<ConsoleDaemon> {
  const operator = newApiKey();
  const reader = newApiKey();
  const receiver = await startHttpReceiver();
  const launch = (adminPort: number) =>
    startTestDaemon(dir, {
      rules: CONSOLE_RULES,
      env: { RECEIVER_URL: receiver.url },
      consoleDir,
      config: `admin:
  listen: { port: ${adminPort} }
  keys:
    - { name: shift-lead, hash: "${operator.hash}", scopes: [read, replay, silence] }
    - { name: wallboard, hash: "${reader.hash}", scopes: [read] }`,
    });
  let daemon = await launch(0);
  let sent = 0;
  return {
    get daemon() {
      return daemon;
    },
    receiver,
    adminUrl: `http://127.0.0.1:${daemon.running.adminPort}`,
    operatorKey: operator.key,
    readerKey: reader.key,
    async send(kind, data) {
      sent += 1;
      const timestamp = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const body = envelope(kind, { ...data, seq: sent }, timestamp);
      const answer = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
      if (answer.status !== 200) throw new Error(`ingest answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return String(answer.body.id);
    },
    async restart() {
      const adminPort = daemon.running.adminPort ?? 0;
      await daemon.running.close();
      daemon = await launch(adminPort);
    },
    async close() {
      await daemon.running.close();
      await receiver.close();
    },
  };
}
