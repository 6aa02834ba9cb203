/**
 * Which of the engine's lanes a pass serves. Polling every target after every ingest commit cost a claim (or a
 * `nextDueAt`) per idle target per commit: a target whose deliveries are all held back (grouped into digests,
 * silenced) was asked again and again for nothing. So a pass serves only the lanes woken by name (a commit
 * that queued sendable deliveries for them, a finished attempt), the lanes whose own next time has come (a
 * retry, a token, a circuit's probe, a batch not yet claimed), and every lane once per poll interval: the full
 * pass finds what nothing here announced (a replay from the CLI, another instance's deliveries on PostgreSQL,
 * a digest queued by another instance). A wake without names marks every lane.
 */
export interface LaneAgenda {
  /** Marks these lanes, or without names every lane, to be served at the next pass. */
  mark(names?: Iterable<string>): void;
  /** Marks every lane that has a time of its own (not the idle ones): a timer's pass, whatever the clock says. */
  markDue(): void;
  /**
   * The lanes among `names` (the engine's) to serve now, each with whether it was woken by name; clears the
   * marks taken, so a wake that arrives while the pass runs is served by the next one. Every lane when a full
   * pass is due or everything was marked.
   */
  take(names: Iterable<string>, now: number): { readonly lanes: readonly Due[]; readonly full: boolean };
  /** When the lane next needs a pass by itself: undefined = not until it is woken or the next full pass. */
  settle(name: string, dueAt: number | undefined): void;
  /** What the lane was last told (undefined: idle). */
  dueAt(name: string): number | undefined;
  forget(name: string): void;
  /** When the next pass is needed: now if something is marked, else the earliest lane's time or the full pass. */
  nextPassAt(now: number): number;
}

export interface Due {
  readonly name: string;
  readonly woken: boolean;
}

export function createLaneAgenda(pollIntervalMs: number): LaneAgenda {
  const due = new Map<string, number>();
  const marked = new Set<string>();
  let all = true;
  let fullAt = Number.NEGATIVE_INFINITY;
  return {
    mark(names) {
      if (names === undefined) all = true;
      else for (const name of names) marked.add(name);
    },
    markDue() {
      for (const name of due.keys()) marked.add(name);
    },
    take(names, now) {
      const full = all || now >= fullAt;
      if (full) {
        all = false;
        fullAt = now + pollIntervalMs;
      }
      const lanes: Due[] = [];
      for (const name of names) {
        const woken = marked.has(name);
        const at = due.get(name);
        if (full || woken || (at !== undefined && at <= now)) lanes.push({ name, woken });
      }
      marked.clear(); // names of no lane (yet) included: a reload's new lane is marked when it is built
      return { lanes, full };
    },
    settle(name, dueAt) {
      if (dueAt === undefined) due.delete(name);
      else due.set(name, dueAt);
    },
    dueAt: (name) => due.get(name),
    forget(name) {
      due.delete(name);
      marked.delete(name);
    },
    nextPassAt(now) {
      if (all || marked.size > 0) return now;
      let next = fullAt;
      for (const at of due.values()) next = Math.min(next, at);
      return next;
    },
  };
}
