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
import type { AgentEvent, AgentHandle, AgentResult } from "./agent-events.js";
import {
  type ApprovalFunction,
  type ApprovalPolicy,
  type NormalizedDecision,
  normalizeDecision,
  toApprovalFunction,
} from "./approval.js";
import { type Durability, InMemoryDurability } from "./durability.js";
import { EventChannel } from "./event-channel.js";
import { ownMessages } from "./message-copy.js";
import { validateMessages } from "./message-validation.js";
import { deniedMessage, type GateEntry } from "./run-journal.js";
import { runLoop } from "./run-loop.js";
import { finalResult } from "./run-result.js";
import { planResume, type ResumePlan } from "./run-resume.js";
import { type ResumeDecision, snapshotTools } from "./run-state.js";
import { keyList, type RunStateKey, type RunStateKeys, signWith } from "./run-state-signature.js";
import type { ModelSettings, ToolRunner } from "./run-types.js";
import { type OutputSchema, type StructuredOutput, structuredOutputFor } from "./structured-output.js";
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
  /** Continues a run that stopped with `approval-required`, with a decision per pending call id. */
  resume?: { state: unknown; decisions?: Record<string, ResumeDecision> };
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
  const channel = new EventChannel<AgentEvent>();
  let listening = false;
  const approvalTimeoutMs = () => {
    if (options.approvalTimeoutMs !== undefined) return options.approvalTimeoutMs;
    return options.durability || listening ? undefined : 0;
  };
  const final = Promise.resolve().then(
    () =>
      run(options as StreamOptions, { emit: (event) => channel.push(event), approvalTimeoutMs }) as Promise<
        AgentResult<Output>
      >,
  );
  final.then(
    () => channel.close(),
    () => channel.close(),
  );
  // The events report a failure too (an `error` event); reading only the events must not leave an unhandled
  // rejection.
  final.catch(() => undefined);
  return {
    final,
    [Symbol.asyncIterator]: () => {
      listening = true;
      return channel[Symbol.asyncIterator]();
    },
  };
}

/** `stream()` read to its end: resolves to the result, rejects on failure or abort. */
export function generate<Output = unknown>(options: StreamOptions<Output>): Promise<AgentResult<Output>> {
  return stream(options).final;
}

async function run(
  options: StreamOptions,
  context: { emit: (event: AgentEvent) => void; approvalTimeoutMs: () => number | undefined },
): Promise<AgentResult> {
  const { emit } = context;
  const fail = (error: Error): never => {
    emit({ type: "error", error });
    throw error;
  };
  if (typeof options?.provider?.stream !== "function" || typeof options.model !== "string") {
    fail(new JunctionError("invalid-argument", "stream(): `provider` and `model` are required."));
  }
  let history: Message[];
  let plan: ResumePlan | undefined;
  let keys: RunStateKey[];
  try {
    keys = keyList(options.runStateKey);
    if (options.resume) {
      const resume = options.resume as Record<string, unknown>;
      if (resume.kind === "junction.run-state") {
        throw new JunctionError(
          "invalid-argument",
          'stream(): `resume` is a run state itself; pass { state: result.state, decisions: { [callId]: "approve" } }.',
        );
      }
      plan = await planResume(resume.state, (resume.decisions ?? {}) as Record<string, ResumeDecision>, {
        keys,
        names: {
          method: "stream()",
          state: "`resume.state`",
          decisions: "`resume.decisions`",
          example: '{ state: result.state, decisions: { [result.pending[0].id]: "approve" } }',
        },
      });
      history = structuredClone(plan.state.messages);
    } else {
      history = validateMessages(ownMessages(options.messages));
    }
  } catch (error) {
    return fail(error as Error);
  }
  let output: StructuredOutput | undefined;
  try {
    output = structuredOutputFor({
      schema: options.output,
      repairTurns: options.outputRepairTurns,
      provider: options.provider,
      model: options.model,
      emit,
    });
  } catch (error) {
    return fail(error as Error);
  }
  const durability =
    options.durability ??
    new InMemoryDurability(plan ? { runId: plan.state.runId, journal: plan.journal } : {});
  const handler = options.onToolCall;
  const tools = options.tools ?? [];
  const policy = toApprovalFunction(options.approval);
  const runner: ToolRunner | undefined = handler
    ? {
        journalsDecisions: policy !== undefined,
        decide: (call, callContext) => decideByPolicy({ policy, tools, call, signal: callContext.signal }),
        snapshot: () => snapshotTools(tools.map((tool) => ({ tool }))),
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
      }
    : undefined;
  const result = await runLoop({
    provider: options.provider,
    model: options.model,
    ...(options.system !== undefined ? { system: options.system } : {}),
    history,
    prepareStep: async () => tools,
    ...(runner ? { tools: runner } : {}),
    maxSteps: options.maxSteps ?? 10,
    toolConcurrency: options.toolConcurrency ?? 8,
    ...(options.maxToolOutputChars !== undefined ? { maxToolOutputChars: options.maxToolOutputChars } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    durability,
    firstStep: plan?.state.step ?? 1,
    ...(plan ? { usageBefore: plan.state.usage, resumeGuard: plan.guard, warnings: plan.warnings } : {}),
    approvalTimeoutMs: context.approvalTimeoutMs,
    ...(output ? { output } : {}),
    emit,
  });
  const final = finalResult(result, {
    durability,
    provider: options.provider.name,
    model: options.model,
    messages: history,
  });
  return final.state ? { ...final, state: await signWith(final.state, keys) } : final;
}

/** The policy's answer for a call of `stream()`: run, refuse, or ask a person. */
async function decideByPolicy(parts: {
  policy: ApprovalFunction | undefined;
  tools: ToolDefinition[];
  call: ToolCallRequest;
  signal: AbortSignal;
}): Promise<GateEntry> {
  const { policy, call } = parts;
  if (!policy) return { kind: "run" };
  const annotations = parts.tools.find((tool) => tool.name === call.name)?.annotations;
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
