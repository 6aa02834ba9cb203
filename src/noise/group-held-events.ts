/** An event a silence would have held, with the targets its deliveries went to (none: routed nowhere). */
export interface HeldEvent {
  readonly id: string;
  readonly kind: string;
  readonly targets: readonly string[];
}

export interface HeldGroup {
  readonly kind: string;
  /** Null for events routed nowhere: the silence would have matched them but had nothing to hold. */
  readonly target: string | null;
  readonly events: number;
  /** The first few event ids, in the order given (newest first in a preview). */
  readonly examples: readonly string[];
}

/**
 * Groups the events a silence would have held by kind and target, most events first (then by kind and
 * target, so the order is stable). An event sent to two targets counts in both groups.
 */
export function groupHeldEvents(events: readonly HeldEvent[], examplesPerGroup = 3): HeldGroup[] {
  const groups = new Map<string, { kind: string; target: string | null; events: number; examples: string[] }>();
  for (const event of events) {
    const targets = event.targets.length === 0 ? [null] : [...new Set(event.targets)];
    for (const target of targets) {
      const key = JSON.stringify([event.kind, target]);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { kind: event.kind, target, events: 0, examples: [] }));
      group.events += 1;
      if (group.examples.length < examplesPerGroup) group.examples.push(event.id);
    }
  }
  return [...groups.values()].sort(
    (a, b) => b.events - a.events || a.kind.localeCompare(b.kind) || (a.target ?? '').localeCompare(b.target ?? ''),
  );
}
