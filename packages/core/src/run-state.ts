import {
  errorMessage,
  JunctionError,
  type Message,
  type ToolResultMessagePart,
  type Usage,
} from "@junction/types";
import { z } from "zod";
import { programCallCounts, providerParentProblem } from "./code-mode/provider-program.js";
import { sandboxParentProblem } from "./code-mode/sandbox-parent.js";
import type { InMemoryDurability, JSONValue } from "./durability.js";
import { validateMessages } from "./message-validation.js";
import type { PendingToolCall } from "./pending-tool-call.js";
import { canonicalJSON, toolDigest } from "./run-digests.js";
import {
  deniedMessage,
  describeIssue,
  entrySchemas,
  issueMessage,
  journalOfStep,
  modelKey,
  modelTurnSchema,
  parseJournalKey,
  readEntry,
  type ToolSnapshot,
  toolCallSchema,
  toolKey,
  toolSnapshotSchema,
  toolSnapshotsSchema,
  toolsKey,
  usageSchema,
} from "./run-journal.js";
import { isFailedEntry, stepFailureProblem } from "./step-failure.js";
import type { TraceCarrier } from "./trace-carrier.js";

export type { PendingToolCall } from "./pending-tool-call.js";

/** The version of the `RunState` format this Junction writes and reads. */
export const RUN_STATE_VERSION = 1;

export type { ToolSnapshot };
export { canonicalJSON, journalOfStep, toolDigest };

/** An MCP source as the run knew it: a descriptor, never a live connection. */
export interface SourceDescriptor {
  label: string;
  name?: string;
  prefix?: string;
}

/**
 * A run that stopped for approvals, as plain, versioned JSON: store it anywhere
 * (`JSON.stringify`), and continue it in any process with `agent.resume({ state, decisions })`.
 * Finished calls are not run again and the model is not asked again for the step it answered.
 */
export interface RunState {
  kind: "junction.run-state";
  version: typeof RUN_STATE_VERSION;
  runId: string;
  /** ISO time the run stopped. */
  createdAt: string;
  provider: string;
  model: string;
  /** The conversation before the step that stopped. */
  messages: Message[];
  /** The step that stopped (1-based, counted in the run). */
  step: number;
  /** That step's finished work, by journal key: the model's answer, policy answers, finished calls, answers given. */
  journal: Record<string, JSONValue>;
  pending: PendingToolCall[];
  tools: ToolSnapshot[];
  sources: SourceDescriptor[];
  /** Usage of the run's steps before `step`. */
  usage: Usage;
  /** For the exfiltration guard: calls that never ran, and calls that read private data. */
  ledger: { notRun: string[]; readPrivate: string[] };
  /**
   * The trace context of the run's first part, when a tracer gave one (`Tracer` spans with
   * `traceCarrier()`): the resumed part's run span links to it.
   */
  trace?: TraceCarrier;
  /** Deferred tools the model found with the tool search before it stopped: a resumed run sends them. */
  loadedTools?: string[];
  /**
   * How many resumes of the run came before this stop: absent for a run's first stop, 1 for the
   * stop of its first resume, … A resume that leaves its calls waiting (no decision for them)
   * stops again with the same step and calls; this tells that state from the one it resumed, so
   * each resumes once (`ResumeClaims`: the states one part of a run gives, stopped or recorded,
   * share a claim).
   */
  resumes?: number;
  /**
   * Set when the run had a `runStateKey`: an HMAC-SHA-256 over the rest of the state and each
   * pending call's id, tool digest and arguments digest. A resume with the key refuses a state
   * whose signature is missing or does not match.
   */
  signature?: RunStateSignature;
}

/** A run state's signature (see `RunStateKey`). */
export interface RunStateSignature {
  /** The `id` of the key that signed it. */
  keyId: string;
  alg: "HS256";
  /** The HMAC-SHA-256, hex. */
  value: string;
}

