/**
 * Which request of a target's lifecycle a delivery makes (issue 14): `create` for the first event of a
 * correlation key (nothing delivered for it yet, or the last incident of that key was resolved), `resolve` for
 * an event that ends the situation, `update` otherwise. Shared by the targets, `switchyard route` and `test`.
 */
export type Situation = 'create' | 'update' | 'resolve';

/** Event kinds that close what the earlier events of their key opened. */
export const RESOLVING_KINDS: ReadonlySet<string> = new Set(['incident.resolved', 'agent.online']);

export function chooseSituation(kind: string, references: Readonly<Record<string, string>> | null): Situation {
  if (RESOLVING_KINDS.has(kind)) return 'resolve';
  return references === null ? 'create' : 'update';
}
