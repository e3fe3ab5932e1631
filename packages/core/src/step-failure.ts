import {
  JunctionError,
  type JunctionErrorCode,
  OutputError,
  type OutputErrorCode,
  ProviderError,
} from "@junction/types";
import type { Durability, JSONValue } from "./durability.js";

/**
 * A run's failed step, journaled as data: a step's body that throws (a model call's
 * `ProviderError`, an approval policy that throws) is journaled as `{ failed: StepFailure }` and
 * thrown again after the step. A durable engine's replay then rebuilds the same error class with
 * its fields, where the engine's own error journal would give back only a name and a message.
 * Plain, bounded JSON: strings are cut at {@link MAX_FAILURE_STRING} characters.
 */
export interface StepFailure {
  /**
   * The class it is rebuilt as: `ProviderError`, `OutputError` and `JunctionError` (any other
   * Junction error: a `JunctionError` with the same `code` and `name`); `Error` for anything
   * else, which is rebuilt as a plain `Error` with the same name and message (it was not a
   * Junction error on the first run either).
   */
  class: StepFailureClass;
  name: string;
  message: string;
  /** The error's own fields (`code`, `provider`, `status`, `retryable`, `requestId`, `issues`, …). */
  fields: Record<string, JSONValue>;
  /** What it was caught with, as far as {@link MAX_CAUSE_DEPTH} causes. */
  cause?: StepFailure;
}

/** The classes a {@link StepFailure} is rebuilt as. */
export type StepFailureClass = "ProviderError" | "OutputError" | "JunctionError" | "Error";

/** The longest string a journaled failure keeps; longer ones are cut and end with `…`. */
export const MAX_FAILURE_STRING = 16_384;
const MAX_CAUSE_DEPTH = 4;
const MAX_FIELDS = 32;
const MAX_LIST = 100;
const CLASSES: readonly StepFailureClass[] = ["ProviderError", "OutputError", "JunctionError", "Error"];
/** Fields the error itself has, never copied from the journal onto a rebuilt one. */
const RESERVED = new Set(["name", "message", "stack", "cause", "__proto__", "constructor", "prototype"]);

/** The journal entry of a failed step. */
export interface FailedStepEntry {
  failed: StepFailure;
}

/**
 * Runs `run` as the step `key` of the run, with its failure journaled as data: first run and
 * replay alike end the same way, a value or the same error class with the same fields (the first
 * run throws the error itself, with its stack and cause objects; a replay throws its rebuilt
 * copy). A failure while `signal` is aborted is not journaled: the step is left unfinished, so a
 * replay of the run (after a restart) runs it again instead of failing with the abort.
 */
export function journaledStep<T extends JSONValue>(options: {
  durability: Durability;
  key: string;
  signal: AbortSignal;
  run: () => Promise<T>;
}): Promise<T> {
  const { key, signal } = options;
  let thrown: { error: unknown } | undefined;
  return new Promise<T>((resolve, reject) => {
    options.durability
      .step<JSONValue>(key, async () => {
        try {
          return await options.run();
        } catch (error) {
          if (signal.aborted) {
            // The run goes on failing with the abort; the engine never sees this step end.
            reject(error);
            return new Promise<never>(() => undefined);
          }
          thrown = { error };
          return { failed: toStepFailure(error) } as unknown as JSONValue;
        }
      })
      .then((entry) => {
        if (!isFailedEntry(entry)) return resolve(entry as T);
        try {
          reject(thrown ? thrown.error : fromStepFailure(readStepFailure(entry.failed, key)));
        } catch (error) {
          // The journaled failure could not be read.
          reject(error);
        }
      }, reject);
  });
}

/** Whether a journal entry is a failed step's (`{ failed: … }`, nothing else). */
export function isFailedEntry(value: unknown): value is FailedStepEntry {
  return isRecord(value) && Object.hasOwn(value, "failed") && Object.keys(value).length === 1;
}

/** Any thrown value as a {@link StepFailure}: plain JSON, bounded. */
export function toStepFailure(error: unknown, depth = 0): StepFailure {
  const failure: StepFailure = {
    class: classOf(error),
    name: cut(readString(error, "name") ?? "Error"),
    message: cut(readString(error, "message") ?? safeString(error)),
    fields: fieldsOf(error),
  };
  const cause = readProperty(error, "cause");
  if (cause !== undefined && depth + 1 < MAX_CAUSE_DEPTH) failure.cause = toStepFailure(cause, depth + 1);
  return failure;
}

/**
 * The error a {@link StepFailure} describes, rebuilt as its class: `ProviderError.isInstance`,
 * `OutputError.isInstance` and `JunctionError.isInstance` answer as they did for the original.
 */
