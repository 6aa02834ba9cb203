import { performance } from 'node:perf_hooks';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';

/** The daemons a load balancer currently sends to; round robin, and callers wait while it is empty. */
export class LivePool {
  private urls: string[] = [];
  private turn = 0;
  private waiters: (() => void)[] = [];
  add(url: string): void {
    this.urls.push(url);
    for (const wake of this.waiters.splice(0)) wake();
  }
  remove(url: string): void {
    this.urls = this.urls.filter((u) => u !== url);
  }
  async next(): Promise<string> {
    while (this.urls.length === 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.urls[this.turn++ % this.urls.length] as string;
  }
}

/** One webhook request of a burst: what it was answered (or 'network-error'), and when (performance.now). */
export interface BurstAnswer {
  readonly incident: string;
  /** The daemon asked. */
  readonly url: string;
  readonly status: number | 'network-error';
  readonly code: string | undefined;
  readonly sentAt: number;
  readonly answeredAt: number;
}

export interface BurstResult {
  /** Incident ids whose webhook got a 200. */
  readonly acked: string[];
  readonly answers: BurstAnswer[];
}

export const incidentBody = (incident: string): string =>
  envelope('incident.created', { incident_id: incident, title: `crash test ${incident}` });

/**
 * Sends `count` distinct signed webhooks, `parallel` at a time, through the pool. `onAck(n)` runs (not awaited)
 * after the n-th 200, to kill or restart something mid-burst. With `retry503`, a 503 is sent again after that
 * many ms (as the monitoring service redelivers), until `deadline` (performance.now) passes.
 */
export async function runBurst(options: {
  pool: LivePool;
  count: number;
  parallel: number;
  prefix: string;
  onAck?: (acked: number) => void;
  /** Awaited before the webhook number `index` is sent (to hold the rest of the burst until a restart is done). */
  before?: (index: number) => Promise<void> | void;
  retry503?: { delayMs: number; deadline: number };
}): Promise<BurstResult> {
  const acked: string[] = [];
  const answers: BurstAnswer[] = [];
  let nextIndex = 0;
  const sendOne = async (incident: string): Promise<void> => {
    for (;;) {
      const url = await options.pool.next();
      const sentAt = performance.now();
      let status: number | 'network-error' = 'network-error';
      let code: string | undefined;
      try {
        const answer = await postWebhook(url, incidentBody(incident), { secret: SOURCE_SECRET });
        status = answer.status;
        code = (answer.body.error as { code?: string } | undefined)?.code;
      } catch {
        // Connection refused or reset: the daemon died under this request. Either outcome is allowed.
      }
      answers.push({ incident, url, status, code, sentAt, answeredAt: performance.now() });
      if (status === 200) {
        acked.push(incident);
        options.onAck?.(acked.length);
        return;
      }
      const retry = options.retry503;
      if (status !== 503 || retry === undefined || performance.now() > retry.deadline) return;
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs));
    }
  };
  const worker = async (): Promise<void> => {
    while (nextIndex < options.count) {
      const index = nextIndex++;
      await options.before?.(index);
      await sendOne(`${options.prefix}_${index}`);
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, worker));
  return { acked, answers };
}
