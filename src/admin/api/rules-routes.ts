import type { RequestHandler, Router } from 'express';
import type { AdminApiDeps } from './admin-api-deps.js';
import { requestKey } from './create-admin-auth.js';
import { describeRules } from './describe-rules.js';
import { presentProblems } from './present-problems.js';

/** GET /api/v1/rules (read) and POST /api/v1/rules/reload (replay). */
export function addRulesRoutes(
  router: Router,
  deps: AdminApiDeps,
  scopes: { read: RequestHandler; replay: RequestHandler },
): void {
  router.get('/api/v1/rules', scopes.read, (_req, res) => {
    res.json(describeRules(deps.rules()));
  });

  router.post('/api/v1/rules/reload', scopes.replay, async (_req, res) => {
    const before = deps.rules().version;
    deps.log.info('rules reload requested through the admin API', { key: requestKey(res).name });
    const outcome = await deps.reloadRules();
    if (!outcome.ok) {
      // The same located problems `switchyard check` prints; messages never quote a target option's value.
      const problems = presentProblems(outcome.problems);
      res.status(422).json({
        error: {
          code: 'rules_invalid',
          message: `the rules file is invalid; the rules in force (version ${deps.rules().version}) stay`,
          problems,
        },
      });
      return;
    }
    const version = deps.rules().version;
    res.json({ reloaded: true, previousVersion: before, version });
  });
}
