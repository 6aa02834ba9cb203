import type { LookupFunction } from 'node:net';
import { afterEach } from 'vitest';
import type { Target, TargetDeps } from '../../../src/delivery/target.js';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/start-http-receiver.js';
import { quietLog } from './make-target-spec.js';

/**
 * Receivers and targets of one HTTP-based type (`create`, with specs from `makeSpec`) for one test file;
 * everything is closed after each test.
 */
export function useHttpTargets<Spec>(
  create: (spec: Spec, deps: TargetDeps) => Target,
  makeSpec: (overrides: Partial<Spec>) => Spec,
): {
  /** A started receiver (a plain `startHttpReceiver()` unless `start` is given). */
  receiver(start?: () => Promise<HttpReceiver>): Promise<HttpReceiver>;
  target(spec: Partial<Spec>, lookup?: LookupFunction): Target;
} {
  const targets: Target[] = [];
  const receivers: HttpReceiver[] = [];
  afterEach(async () => {
    for (const target of targets.splice(0)) await target.close();
    for (const receiver of receivers.splice(0)) await receiver.close();
  });
  return {
    async receiver(start = () => startHttpReceiver()) {
      const started = await start();
      receivers.push(started);
      return started;
    },
    target(spec, lookup) {
      const made = create(makeSpec(spec), { log: quietLog, lookup });
      targets.push(made);
      return made;
    },
  };
}

export const signal = (): AbortSignal => new AbortController().signal;

/** A DNS answer for every name: the cloud metadata address, which the address guard must refuse. */
export const resolvesToMetadata: LookupFunction = (_hostname, options, callback) =>
  options.all ? callback(null, [{ address: '169.254.169.254', family: 4 }]) : callback(null, '169.254.169.254', 4);
