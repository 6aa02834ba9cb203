/** What /healthz reads: what this process cannot recover from without a restart. */
export interface LivenessSources {
  /** With `delivery.worker_thread`: why its thread is not running (it died), or null while it runs. */
  readonly deliveryWorkerFailure?: () => string | null;
}

/**
 * Why the process should be restarted, in a short fixed sentence (answered without a credential, so nothing
 * of the deployment), or null while it is alive. A dead delivery worker is not restarted in the process
 * (create-engine-worker.ts), so only a restart resumes deliveries: liveness failing is what asks the
 * orchestrator for one. Everything that recovers by itself (the journal unreachable, a failed commit) is
 * readiness' business instead (check-readiness.ts), where a restart would only add an outage.
 */
export function checkLiveness(sources: LivenessSources): string | null {
  const workerFailure = sources.deliveryWorkerFailure?.() ?? null;
  return workerFailure === null ? null : 'the delivery worker thread died; only a restart resumes deliveries';
}