export function fromStepFailure(failure: StepFailure): Error {
  const { fields, message } = failure;
  const cause = failure.cause ? { cause: fromStepFailure(failure.cause) } : {};
  const code = typeof fields.code === "string" ? fields.code : undefined;
  let error: Error;
  if (
    failure.class === "ProviderError" &&
    code?.startsWith("provider-") &&
    typeof fields.provider === "string"
  ) {
    error = new ProviderError({
      code: code as ConstructorParameters<typeof ProviderError>[0]["code"],
      provider: fields.provider,
      message,
      ...(typeof fields.status === "number" ? { status: fields.status } : {}),
      retryable: fields.retryable === true,
      ...(typeof fields.requestId === "string" ? { requestId: fields.requestId } : {}),
      ...cause,
    });
  } else if (failure.class === "OutputError" && code?.startsWith("output-")) {
    error = new OutputError({
      code: code as OutputErrorCode,
      message,
      text: typeof fields.text === "string" ? fields.text : "",
      issues: Array.isArray(fields.issues) ? fields.issues.filter((issue) => typeof issue === "string") : [],
      ...cause,
    });
  } else if (failure.class !== "Error" && code !== undefined) {
    error = new JunctionError(code as JunctionErrorCode, message, {
      ...cause,
      ...(typeof fields.jsonRPCCode === "number" ? { jsonRPCCode: fields.jsonRPCCode } : {}),
      ...(fields.jsonRPCData !== undefined ? { jsonRPCData: fields.jsonRPCData } : {}),
    });
  } else {
    error = new Error(message, cause);
  }
  error.name = failure.name;
  for (const [field, value] of Object.entries(fields)) {
    if (RESERVED.has(field) || Object.hasOwn(error, field)) continue;
    Object.defineProperty(error, field, { value, enumerable: true, configurable: true, writable: false });
  }
  return error;
}

/**
 * Reads a journaled failure (untrusted: a stored `RunState`, an engine's journal).
 *
 * @throws JunctionError `run-state-invalid` naming the first thing wrong with it.
 */
export function readStepFailure(value: unknown, key: string): StepFailure {
  const problem = stepFailureProblem(value);
  if (problem !== undefined) {
    throw new JunctionError(
      "run-state-invalid",
      `The journal entry "${key}" records a failed step, but ${problem}: Junction's run loop did not write it. Start the run again instead of replaying this journal.`,
    );
  }
  return value as StepFailure;
}

/** What is wrong with a journaled failure, or `undefined` when it is one Junction wrote. */
export function stepFailureProblem(value: unknown, depth = 0): string | undefined {
  if (!isRecord(value)) return "the failure is not an object";
  if (!CLASSES.includes(value.class as StepFailureClass))
    return `its class ${JSON.stringify(value.class)} is not one of ${CLASSES.join(", ")}`;
  if (typeof value.name !== "string" || typeof value.message !== "string")
    return "it has no string `name` and `message`";
  if (value.name.length > MAX_FAILURE_STRING || value.message.length > MAX_FAILURE_STRING)
    return `its \`name\` or \`message\` is longer than ${MAX_FAILURE_STRING} characters`;
  if (!isRecord(value.fields) || Object.keys(value.fields).length > MAX_FIELDS)
    return `its \`fields\` is not an object of at most ${MAX_FIELDS} fields`;
  if (value.class !== "Error" && typeof value.fields.code !== "string")
    return `a ${value.class} needs a string \`fields.code\``;
  if (value.cause === undefined) return undefined;
  if (depth + 1 >= MAX_CAUSE_DEPTH) return `its causes go deeper than ${MAX_CAUSE_DEPTH}`;
  return stepFailureProblem(value.cause, depth + 1);
}

function classOf(error: unknown): StepFailureClass {
  if (ProviderError.isInstance(error)) return "ProviderError";
  if (OutputError.isInstance(error)) return "OutputError";
  if (JunctionError.isInstance(error)) return "JunctionError";
  return "Error";
}

/** The error's own enumerable fields that are plain JSON: strings, numbers, booleans, lists of them. */
function fieldsOf(error: unknown): Record<string, JSONValue> {
  const fields: Record<string, JSONValue> = {};
  if (typeof error !== "object" || error === null) return fields;
  let keys: string[];
  try {
    keys = Object.keys(error);
  } catch {
    // A hostile proxy: the failure keeps its name and message only.
    return fields;
  }
  // `code` is an own field of every Junction error; a Node error's too.
  if (!keys.includes("code") && readProperty(error, "code") !== undefined) keys.unshift("code");
  for (const key of keys) {
    if (Object.keys(fields).length >= MAX_FIELDS) break;
    if (RESERVED.has(key)) continue;
    const value =
      key === "jsonRPCData" ? boundedJSON(readProperty(error, key)) : plain(readProperty(error, key));
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/** A field's value when it is a JSON primitive or a short list of them (strings cut to size). */
function plain(value: unknown): JSONValue | undefined {
  if (typeof value === "string") return cut(value);
  if (typeof value === "boolean" || value === null) return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value) && value.length <= MAX_LIST) {
    const items = value.map((item) => (Array.isArray(item) ? undefined : plain(item)));
    return items.every((item) => item !== undefined) ? (items as JSONValue[]) : undefined;
  }
  return undefined;
}

/** Any JSON value within {@link MAX_FAILURE_STRING} characters; otherwise not kept. */
function boundedJSON(value: unknown): JSONValue | undefined {
  try {
    const text = JSON.stringify(value);
    return text !== undefined && text.length <= MAX_FAILURE_STRING
      ? (JSON.parse(text) as JSONValue)
      : undefined;
  } catch {
    // Not JSON (a cycle, a BigInt): the failure goes on without it.
    return undefined;
  }
}

function readProperty(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    // A throwing getter: treated as absent.
    return undefined;
  }
}

function readString(value: unknown, key: string): string | undefined {
  const read = readProperty(value, key);
  return typeof read === "string" ? read : undefined;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    // An object whose toString throws.
    return "(a value that cannot be shown as text)";
  }
}

function cut(text: string): string {
  return text.length > MAX_FAILURE_STRING ? `${text.slice(0, MAX_FAILURE_STRING - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
