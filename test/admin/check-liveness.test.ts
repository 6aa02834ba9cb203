import { describe, expect, it } from 'vitest';
import { checkLiveness } from '../../src/admin/check-liveness.js';

const JOURNAL = 'the journal thread died; only a restart reopens the journal';
const WORKER = 'the delivery worker thread died; only a restart resumes deliveries';
// What the sources say when their thread died: details /healthz must not give out (it takes no credential).
const journalDied = () => 'the event journal is unavailable: its thread exited with code 1';
const workerDied = () => 'the delivery worker thread exited with code 1: /srv/switchyard/x; deliveries wait';
const running = () => null;

describe('checkLiveness (/healthz)', () => {
  it('is alive without threads, and while each thread runs', () => {
    expect(checkLiveness({})).toBeNull();
    expect(checkLiveness({ journalThreadFailure: running, deliveryWorkerFailure: running })).toBeNull();
  });

  it('asks for a restart, with a fixed reason, once either thread died', () => {
    expect(checkLiveness({ journalThreadFailure: journalDied })).toBe(JOURNAL);
    expect(checkLiveness({ journalThreadFailure: journalDied, deliveryWorkerFailure: running })).toBe(JOURNAL);
    expect(checkLiveness({ deliveryWorkerFailure: workerDied })).toBe(WORKER);
    expect(checkLiveness({ journalThreadFailure: running, deliveryWorkerFailure: workerDied })).toBe(WORKER);
  });

  it('names the journal’s when both died: without it nothing is ingested, and one restart recovers both', () => {
    expect(checkLiveness({ journalThreadFailure: journalDied, deliveryWorkerFailure: workerDied })).toBe(JOURNAL);
  });
});
