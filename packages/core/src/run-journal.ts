import {
  type AssistantContentPart,
  type FinishReason,
  JunctionError,
  type ToolResult,
  type Usage,
} from "@junction/types";
import { z } from "zod";
import { toolCallProgramSchema } from "./code-mode/provider-program.js";
import { type JSONValue, signalKey } from "./durability.js";

/**
 * The keys and values a run journals through its `Durability` port: plain JSON, the same in
 * memory, in a `RunState` and in a durable engine's journal. This module owns them: each entry
 * kind's key (built here, and read back by `parseJournalKey`) and its schema (read back by
 * `readEntry`, so nothing downstream trusts a stored value's shape).
 */

/** The model's answer for one step: the content as stored in the history, and how the turn ended. */
export interface ModelTurnEntry {
  content: AssistantContentPart[];
  finish: { reason: FinishReason; usage: Usage; responseId?: string; refusal?: string };
}

/** A finished tool call: what goes back to the model, and how it went. */
export interface ToolCallEntry {
  output: string | ToolResult;
  durationMs: number;
  /** `success`, `error`, `denied`, `invalid-input`, `not-found`. */
  outcome: string;
  source?: string;
  /**
   * A call a program made (code mode): the tool and the digest of its arguments, so a replay that
   * asks for another call under the same sequence number is told it diverged, never given this result.
   */
  call?: { name: string; argumentsDigest: string };
}

/** What a program's run is fixed by besides its source (code mode): its clock and its random seed. */
export interface ProgramEntry {
  clockMs: number;
  seed: number;
}

/** The approval policy's answer for a call, journaled so a replay does not ask again. */
export type GateEntry =
  | { kind: "run" }
  | {
      kind: "ask";
      /** The validated arguments, as shown to the person. */
      input: unknown;
      /** The arguments as the model sent them. */
      callInput: unknown;
      reason?: string;
      source?: string;
    }
  | { kind: "refuse"; outcome: "denied" | "invalid-input" | "not-found"; message: string; source?: string };

/**
 * A person's answer to an approval request: the value of an approval signal. With `toolDigest`
 * or `argumentsDigest` (a listed `PendingToolCall`'s), the answer counts only for that tool and
 * those arguments: when the waiting call's differ, it is denied with a `run-state-mismatch`
 * warning.
 */
export type ApprovalAnswer = ({ approved: true } | { approved: false; reason?: string }) & {
  toolDigest?: string;
  argumentsDigest?: string;
};

/** A tool as the model saw it when the run stopped: enough to tell, on resume, whether it changed. */
export interface ToolSnapshot {
  name: string;
  source?: string;
  /** SHA-256 of the tool's description, schemas and annotations (canonical JSON), hex. */
  digest: string;
}

export const modelKey = (step: number): string => `model:${step}`;
export const toolKey = (step: number, callId: string): string => `tool:${step}:${callId}`;
/** The tools offered in step `step`, as snapshots: a replay compares them with the tools it has now. */
export const toolsKey = (step: number): string => `tools:${step}`;
export const gateKey = (step: number, callId: string): string => `gate:${step}:${callId}`;
/** The clock and seed of the program that call `callId` of step `step` runs (code mode). */
export const programKey = (step: number, callId: string): string => `program:${step}:${callId}`;
/** The id of the `sequence`-th call the program of call `parentId` makes: `<parentId>.<sequence>`. */
export const nestedCallId = (parentId: string, sequence: number): string => `${parentId}.${sequence}`;
/** The signal that answers the approval of call `callId` in step `step`. */
export const approvalSignal = (step: number, callId: string): string => `approval:${step}:${callId}`;

/** The kinds of journal entry, by the first part of their key (`approval` is journaled as `signal:approval:…`). */
export type JournalEntryKind = "model" | "tool" | "tools" | "gate" | "approval" | "program";

/** A journal key read back: its kind, step and (for calls) call id. */
export interface JournalKey {
  kind: JournalEntryKind;
  step: number;
  callId?: string;
}

const KEY = /^(signal:approval|model|tools|tool|gate|program):([1-9][0-9]*)(?::(.+))?$/;

/** Reads a journal key (the inverse of the key builders above); `undefined` for a key no run writes. */
export function parseJournalKey(key: string): JournalKey | undefined {
  const match = KEY.exec(key);
  if (!match) return undefined;
  const kind = (match[1] === "signal:approval" ? "approval" : match[1]) as JournalEntryKind;
  const step = Number(match[2]);
  const callId = match[3];
  const withCall = kind === "tool" || kind === "gate" || kind === "approval" || kind === "program";
  if (withCall !== (callId !== undefined)) return undefined;
  return { kind, step, ...(callId !== undefined ? { callId } : {}) };
}

/** The key of a parsed journal key, as the run writes it. */
export function journalKey(key: JournalKey): string {
  switch (key.kind) {
    case "model":
      return modelKey(key.step);
    case "tools":
      return toolsKey(key.step);
    case "tool":
      return toolKey(key.step, key.callId ?? "");
    case "gate":
      return gateKey(key.step, key.callId ?? "");
    case "approval":
      return signalKey(approvalSignal(key.step, key.callId ?? ""));
    case "program":
      return programKey(key.step, key.callId ?? "");
    default: {
      const never: never = key.kind;
      return never;
    }
  }
}

/** The entries of step `step` that a stopped run's state keeps (its tool snapshots travel apart). */
export function journalOfStep(journal: Record<string, JSONValue>, step: number): Record<string, JSONValue> {
  return Object.fromEntries(
    Object.entries(journal).filter(([key]) => {
      const parsed = parseJournalKey(key);
      return parsed !== undefined && parsed.step === step && parsed.kind !== "tools";
    }),
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Token counts as the journal keeps them. */
export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  cachedInputTokens: z.number().optional(),
  cacheWriteInputTokens: z.number().optional(),
  reasoningTokens: z.number().optional(),
});

