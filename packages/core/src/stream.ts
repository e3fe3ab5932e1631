import {
  errorMessage,
  JunctionError,
  type Message,
  type ModelProvider,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
} from "@junction/types";
import { raceAbort } from "./abort.js";
import type { AgentHandle, AgentResult } from "./agent-events.js";
import {
  type ApprovalFunction,
  type ApprovalPolicy,
  type NormalizedDecision,
  normalizeDecision,
  toApprovalFunction,
} from "./approval.js";
import type { Durability } from "./durability.js";
import { ownMessages } from "./message-copy.js";
import { validateMessages } from "./message-validation.js";
import type { ResumeClaims } from "./resume-claims.js";
import { deniedMessage, type GateEntry } from "./run-journal.js";
import { STREAM_RESUME } from "./run-resume.js";
import { type Resume, snapshotTools } from "./run-state.js";
import { keyList, type RunStateKeys } from "./run-state-signature.js";
import type { ModelSettings, ToolRunner } from "./run-types.js";
import { type RunSpec, type RunTools, startRun } from "./start-run.js";
import type { OutputSchema } from "./structured-output.js";
import type { Tracer } from "./tracing.js";

/** A tool call handed to `onToolCall`. */
export interface ToolCallRequest {
  id: string;
  /** The real tool name. */
  name: string;
  /** The arguments as the model sent them (not validated: that is the handler's job). */
  input: unknown;
}

/** What `stream()` and `generate()` take; `Output` is the structured answer's type, from `output`. */
export interface StreamOptions<Output = unknown> {
  provider: ModelProvider;
  model: string;
  system?: string;
  /**
   * The conversation so far; it is not changed (the result carries the new one). Required unless
   * `resume` is given (the conversation is then the stopped run's).
   */
  messages?: Message[];
  /** Definitions only, for example from `mcp.listToolDefinitions()`. */
  tools?: ToolDefinition[];
  /**
   * Runs a call the model asked for. Return its output, or `null`/`undefined` for a tool you do
   * not know (the model gets an error result saying so); a thrown error becomes an error result.
   * Omitted, the run stops at the first turn that calls tools and returns the calls in `steps`.
   */
  onToolCall?: (call: ToolCallRequest, context: ToolContext) => Promise<ToolOutput | null | undefined>;
  /** @default 10 */
  maxSteps?: number;
  /** @default 8 */
  toolConcurrency?: number;
  /** Characters of text a tool result may carry as the conversation keeps it; see `AgentConfig.maxToolOutputChars`. @default 10000000 */
  maxToolOutputChars?: number;
  settings?: ModelSettings;
  signal?: AbortSignal;
  tracer?: Tracer;
  /**
   * Decides per call whether `onToolCall` runs it, as an Agent's `approval` does (by name and the
   * definitions' annotations; there is no exfiltration guard here). A call it asks about waits
   * for the `tool-approval-request` event's answer while someone reads the events; otherwise (or
   * after `approvalTimeoutMs`) the run ends with `approval-required` and a `state` to resume.
   */
  approval?: ApprovalPolicy;
  /** How long a call waits in process for its approval. @default waits while someone reads the events, else 0 */
  approvalTimeoutMs?: number;
  /** Where model and tool calls are journaled and approvals wait. @default in memory */
  durability?: Durability;
  /**
   * The application secret that signs the state a stopped run returns and verifies a `resume`
   * state: one `{ id, secret }` or a list for rotation (see `AgentConfig.runStateKey`).
   */
  runStateKey?: RunStateKeys;
  /**
   * Continues a run that stopped with `approval-required`: its `state` and a decision per pending
   * call id, the same {@link Resume} value `agent.resume()` takes.
   */
  resume?: Resume;
  /** Where `resume` is claimed, so a state resumes once (see `AgentConfig.resumeClaims`). @default this process's memory */
  resumeClaims?: ResumeClaims;
  /**
   * The run ends with a structured answer matching this schema (zod, or a JSON Schema with an
   * object root): `final.output`, and `output-delta` events while it streams (see `AgentConfig.output`).
   */
  output?: OutputSchema<Output>;
  /** Turns the model gets to fix an invalid answer before an `OutputError`. @default 1 */
  outputRepairTurns?: number;
}

/**
 * The tool loop without an Agent: streams model turns over the given messages and tool
 * definitions, running calls through `onToolCall` (eagerly, in parallel, results in the
 * model's order).
 *
 * @example
 * ```ts
 * const tools = await mcp.listTools();
 * const handle = stream({
 *   provider, model, messages: [{ role: "user", content: "Echo hi" }],
 *   tools: await mcp.listToolDefinitions(),
 *   onToolCall: async ({ name, input }, context) => tools.find((t) => t.name === name)?.execute(input, context) ?? null,
 * });
 * for await (const event of handle) console.log(event.type);
 * ```
 */
