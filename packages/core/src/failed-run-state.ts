import type { RunState } from "./run-state.js";

/** Where a failed run's state rides on its error: a registered symbol, so every copy of core reads it. */
const RUN_STATE = Symbol.for("junction.failed-run-state");

/**
 * The state a failed run can go on from, as its error carries it, or `undefined`. A run fails
 * with one when it had something a new run would lose: a resumed run always (its state was
 * claimed when it began, so it cannot be resumed again; this one is claimed apart from it), a
 * new run once one of its calls finished. Resume it as any stopped state:
 * `agent.resume({ state: runStateOf(error)!, decisions })`. Finished calls are not run again;
 * a call that was waiting for a person, or was decided but had not finished, waits for a
 * decision again.
 */
export function runStateOf(error: unknown): RunState | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  return (error as { [RUN_STATE]?: RunState })[RUN_STATE];
}

/** `error` with `state` attached, for {@link runStateOf} (not enumerable: logging the error does not print the state). */
export function withRunState<E>(error: E, state: RunState | undefined): E {
  if (state && typeof error === "object" && error !== null && Object.isExtensible(error)) {
    Object.defineProperty(error, RUN_STATE, { value: state, configurable: true });
  }
  return error;
}
