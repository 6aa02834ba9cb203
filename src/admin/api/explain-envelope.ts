import type { Envelope } from '../../ingest/envelope.js';
import { explainRequests, keyedDeliveries } from '../../lifecycle/explain-requests.js';
import { readKeyHistory } from '../../lifecycle/read-key-history.js';
import { defaultCorrelationKey } from '../../lifecycle/default-correlation-key.js';
import { followCandidates } from '../../lifecycle/follow-candidates.js';
import { readReachedTargets } from '../../lifecycle/read-reached-targets.js';
import { explainSilence } from '../../noise/explain-silence.js';
import { explainRoute } from '../../rules/explain-route.js';
import type { CompiledRules } from '../../rules/rules.js';
import type { Store } from '../../store/store.js';

/**
 * How `rules` route `envelope` at `now`, as POST /route-test answers it: the decision, each route's step, the
 * targets an update or resolve follows its incident to (those the journal says it reached), the request each
 * keyed delivery would use (from its key's references in the journal) and the silence that would hold it. Shared by the route tester, an event's page (the rules in force) and the rules check (candidate
 * rules). Target names only, never a target's options, so no secret of the rules can appear.
 */
export async function explainEnvelope(store: Store, rules: CompiledRules, envelope: Envelope, now: number) {
  const { steps, ...decision } = explainRoute(rules, envelope, now);
  const silences = await store.findSilences({ activeAt: now });
  const key = defaultCorrelationKey(envelope.event, envelope.data);
  const mayFollow = followCandidates(rules, envelope, decision.targets);
  const reached =
    key === null || mayFollow.length === 0
      ? new Map<string, string | undefined>()
      : await readReachedTargets(store, rules, key);
  const followed = followCandidates(rules, envelope, decision.targets, reached.keys(), reached);
  const sent = [...decision.targets, ...followed.map((f) => f.target)];
  const silencedBy = sent.length === 0 ? null : explainSilence(silences, rules, envelope, now);
  const keyed = keyedDeliveries(rules, envelope, sent);
  const requests = explainRequests(envelope.event, keyed, await readKeyHistory(store, keyed));
  const { version } = rules;
  return { rules: { version }, event: envelope.event, ...decision, routes: steps, followed, requests, silencedBy };
}
