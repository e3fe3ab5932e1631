/**
 * Wakes the polling of a 2025-11-25 task early when the server tells of a change of its status
 * (`notifications/tasks/status`, optional in the spec: polling stays the rule, a notification
 * only shortens the wait). One per SDK client (a session).
 */
export class TaskStatusSignals {
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Tasks told of while nobody waited (a change during a `tasks/get` in flight): the next wait ends at once. */
  readonly #told = new Set<string>();

  /** The server told of a change of the task `taskId`. */
  changed(taskId: string): void {
    const waiters = this.#waiters.get(taskId);
    if (!waiters || waiters.size === 0) {
      this.#told.add(taskId);
      return;
    }
    for (const wake of [...waiters]) wake();
  }

  /** Waits `ms`, or less if the server tells of a change of the task; rejects when `signal` aborts. */
  wait(taskId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      if (this.#told.delete(taskId)) {
        resolve();
        return;
      }
      const waiters = this.#waiters.get(taskId) ?? new Set<() => void>();
      this.#waiters.set(taskId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        waiters.delete(wake);
        if (waiters.size === 0 && this.#waiters.get(taskId) === waiters) this.#waiters.delete(taskId);
      };
      const wake = () => {
        done();
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Forgets what was told of the task (its polling ended). */
  forget(taskId: string): void {
    this.#told.delete(taskId);
  }
}
