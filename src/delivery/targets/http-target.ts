import type { HttpTargetSpec } from '../../rules/rules.js';
import { classifyHttpStatus } from '../classify-http-status.js';
import type { Target, TargetDeps } from '../target.js';
import { buildHttpAttempt } from './build-http-attempt.js';
import { createHttpPostTarget } from './http-post-target.js';
import { readTrustedCa } from './read-trusted-ca.js';

/**
 * A ticketing system or any HTTP endpoint: one request per event, or one per situation of an incident's
 * lifecycle (build-http-attempt.ts). Every failure becomes an outcome; messages never quote the URL (its query
 * may carry a token) or header values. Throws when its `ca` file cannot be read (the target is not set up).
 */
export function createHttpTarget(spec: HttpTargetSpec, deps: TargetDeps): Target {
  return createHttpPostTarget(
    {
      policy: spec.policy,
      allowLinkLocal: spec.allowLinkLocal,
      url: spec.url,
      urlName: 'the target URL',
      method: spec.method,
      build: (job) => buildHttpAttempt(spec, job),
      built: 'the request',
      classify: (status, excerpt, retryAfterMs) => classifyHttpStatus(status, retryAfterMs, excerpt),
      ca: readTrustedCa(spec.ca),
      caOption: 'ca',
    },
    deps,
  );
}
