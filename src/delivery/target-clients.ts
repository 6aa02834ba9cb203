import type { Logger } from '../log/logger.js';
import type { TargetSpec } from '../rules/rules.js';
import type { Target } from './target.js';

export interface TargetClients {
  /**
   * A client for `spec`, or undefined when it cannot be built: one target that cannot be set up must not stop
   * the others (its deliveries wait in the journal); logged once per spec.
   */
  build(spec: TargetSpec): Promise<Target | undefined>;
  /** An attempt starts on `target`. */
  use(target: Target): void;
  /** An attempt on `target` ended; a retired client is closed when its last attempt ends. */
  release(target: Target): void;
  /** `target` is replaced (rules reload) or removed: closed now if idle, else once its attempts end. */
  retire(target: Target): void;
  /** Shutdown: closes these and every retired client. */
  closeAll(targets: Iterable<Target>): void;
}

/**
 * Target clients (HTTP agents, SMTP pools), built from the rules and counted by the attempts using them, so that
 * a reload never closes a connection an attempt still needs, and nothing is closed twice.
 */
export function createTargetClients(
  log: Logger,
  createTarget: (spec: TargetSpec) => Target | Promise<Target>,
): TargetClients {
  const broken = new WeakSet<TargetSpec>();
  const users = new Map<Target, number>();
  const retired = new Set<Target>();
  const close = (target: Target): void => {
    target.close().catch((error: unknown) => log.warn('closing a delivery target failed', { error: String(error) }));
  };
  return {
    async build(spec) {
      try {
        return await createTarget(spec);
      } catch (error) {
        if (!broken.has(spec))
          log.error('delivery target cannot be set up', { target: spec.name, error: String(error) });
        broken.add(spec);
        return undefined;
      }
    },
    use(target) {
      users.set(target, (users.get(target) ?? 0) + 1);
    },
    release(target) {
      const left = (users.get(target) ?? 1) - 1;
      if (left > 0) users.set(target, left);
      else {
        users.delete(target);
        if (retired.delete(target)) close(target);
      }
    },
    retire(target) {
      if ((users.get(target) ?? 0) === 0) close(target);
      else retired.add(target);
    },
    closeAll(targets) {
      for (const target of targets) close(target);
      for (const target of retired) close(target);
      retired.clear();
    },
  };
}
