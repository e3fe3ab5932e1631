import { JunctionError } from "@junction/types";
import type { PendingToolCall } from "./pending-tool-call.js";

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
   * `true` where the engine matches a replay's operations by the order they started (DBOS and
   * Restate do). The run then starts them in a fixed order: no tool call before its model step
   * is journaled, then the step's policy answers one by one, its approval waits, and its calls,
   * each in the model's order. Otherwise (the default) each call starts as soon as the model has
   * streamed it.
   */
  readonly ordered?: boolean;
  /**
   * Runs `run` once for `key` in this run and journals its result; a replay of the run gets the
   * journaled result without calling `run`. Keys are unique within a run and stable across
   * replays: `model:3` for the model call of step 3, `tool:3:<callId>` for a tool call,
   * `gate:3:<callId>` for the approval policy's answer, `tools:3` for the tools offered.
   *
   * The run loop's bodies do not throw: a failure is their result, `{ failed: StepFailure }`,
   * which the loop throws again (rebuilt as the same error class) on the first run and on every
   * replay. A body whose run was aborted never settles, so the port journals nothing for it and
   * a replay runs it again; the run goes on failing without waiting for it. A `run` of other
   * code may throw: journal the failure as the engine does (or not at all).
   */
  step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T>;
  /**
   * Waits for the signal `name` (an approval: `approval:3:<callId>`), at most `timeoutMs`
   * (omitted: as long as the engine allows). Resolves with the signal's value, or `undefined`
   * when it did not come in time.
   */
  waitForSignal<T extends JSONValue>(name: string, options?: { timeoutMs?: number }): Promise<T | undefined>;
  /**
   * A signal already received, without waiting: so a replayed question is not shown again.
   * Omitted where the engine cannot tell without a journaled wait.
   */
  receivedSignal?(name: string): JSONValue | undefined;
  /**
   * Delivers a signal from inside this process (a `tool-approval-request` event's `approve()`).
   * Omitted where signals only come from outside (the engine's client).
   */
  deliverSignal?(name: string, value: JSONValue): void;
  /**
   * Publishes the calls of a step that wait for a person, as data any process can read (an
   * inbox): on an ordered port the run calls it with the step's full list once all of the step's
   * approval waits are known and before it waits, and with `[]` once they are all answered (or
   * timed out). It is called at the same point on every replay, so an engine may journal it as
   * one of the run's operations (DBOS: `DBOS.setEvent`; Restate: workflow state).
   */
  publishPending?(pending: PendingToolCall[]): Promise<void>;
}

/** The idempotency key of a step: the same in every replay of the run, unique across runs. */
export function idempotencyKey(durability: Pick<Durability, "runId">, key: string): string {
  return `${durability.runId}:${key}`;
}

/**
 * The default port: the journal is a plain object in memory, which is what a `RunState` carries
 * across processes. Signals are delivered in process (`deliverSignal`) or given up front (a
 * resume's decisions); a signal that has not come when its wait times out leaves the run to end
 * with `approval-required`.
 */
export class InMemoryDurability implements Durability {
  readonly runId: string;
  /** Finished steps and received signals (`signal:<name>`), by key: plain JSON. */
  readonly journal: Record<string, JSONValue>;
  readonly #waiters = new Map<string, (value: JSONValue) => void>();

  readonly #onEntry: ((key: string, value: JSONValue) => void | Promise<void>) | undefined;

  constructor(
    options: {
      runId?: string;
      journal?: Record<string, JSONValue>;
      /**
       * Told every entry the moment it is written (a finished step, a received signal), to
       * persist it: a step's result is returned only once this settles. A signal's is not waited for.
       */
      onEntry?: (key: string, value: JSONValue) => void | Promise<void>;
    } = {},
  ) {
    this.runId = options.runId ?? globalThis.crypto.randomUUID();
    this.journal = { ...options.journal };
    this.#onEntry = options.onEntry;
  }

  async step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T> {
    if (Object.hasOwn(this.journal, key)) return this.journal[key] as T;
    const value = toJSON(await run(), key);
    this.journal[key] = value;
    if (this.#onEntry) await this.#onEntry(key, value);
    return value;
  }

  waitForSignal<T extends JSONValue>(
    name: string,
    options: { timeoutMs?: number } = {},
  ): Promise<T | undefined> {
    const key = signalKey(name);
    if (Object.hasOwn(this.journal, key)) return Promise.resolve(this.journal[key] as T);
    const timeoutMs = options.timeoutMs ?? Number.POSITIVE_INFINITY;
    if (timeoutMs <= 0) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve) => {
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            this.#waiters.delete(name);
            resolve(undefined);
          }, timeoutMs)
        : undefined;
      this.#waiters.set(name, (value) => {
        if (timer) clearTimeout(timer);
        resolve(value as T);
      });
    });
  }

  receivedSignal(name: string): JSONValue | undefined {
    const key = signalKey(name);
    return Object.hasOwn(this.journal, key) ? this.journal[key] : undefined;
  }

  deliverSignal(name: string, value: JSONValue): void {
    const key = signalKey(name);
    // The first answer counts; a second approve() or deny() changes nothing.
    if (Object.hasOwn(this.journal, key)) return;
    this.journal[key] = value;
    void Promise.resolve()
      .then(() => this.#onEntry?.(key, value))
      // A failed save of an answer must not fail the run; the answer is in the journal.
      .catch(() => undefined);
    const waiter = this.#waiters.get(name);
    this.#waiters.delete(name);
    waiter?.(value);
  }
}

/** Where a received signal is journaled. */
export function signalKey(name: string): string {
  return `signal:${name}`;
}

/** A deep copy through JSON, so the journal holds exactly what a replay from storage would get. */
function toJSON<T extends JSONValue>(value: T, key: string): T {
  const copied = plainCopy(value ?? null, 0);
  if (copied !== NOT_PLAIN) return copied as T;
  try {
    return JSON.parse(JSON.stringify(value ?? null)) as T;
  } catch (error) {
    throw new JunctionError("invalid-argument", `The result of step "${key}" is not JSON.`, { cause: error });
  }
}

/** What {@link plainCopy} gives for a value JSON would change on the way (or refuse). */
const NOT_PLAIN: unique symbol = Symbol("not plain JSON");
/** Deeper than this, the JSON round trip decides (and a value that refers to itself fails there). */
const PLAIN_COPY_DEPTH = 64;

/**
 * A copy of plain data (null, booleans, strings, finite numbers other than -0, arrays, and objects
 * of the plain or null prototype without `toJSON` or a `__proto__` key, none holding `undefined`),
 * which JSON gives back unchanged: the same as the round trip, at a fraction of its cost (a
 * step's entry is copied once per tool call, a program's nested calls included). Anything else
 * gives `NOT_PLAIN`, and the round trip itself makes the copy (or refuses it).
 */
function plainCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
    case "object": {
      if (value === null) return null;
      if (depth >= PLAIN_COPY_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function")
        return NOT_PLAIN;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
        const copy: unknown[] = new Array(value.length);
        for (let index = 0; index < value.length; index++) {
          const item = plainCopy(value[index], depth + 1);
          if (item === NOT_PLAIN) return NOT_PLAIN;
          copy[index] = item;
        }
        return copy;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
      const copy: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        if (name === "__proto__") return NOT_PLAIN;
        const item = plainCopy((value as Record<string, unknown>)[name], depth + 1);
        if (item === NOT_PLAIN) return NOT_PLAIN;
        copy[name] = item;
      }
      return copy;
    }
    default:
      return NOT_PLAIN;
  }
}
