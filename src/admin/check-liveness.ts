/** What /healthz reads: what this process cannot recover from without a restart. */
export interface LivenessSources {
  /** With `store.sqlite.thread`: why the journal's thread is not running (it died), or null while it runs. */
  readonly journalThreadFailure?: () => string | null;
  /** With `delivery.worker_thread`: why its thread is not running (it died), or null while it runs. */
  readonly deliveryWorkerFailure?: () => string | null;
}

/**
 * Why the process should be restarted, in a short fixed sentence (answered without a credential, so nothing
 * of the deployment), or null while it is alive. Neither a dead journal thread (create-thread-store.ts) nor a
 * dead delivery worker (create-engine-worker.ts) is started again in the process, so only a restart gets the
 * journal, or the deliveries, back: liveness failing is what asks the orchestrator for one. The journal's
 * comes first when both died: without it nothing is ingested, and the one restart recovers both (/readyz
 * names each). Everything that recovers by itself (the journal unreachable, a failed commit) is readiness'
 * business instead (check-readiness.ts), where a restart would only add an outage.
 */
export function checkLiveness(sources: LivenessSources): string | null {
  if ((sources.journalThreadFailure?.() ?? null) !== null) {
    return 'the journal thread died; only a restart reopens the journal';
  }
  const workerFailure = sources.deliveryWorkerFailure?.() ?? null;
  return workerFailure === null ? null : 'the delivery worker thread died; only a restart resumes deliveries';
}