const contentSchema = z.custom<AssistantContentPart[]>(
  (value) =>
    Array.isArray(value) &&
    value.every(
      (part) =>
        isRecord(part) &&
        typeof part.type === "string" &&
        (part.type !== "tool-call" ||
          (typeof part.id === "string" &&
            typeof part.name === "string" &&
            (part.program === undefined || toolCallProgramSchema.safeParse(part.program).success))),
    ),
  {
    error:
      "must be a list of content parts (a tool call with a string `id` and `name`, and its `program`, if any, with a non-empty string `id` and `runtime` and a string `source`)",
  },
);

/** A model turn's entry (`model:<step>`). */
export const modelTurnSchema: z.ZodType<ModelTurnEntry> = z.object({
  content: contentSchema,
  finish: z.object({
    reason: z.enum(["stop", "length", "tool-calls", "content-filter", "error", "other"]),
    usage: usageSchema,
    responseId: z.string().optional(),
    refusal: z.string().optional(),
  }),
});

const toolResultSchema = z.custom<ToolResult>((value) => isRecord(value) && Array.isArray(value.content), {
  error: "must be a string or a tool result ({ content: [...] })",
});

/** A finished call's entry (`tool:<step>:<callId>`). */
export const toolCallSchema: z.ZodType<ToolCallEntry> = z.object({
  output: z.union([z.string(), toolResultSchema]),
  durationMs: z.number(),
  outcome: z.string(),
  source: z.string().optional(),
  call: z.object({ name: z.string(), argumentsDigest: z.string() }).optional(),
});

/** A program's clock and seed (`program:<step>:<callId>`). */
export const programSchema: z.ZodType<ProgramEntry> = z.object({
  clockMs: z.number(),
  seed: z.int(),
});

/** A policy answer's entry (`gate:<step>:<callId>`). */
export const gateSchema: z.ZodType<GateEntry> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("run") }),
  z.object({
    kind: z.literal("ask"),
    input: z.unknown(),
    callInput: z.unknown(),
    reason: z.string().optional(),
    source: z.string().optional(),
  }),
  z.object({
    kind: z.literal("refuse"),
    outcome: z.enum(["denied", "invalid-input", "not-found"]),
    message: z.string(),
    source: z.string().optional(),
  }),
]);

/** An approval signal's value (`signal:approval:<step>:<callId>`). */
const answerDigests = { toolDigest: z.string().optional(), argumentsDigest: z.string().optional() };
export const approvalAnswerSchema: z.ZodType<ApprovalAnswer> = z.union([
  z.object({ approved: z.literal(true), ...answerDigests }),
  z.object({ approved: z.literal(false), reason: z.string().optional(), ...answerDigests }),
]);

/** A tool snapshot. */
export const toolSnapshotSchema: z.ZodType<ToolSnapshot> = z.object({
  name: z.string(),
  source: z.string().optional(),
  digest: z.string(),
});

/** The tools a step offered (`tools:<step>`). */
export const toolSnapshotsSchema: z.ZodType<ToolSnapshot[]> = z.array(toolSnapshotSchema);

/** The schema of each kind of entry. */
export const entrySchemas: { [Kind in JournalEntryKind]: z.ZodType } = {
  model: modelTurnSchema,
  tool: toolCallSchema,
  tools: toolSnapshotsSchema,
  gate: gateSchema,
  approval: approvalAnswerSchema,
  program: programSchema,
};

/**
 * A journaled value read back with its schema: typed, or a `run-state-invalid` error naming the
 * key and the field (a journal is read from a stored state or an engine: it is not trusted).
 */
export function readEntry<T>(schema: z.ZodType<T>, value: JSONValue | undefined, key: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new JunctionError(
    "run-state-invalid",
    `The journal entry "${key}" cannot be used: ${describeIssue(parsed.error.issues[0], [])}.`,
  );
}

/** A typed entry as the JSON the journal keeps (every entry type is plain JSON by construction). */
export function entryValue(
  entry: ModelTurnEntry | ToolCallEntry | GateEntry | ToolSnapshot[] | ProgramEntry,
): JSONValue {
  return entry as JSONValue;
}

/**
 * One zod issue as a sentence naming the field: "`pending[0].id` must be a string". `prefix` is
 * the path the value was found at.
 */
export function describeIssue(issue: z.core.$ZodIssue | undefined, prefix: PropertyKey[]): string {
  if (!issue) return "it is not valid";
  const path = [...prefix, ...issue.path];
  const field = path.length > 0 ? `\`${fieldPath(path)}\` ` : "";
  return `${field}${issueMessage(issue)}`;
}

/** What is wrong, without the field: "must be a string". */
export function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "array" || issue.expected === "object" || issue.expected === "int"
        ? `must be an ${issue.expected === "int" ? "integer" : issue.expected}`
        : `must be a ${issue.expected}`;
    case "invalid_value":
      return `must be ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
    case "invalid_union":
      return "matches none of the shapes it may have";
    default:
      return issue.message;
  }
}

/** A path as a reader writes it: `pending[0].id`, `journal["model:1"].content`. */
export function fieldPath(path: PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_$][\w$]*$/.test(segment))
      text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** The message a denied call gives the model. */
export function deniedMessage(toolName: string, reason: string | undefined): string {
  const trimmed = reason?.trim();
  const because = trimmed ? `: ${/[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`}` : ".";
  return `The call to tool "${toolName}" was denied${because} Do not call it again unless the user asks.`;
}