/**
 * A decision for a pending call: `"approve"` runs it, `"deny"` or `{ deny: reason }` refuses it
 * with an error result the model sees.
 */
export type ResumeDecision = "approve" | "deny" | { deny: string };

/**
 * A stopped run to continue, as both `agent.resume(resume)` and `stream({ resume })` take it:
 * the `state` a result with `finishReason: "approval-required"` gave (the object, or parsed back
 * from its JSON; untrusted input, checked before anything runs) and a decision per pending call
 * id. A pending call without a decision stops the run again unless it is answered in process.
 *
 * @example
 * ```ts
 * const resume: Resume = { state: result.state, decisions: { [result.pending[0].id]: "approve" } };
 * const { text } = await agent.resume(resume).final;
 * ```
 */
export interface Resume {
  /** The stopped run's `state` (`result.state`), or its JSON parsed back. */
  state: RunState | unknown;
  /**
   * A decision per pending call id.
   * @default {}
   */
  decisions?: Record<string, ResumeDecision>;
}

/**
 * Migrations of older formats to the next version, by the version they read: a stored state is
 * brought up to {@link RUN_STATE_VERSION} one version at a time before the schema checks it.
 * Empty while version 1 is the only format (`signature` is an optional field of version 1: a
 * Junction that predates it ignores it, and reads nothing else differently).
 */
const migrations: Record<number, (state: Record<string, unknown>) => Record<string, unknown>> = {};

const pendingSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.string().optional(),
  input: z.unknown(),
  reason: z.string().optional(),
  step: z.int(),
  toolDigest: z.string().optional(),
  argumentsDigest: z.string().optional(),
  parent: z
    .object({
      id: z.string(),
      name: z.string(),
      sequence: z.int().min(1),
      program: z.string(),
      runtime: z.enum(["sandbox", "provider"]).optional(),
    })
    .optional(),
});

const messagesSchema = z.custom<Message[]>().check((context) => {
  try {
    validateMessages(context.value);
  } catch (error) {
    context.issues.push({ code: "custom", message: errorMessage(error), input: context.value });
  }
});

/** The schema of a stored `RunState` (of the current version; older ones are migrated first). */
const runStateSchema = z
  .object({
    kind: z.literal("junction.run-state"),
    version: z.literal(RUN_STATE_VERSION),
    runId: z.string(),
    createdAt: z.string(),
    provider: z.string(),
    model: z.string(),
    messages: messagesSchema,
    step: z.int().min(1, { error: "must be a positive integer" }),
    journal: z.record(z.string(), z.custom<JSONValue>()),
    pending: z.array(pendingSchema),
    tools: z.array(toolSnapshotSchema),
    sources: z.array(
      z.object({ label: z.string(), name: z.string().optional(), prefix: z.string().optional() }),
    ),
    usage: usageSchema,
    ledger: z.object({ notRun: z.array(z.string()), readPrivate: z.array(z.string()) }),
    trace: z.object({ traceparent: z.string(), tracestate: z.string().optional() }).optional(),
    loadedTools: z.array(z.string()).optional(),
    resumes: z.int().min(1, { error: "must be a positive integer" }).optional(),
    signature: z.object({ keyId: z.string(), alg: z.literal("HS256"), value: z.string() }).optional(),
  })
  .check((context) => {
    const state = context.value;
    const issue = (path: PropertyKey[], message: string) =>
      context.issues.push({ code: "custom", path, message, input: state });
    const turnKey = modelKey(state.step);
    for (const [key, entry] of Object.entries(state.journal)) {
      const parsed = parseJournalKey(key);
      if (!parsed || parsed.step !== state.step || parsed.kind === "tools") {
        issue(["journal", key], `is not an entry of step ${state.step} this Junction writes`);
        continue;
      }
      if (isFailedEntry(entry)) {
        const problem = stepFailureProblem(entry.failed);
        if (problem !== undefined) issue(["journal", key], `records a failed step, but ${problem}`);
        continue;
      }
      const checked = entrySchemas[parsed.kind].safeParse(entry);
      if (!checked.success) {
        const first = checked.error.issues[0]!;
        issue(["journal", key, ...first.path], issueMessage(first));
      }
    }
    const turn = modelTurnSchema.safeParse(state.journal[turnKey]);
    if (!turn.success) {
      issue(["journal"], `has no model answer for step ${state.step} ("${turnKey}")`);
      return;
    }
    const toolCalls = turn.data.content.filter((part) => part.type === "tool-call");
    const calls = new Set(toolCalls.map((part) => part.id));
    // Where a vendor's program's calls before the turn are counted, read only for such a parent.
    const earlier = state.pending.some((pending) => pending.parent?.runtime === "provider")
      ? programCallCounts(state.messages)
      : new Map<string, number>();
    state.pending.forEach((pending, index) => {
      const { parent } = pending;
      // A vendor's program's call is a call of the step, made by the program its part names, with
      // the source the turn holds. A sandbox's program's call is a call of the step through its
      // program's call, under the id it is given, with that call's tool and source.
      const parentProblem = !parent
        ? undefined
        : parent.runtime === "provider"
          ? providerParentProblem({ calls: toolCalls, earlier, pending: { id: pending.id, parent } })
          : sandboxParentProblem({ calls: toolCalls, pending: { id: pending.id, parent } });
      if (parentProblem)
        issue(["pending", index, ...parentProblem.field], `${parentProblem.message} of step ${state.step}`);
      else if (!parent && !calls.has(pending.id))
        issue(["pending", index], `(${pending.id}) is not a call of step ${state.step}`);
      else if (pending.step !== state.step) issue(["pending", index, "step"], `must be ${state.step}`);
    });
  });

