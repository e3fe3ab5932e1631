import {
  errorMessage,
  JunctionError,
  type Message,
  type ModelProvider,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
} from "@junction/types";
import type { AgentEvent, AgentHandle, AgentResult } from "./agent-events.js";
import { EventChannel } from "./event-channel.js";
import { validateMessages } from "./message-validation.js";
import { type ModelSettings, runLoop, type ToolExecutor } from "./run-loop.js";
import type { Tracer } from "./tracing.js";

/** A tool call handed to `onToolCall`. */
export interface ToolCallRequest {
  id: string;
  /** The real tool name. */
  name: string;
  /** The arguments as the model sent them (not validated: that is the handler's job). */
  input: unknown;
}

/** What `stream()` and `generate()` take. */
export interface StreamOptions {
  provider: ModelProvider;
  model: string;
  system?: string;
  /** The conversation so far; it is not changed (the result carries the new one). */
  messages: Message[];
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
  /** @default 100000 */
  maxToolOutputChars?: number;
  settings?: ModelSettings;
  signal?: AbortSignal;
  tracer?: Tracer;
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
export function stream(options: StreamOptions): AgentHandle {
  const channel = new EventChannel<AgentEvent>();
  const final = Promise.resolve().then(() => run(options, (event) => channel.push(event)));
  final.then(
    () => channel.close(),
    () => channel.close(),
  );
  // The events report a failure too (an `error` event); reading only the events must not leave an unhandled
  // rejection.
  final.catch(() => undefined);
  return { final, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
}

/** `stream()` read to its end: resolves to the result, rejects on failure or abort. */
export function generate(options: StreamOptions): Promise<AgentResult> {
  return stream(options).final;
}

async function run(options: StreamOptions, emit: (event: AgentEvent) => void): Promise<AgentResult> {
  if (typeof options?.provider?.stream !== "function" || typeof options.model !== "string") {
    const error = new JunctionError("invalid-argument", "stream(): `provider` and `model` are required.");
    emit({ type: "error", error });
    throw error;
  }
  let history: Message[];
  try {
    history = validateMessages(structuredClone(options.messages));
  } catch (error) {
    emit({ type: "error", error: error as Error });
    throw error;
  }
  const handler = options.onToolCall;
  const executeTool: ToolExecutor | undefined = handler
    ? async (call, context) =>
        context.limit(async () => {
          const start = performance.now();
          try {
            const value = await handler(call, { signal: context.signal, onProgress: context.onProgress });
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
        })
    : undefined;
  const tools = options.tools ?? [];
  return runLoop({
    provider: options.provider,
    model: options.model,
    ...(options.system !== undefined ? { system: options.system } : {}),
    history,
    prepareStep: async () => tools,
    ...(executeTool ? { executeTool } : {}),
    maxSteps: options.maxSteps ?? 10,
    toolConcurrency: options.toolConcurrency ?? 8,
    ...(options.maxToolOutputChars !== undefined ? { maxToolOutputChars: options.maxToolOutputChars } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    emit,
  });
}
