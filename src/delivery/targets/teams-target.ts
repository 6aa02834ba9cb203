import type { TeamsTargetSpec } from '../../rules/rules.js';
import { classifyTeamsAnswer } from '../classify-teams-answer.js';
import type { Target, TargetDeps } from '../target.js';
import { buildTeamsMessage } from './build-teams-message.js';
import { createHttpPostTarget } from './http-post-target.js';

/**
 * A Microsoft Teams channel, through a Workflows webhook (the Office 365 connectors are retired). The
 * webhook URL is itself the secret (its `sig` query signs the calls): it never appears in an outcome.
 */
export function createTeamsTarget(spec: TeamsTargetSpec, deps: TargetDeps): Target {
  return createHttpPostTarget(
    {
      policy: spec.policy,
      allowLinkLocal: spec.allowLinkLocal,
      url: spec.webhookUrl,
      urlName: 'the webhook URL',
      method: 'POST',
      build: (job) => ({
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(buildTeamsMessage(spec, job))),
      }),
      built: 'the Teams message',
      classify: classifyTeamsAnswer,
    },
    deps,
  );
}
