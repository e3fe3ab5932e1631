import type { JSONValue } from "@junction/core";

/**
 * What a signal travels in as a DBOS message. `DBOS.recv` answers `null` when the wait times
 * out, so a signal whose value is `null` needs a wrapper to be told apart from no signal.
 */
export interface SignalEnvelope {
  readonly junctionSignal: 1;
  readonly value: JSONValue;
}

/** Wraps a signal's value for `DBOS.send`. */
export function toSignalEnvelope(value: JSONValue): SignalEnvelope {
  return { junctionSignal: 1, value };
}

/** True for a message `toSignalEnvelope` made; anything else on the topic is not a Junction signal. */
export function isSignalEnvelope(message: unknown): message is SignalEnvelope {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { junctionSignal?: unknown }).junctionSignal === 1 &&
    "value" in message
  );
}