export function stream<Output = unknown>(options: StreamOptions<Output>): AgentHandle<Output> {
  return startRun<Output>(() => specOf(options as StreamOptions)).handle;
}

/** `stream()` read to its end: resolves to the result, rejects on failure or abort. */
export function generate<Output = unknown>(options: StreamOptions<Output>): Promise<AgentResult<Output>> {
  return stream(options).final;
}

/** `stream()`'s options as a run: the given conversation (or a resumed one), the definitions, `onToolCall`. */
function specOf(options: StreamOptions): RunSpec {
  if (typeof options?.provider?.stream !== "function" || typeof options.model !== "string") {
    throw new JunctionError("invalid-argument", "stream(): `provider` and `model` are required.");
  }
  const keys = keyList(options.runStateKey);
  // Read and checked where `agent.resume()`'s is: `planResume`, when the run starts.
  const resume: RunSpec["resume"] =
    options.resume !== undefined ? { value: options.resume, caller: STREAM_RESUME } : undefined;
  const definitions = options.tools ?? [];
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const runner = options.onToolCall
    ? handlerRunner(options.onToolCall, toApprovalFunction(options.approval))
    : undefined;
  return {
    provider: options.provider,
    model: options.model,
    ...(options.system !== undefined ? { system: options.system } : {}),
    history: resume ? [] : validateMessages(ownMessages(options.messages)),
    tools: {
      prepareStep: async () => ({ definitions, tools: byName, privateDataFrom: [] }),
      ...(runner ? { runner } : {}),
    } satisfies RunTools<ToolDefinition>,
    limits: {
      maxSteps: options.maxSteps ?? 10,
      toolConcurrency: options.toolConcurrency ?? 8,
      ...(options.maxToolOutputChars !== undefined ? { maxToolOutputChars: options.maxToolOutputChars } : {}),
    },
    ...(options.settings ? { settings: options.settings } : {}),
    output: { schema: options.output, repairTurns: options.outputRepairTurns },
    ...(options.durability ? { durability: options.durability } : {}),
    ...(resume ? { resume } : {}),
    keys,
    ...(options.resumeClaims ? { resumeClaims: options.resumeClaims } : {}),
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
  };
}

/** `onToolCall` as the loop's tool runner: the policy decides by the step's definitions, the handler runs. */
function handlerRunner(
  handler: NonNullable<StreamOptions["onToolCall"]>,
  policy: ApprovalFunction | undefined,
): ToolRunner<ToolDefinition> {
  return {
    journalsDecisions: policy !== undefined,
    decide: (call, context) =>
      decideByPolicy({ policy, tools: context.plan.tools, call, signal: context.signal }),
    snapshot: (plan) => snapshotTools([...plan.tools.values()].map((tool) => ({ tool }))),
    execute: (call, context) =>
      context.limit(async () => {
        const start = performance.now();
        try {
          const value = await handler(call, {
            signal: context.signal,
            onProgress: context.onProgress,
            ...(context.idempotencyKey ? { idempotencyKey: context.idempotencyKey } : {}),
          });
          if (value === null || value === undefined) {
            return {
              kind: "error",
              outcome: "not-found",
              durationMs: performance.now() - start,
              message: `There is no tool named "${call.name}".`,
            };
          }
          return { kind: "output", value, durationMs: performance.now() - start };
        } catch (error) {
          if (context.signal.aborted) throw error;
          return {
            kind: "error",
            outcome: "error",
            durationMs: performance.now() - start,
            message: `Tool "${call.name}" failed: ${errorMessage(error)}`,
          };
        }
      }),
  };
}

/** The policy's answer for a call of `stream()`: run, refuse, or ask a person. */
async function decideByPolicy(parts: {
  policy: ApprovalFunction | undefined;
  tools: ReadonlyMap<string, ToolDefinition>;
  call: ToolCallRequest;
  signal: AbortSignal;
}): Promise<GateEntry> {
  const { policy, call } = parts;
  if (!policy) return { kind: "run" };
  const annotations = parts.tools.get(call.name)?.annotations;
  let decision: NormalizedDecision;
  try {
    decision = normalizeDecision(
      await raceAbort(
        Promise.resolve(
          policy({
            id: call.id,
            name: call.name,
            input: call.input,
            ...(annotations ? { annotations } : {}),
          }),
        ),
        parts.signal,
      ),
    );
  } catch (error) {
    if (parts.signal.aborted) throw error;
    decision = { kind: "deny", reason: `The approval policy failed: ${errorMessage(error)}` };
  }
  if (decision.kind === "approve") return { kind: "run" };
  if (decision.kind === "deny") {
    return { kind: "refuse", outcome: "denied", message: deniedMessage(call.name, decision.reason) };
  }
  return { kind: "ask", input: call.input, callInput: call.input };
}
