import type { PagerdutyTargetSpec } from '../../rules/rules.js';
import { classifyPagerdutyAnswer } from '../classify-pagerduty-answer.js';
import type { Target, TargetDeps } from '../target.js';
import { buildPagerdutyEvent } from './build-pagerduty-event.js';
import { createHttpPostTarget } from './http-post-target.js';

const HEADERS = { 'content-type': 'application/json', 'user-agent': 'switchyard' };

/**
 * PagerDuty's Events API v2: one POST to `<base_url>/v2/enqueue` per delivery, through our sender (address
 * guard, keep-alive, timeout). The routing key travels in the body only; no message quotes the request.
 */
export function createPagerdutyTarget(spec: PagerdutyTargetSpec, deps: TargetDeps): Target {
  return createHttpPostTarget(
    {
      policy: spec.policy,
      allowLinkLocal: spec.allowLinkLocal,
      url: `${spec.baseUrl}/v2/enqueue`,
      urlName: 'base_url',
      method: 'POST',
      build: (job) => ({ headers: HEADERS, body: Buffer.from(JSON.stringify(buildPagerdutyEvent(spec, job)), 'utf8') }),
      built: 'the PagerDuty event',
      classify: classifyPagerdutyAnswer,
    },
    deps,
  );
}
