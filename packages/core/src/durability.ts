/** A JSON value: what a journaled step returns and what a signal carries. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/**
 * Where a run's work is journaled so that the run can outlive its process. Every model call and
 * every tool call of a run is a `step`; every approval is a signal. The default keeps the
 * journal in memory (and in the `RunState` a run that stops for an approval returns);
 * `@junction/dbos` and `@junction/restate` keep it in a durable engine, where a run that is
 * replayed after a crash gets every finished step's result back without running it again.
 */
export interface Durability {
  /** The run's id: with a step's key it makes the step's idempotency key (`${runId}:${key}`). */
  readonly runId: string;
  /**
   * Runs `run` once for `key` in this run and journals its result; a replay of the run gets the
   * journaled result without calling `run`. Keys are unique within a run and stable across
   * replays: `model:3` for the model call of step 3, `tool:3:<callId>` for a tool call.
   */
  step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T>;
  /**
   * Waits for the signal `name` (an approval: `approval:<callId>`), at most `timeoutMs`
   * (omitted: as long as the engine allows). Resolves with the signal's value, or `undefined`
   * when it did not come in time.
   */
  waitForSignal<T extends JSONValue>(name: string, options?: { timeoutMs?: number }): Promise<T | undefined>;
}

/** The idempotency key of a step: the same in every replay of the run, unique across runs. */
export function idempotencyKey(durability: Pick<Durability, "runId">, key: string): string {
  return `${durability.runId}:${key}`;
}
