/** Runs a task once the current turn of the event loop has finished its I/O callbacks and their ticks. */
export type AtTurnEnd = (task: () => void) => void;

/**
 * One queue of such tasks, run from one setImmediate per turn however many were added. For work that most
 * callers no longer need by then, like a request body's timer (read-body.ts): a webhook's body usually arrives
 * with its headers and has ended before the turn does, so its timer is never set.
 */
export function createTurnEnd(): AtTurnEnd {
  let tasks: (() => void)[] = [];
  const runTasks = (): void => {
    const due = tasks;
    tasks = [];
    for (const task of due) task();
  };
  return (task) => {
    if (tasks.push(task) === 1) setImmediate(runTasks);
  };
}