/**
 * Reads a stored state (an object, or its JSON text) and names the first thing that is wrong
 * with it: a `run-state-invalid` error whose message names the field, such as "`pending[0].id`
 * must be a string". A state of an older version is migrated first; a newer one is refused.
 */
export function parseRunState(value: unknown): RunState {
  const stored = typeof value === "string" ? parseJSON(value) : value;
  if (!isRecord(stored)) throw invalid("it is not an object");
  let state: Record<string, unknown> = stored;
  if (state.kind !== "junction.run-state")
    throw invalid(`\`kind\` is ${JSON.stringify(state.kind)}, not "junction.run-state"`);
  for (let version = state.version; version !== RUN_STATE_VERSION; version = state.version) {
    const migrate = typeof version === "number" ? migrations[version] : undefined;
    if (!migrate) {
      throw invalid(
        `its version is ${JSON.stringify(version)}; this Junction reads version ${RUN_STATE_VERSION}${typeof version === "number" && version > RUN_STATE_VERSION ? " (a state written by a newer Junction needs that version to resume)" : ""}`,
      );
    }
    state = migrate(state);
  }
  const parsed = runStateSchema.safeParse(state);
  if (!parsed.success) throw invalid(describeIssue(parsed.error.issues[0], []));
  return parsed.data;
}

/** The state of a run that stopped for approvals at `step`, from its in-memory journal. */
export function stoppedRunState(parts: {
  /** The run's id and the journal entries it holds (an in-memory port's, or those a run on an engine saw). */
  journal: Pick<InMemoryDurability, "runId" | "journal">;
  step: number;
  pending: PendingToolCall[];
  usageBefore: Usage;
  provider: string;
  model: string;
  messages: Message[];
  sources?: SourceDescriptor[];
  ledger?: RunState["ledger"];
  /** The trace context of the run's first part. */
  trace?: TraceCarrier;
  loadedTools?: string[];
  /** How many resumes of the run came before this stop (see `RunState.resumes`). */
  resumes?: number;
}): RunState {
  const { journal, step } = parts;
  return {
    kind: "junction.run-state",
    version: RUN_STATE_VERSION,
    runId: journal.runId,
    createdAt: new Date().toISOString(),
    provider: parts.provider,
    model: parts.model,
    messages: structuredClone(parts.messages),
    step,
    journal: journalOfStep(journal.journal, step),
    pending: parts.pending,
    tools: readEntry(toolSnapshotsSchema, journal.journal[toolsKey(step)] ?? [], toolsKey(step)),
    sources: parts.sources ?? [],
    usage: parts.usageBefore,
    ledger: parts.ledger ?? { notRun: [], readPrivate: [] },
    ...(parts.trace ? { trace: parts.trace } : {}),
    ...(parts.loadedTools && parts.loadedTools.length > 0 ? { loadedTools: parts.loadedTools } : {}),
    ...(parts.resumes !== undefined ? { resumes: parts.resumes } : {}),
  };
}

