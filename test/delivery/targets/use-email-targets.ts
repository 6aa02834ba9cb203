import { afterEach } from 'vitest';
import type { Logger } from '../../../src/log/logger.js';
import type { EmailTargetSpec } from '../../../src/rules/rules.js';
import type { Target, TargetDeps } from '../../../src/delivery/target.js';
import { createEmailTarget } from '../../../src/delivery/targets/email-target.js';
import {
  startSmtpServer,
  type RunningSmtpServer,
  type StartSmtpServerOptions,
} from '../../helpers/start-smtp-server.js';

const silentLog: Logger = { error() {}, warn() {}, info() {}, debug() {}, addSecrets() {} };

/** Starts SMTP servers and e-mail targets for one test file; everything is closed after each test. */
export function useEmailTargets(): {
  server(options?: StartSmtpServerOptions): Promise<RunningSmtpServer>;
  target(spec: EmailTargetSpec, deps?: Partial<TargetDeps>): Target;
} {
  const servers: RunningSmtpServer[] = [];
  const targets: Target[] = [];
  afterEach(async () => {
    await Promise.all(targets.splice(0).map((target) => target.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return {
    async server(options) {
      const server = await startSmtpServer(options);
      servers.push(server);
      return server;
    },
    target(spec, deps = {}) {
      const target = createEmailTarget(spec, { log: silentLog, ...deps });
      targets.push(target);
      return target;
    },
  };
}

export const never = (): AbortSignal => new AbortController().signal;
