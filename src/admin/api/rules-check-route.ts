import type { RequestHandler, Router } from 'express';
import { validateEnvelope } from '../../ingest/parse-envelope.js';
import type { RulesLoadResult } from '../../rules/rules.js';
import { createSecretMask } from '../../secrets/secret-mask.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { explainEnvelope } from './explain-envelope.js';

/**
 * POST /api/v1/rules/check {"rules": "<YAML>", "event"?: {...}}: `switchyard check` on text, with where the
 * event would go under those rules. The rules in force and their file are never touched. Problems are located
 * (line, column) as `check` prints them and never quote a target option's value. A `${VAR}` in the pasted text
 * is checked but never replaced by its value (candidateRulesCompiler), so a read-scoped key cannot read the
 * environment by pasting rules that mention it; as a second lock, the secrets of the rules in force are masked.
 */
export function addRulesCheckRoute(
  router: Router,
  deps: AdminApiDeps,
  read: RequestHandler,
  json: RequestHandler,
): void {
  router.post('/api/v1/rules/check', read, json, async (req, res) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    if (typeof body.rules !== 'string') throw invalid('rules: send the rules as YAML text in a string');
    if (deps.checkRules === undefined) {
      throw new SwitchyardError('not_available', 'rules check is not available here', { status: 404 });
    }
    const event = body.event === undefined || body.event === null ? undefined : validateEnvelope(body.event);
    const result: RulesLoadResult = deps.checkRules(body.rules);
    const problems = (result.ok ? result.warnings : result.problems).map(
      ({ severity, code, message, line, column }) => ({ severity, code, message, line, column }),
    );
    const routing =
      result.ok && event !== undefined
        ? await explainEnvelope(deps.store, result.rules, event, deps.clock.now())
        : null;
    const answer = { valid: result.ok, problems, version: result.ok ? result.rules.version : null, routing };
    const mask = createSecretMask(deps.rules().secrets, (form) => JSON.stringify(form).slice(1, -1));
    res.type('application/json').send(mask.mask(JSON.stringify(answer)));
  });
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_request', message, { status: 400 });
}