/**
 * The conversation of a stopped run, closed as if its pending calls were denied with `reason`:
 * the messages before the step, the model's answer, the results of the calls that finished and
 * a denial for each pending one. For a conversation that goes on without resuming the run (a
 * new message instead of an answer); `agent.send()` does this itself for the run it stopped.
 */
export function closeRunState(input: RunState | unknown, reason: string): Message[] {
  const state = parseRunState(input);
  const turn = readEntry(modelTurnSchema, state.journal[modelKey(state.step)], modelKey(state.step));
  const results: ToolResultMessagePart[] = [];
  for (const part of turn.content) {
    if (part.type !== "tool-call") continue;
    const finished = toolCallSchema.safeParse(state.journal[toolKey(state.step, part.id)]);
    results.push({
      type: "tool-result",
      toolCallId: part.id,
      toolName: part.name,
      output: finished.success
        ? finished.data.output
        : {
            content: [{ type: "text", text: deniedMessage(part.name, reason) }],
            isError: true,
          },
    });
  }
  const messages: Message[] = [
    ...structuredClone(state.messages),
    { role: "assistant", content: turn.content },
  ];
  if (results.length > 0) messages.push({ role: "tool", content: results });
  return messages;
}

const digests = new WeakMap<object, Promise<string>>();

/** Snapshots of the tools a run offers (each tool's digest computed once per tool object). */
export async function snapshotTools(
  tools: Iterable<{ tool: Parameters<typeof toolDigest>[0] & { name: string }; source?: string }>,
): Promise<ToolSnapshot[]> {
  return Promise.all(
    [...tools].map(async ({ tool, source }) => {
      let digest = digests.get(tool);
      if (!digest) {
        digest = toolDigest(tool);
        digests.set(tool, digest);
      }
      return { name: tool.name, ...(source ? { source } : {}), digest: await digest };
    }),
  );
}

/**
 * The tools that changed between two snapshots of a step's tools, with the reason a call to one
 * is refused: gone, from another server now, or a different description, schema or annotations.
 */
export function toolChanges(before: ToolSnapshot[], now: ToolSnapshot[]): Map<string, string> {
  const current = new Map(now.map((snapshot) => [snapshot.name, snapshot]));
  const changes = new Map<string, string>();
  for (const seen of before) {
    const tool = current.get(seen.name);
    if (!tool) {
      changes.set(seen.name, `the tool "${seen.name}" is no longer available, so it was not run`);
    } else if ((seen.source ?? "") !== (tool.source ?? "")) {
      changes.set(
        seen.name,
        `the tool "${seen.name}" now comes from ${tool.source ?? "the local tools"}, not ${seen.source ?? "the local tools"} as when it was asked for, so it was not run`,
      );
    } else if (seen.digest !== tool.digest) {
      changes.set(
        seen.name,
        `the tool "${seen.name}" changed (description, schema or annotations) since the run stopped, so it was not run`,
      );
    }
  }
  return changes;
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null;
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid(`it is not JSON (${errorMessage(error)})`);
  }
}

function invalid(detail: string): JunctionError {
  return new JunctionError("run-state-invalid", `This run state cannot be resumed: ${detail}.`);
}
