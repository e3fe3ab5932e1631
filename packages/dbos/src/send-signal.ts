import type { JSONValue } from "@junction/core";
import { toSignalEnvelope } from "./signal-envelope.js";

/**
 * What can send a DBOS message: a `DBOSClient` (from any process, with only the system
 * database's URL) or the `DBOS` class itself (in a process that launched DBOS).
 */
export interface DBOSMessageSender {
  send(destinationID: string, message: unknown, topic?: string, idempotencyKey?: string): Promise<void>;
}

/** Options of {@link sendSignal}. */
export interface SendSignalOptions {
  /** `DBOSClient.create({ systemDatabaseUrl })` from any process, or `DBOS` where it is launched. */
  readonly sender: DBOSMessageSender;
  /** The run's id: the DBOS workflow id the run was started with. */
  readonly runId: string;
  /**
   * The signal's name: an Agent's approval waits for `approval:<step>:<callId>` (answer it with
   * `answerApproval` and an item of `pendingApprovals`, which names it and binds the answer to
   * the call as listed: an approval sent here without the call's digests is taken as a denial,
   * with a `run-state-mismatch` warning); a function of your own names its own signals.
   */
  readonly name: string;
  /** The signal's value, for example `{ approved: true }`. */
  readonly value: JSONValue;
  /**
   * Makes the send itself exactly-once: DBOS drops a second send with the same key. Useful when
   * the caller retries after an error it cannot tell from a lost answer.
   * @default none: every send is a message; the run takes the first one for each wait.
   */
  readonly idempotencyKey?: string;
}

/**
 * Sends the signal `name` with `value` to the run `runId`, from any process: the value is
 * stored in the system database, so it is there for the run whether the run's worker is
 * running, waiting, or down and recovered later. A signal sent before the run waits for it
 * is kept until it does. DBOS refuses a signal for a run that was never started.
 *
 * @example
 * ```ts
 * const client = await DBOSClient.create({ systemDatabaseUrl: process.env.DBOS_SYSTEM_DATABASE_URL! });
 * await sendSignal({ sender: client, runId: "run-42", name: "approval:1:call_1", value: { approved: true } });
 * await client.destroy();
 * ```
 */
export async function sendSignal(options: SendSignalOptions): Promise<void> {
  await options.sender.send(
    options.runId,
    toSignalEnvelope(options.value),
    options.name,
    options.idempotencyKey,
  );
}
