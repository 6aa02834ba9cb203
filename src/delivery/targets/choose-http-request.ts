import type { Situation } from '../../lifecycle/choose-situation.js';
import type { HttpRequestSpec, HttpTargetSpec } from '../../rules/rules.js';

export interface ChosenRequest {
  /** The request's name in `requests:` (`update` for a resolve without its own request); templates see the situation. */
  readonly name: Situation;
  /** Null when the target has no request for the situation: nothing is sent. */
  readonly request: HttpRequestSpec | null;
}

/**
 * The request an HTTP target makes in a situation. Without `requests:` it is the target's one request. With
 * them, a missing `resolve` falls back to `update` (the resolution is posted like any other change), and a
 * missing `update` means later events are not sent: falling back to `create` would open a ticket per event,
 * which is what `requests:` exists to prevent.
 */
export function chooseHttpRequest(spec: HttpTargetSpec, situation: Situation): ChosenRequest {
  const requests = spec.requests;
  if (requests === undefined || requests === null) {
    const { url, method, body } = spec;
    return { name: situation, request: { url, method, body, urlTemplate: spec.urlTemplate ?? null, capture: [] } };
  }
  if (situation === 'create') return { name: situation, request: requests.create };
  if (situation === 'resolve' && requests.resolve !== null) return { name: situation, request: requests.resolve };
  return { name: 'update', request: requests.update };
}
