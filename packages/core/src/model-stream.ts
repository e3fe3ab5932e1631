import {
  type AssistantContentPart,
  errorMessage,
  JunctionError,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderError,
  type ToolCallPart,
  type ToolCallProgram,
  type Warning,
} from "@junction/types";
import { abortError, raceAbort } from "./abort.js";
import type { AgentEvent } from "./agent-events.js";
import { readToolCallProgram } from "./code-mode/provider-program.js";

/**
 * The part of the run this module needs: the provider to stream from and where text and
 * reasoning deltas go. Declared here, not taken from `RunLoopOptions`, so this module does not
 * import run-loop.ts (which imports it).
 */
export interface ModelStreamSource {
  provider: ModelProvider;
  emit(event: AgentEvent): void;
  /** The run's signal: an abort ends the turn at once. */
  signal: AbortSignal;
}

/** What the tool loop does with each piece of a model turn as it streams. */
export interface StreamHandlers {
  onText(text: string): void;
  onReasoning(text: string): void;
  onToolCall(call: ToolCallPart): void;
  /** A call's start (with its name) and each piece of its argument JSON, as they stream. */
  onToolCallPiece?(piece: { id: string; name?: string; argumentsDelta?: string }): void;
  warn(warning: Warning): void;
}

/**
 * Reads one model turn: text and reasoning deltas are emitted as they come, each complete tool
 * call goes to `onToolCall` at once, anything malformed becomes a warning; resolves to the
 * turn's `finish` event. A stream failure becomes a `ProviderError` naming the provider.
 */
export async function consumeModelStream(
  options: ModelStreamSource,
  request: ModelRequest,
  handlers: StreamHandlers,
): Promise<Extract<ModelStreamEvent, { type: "finish" }>> {
  const { signal } = options;
  let iterator: AsyncIterator<ModelStreamEvent>;
  try {
    iterator = options.provider.stream(request)[Symbol.asyncIterator]();
  } catch (error) {
    throw toProviderError(options.provider.name, error);
  }
  let done = false;
  try {
    while (true) {
      let next: IteratorResult<ModelStreamEvent>;
      try {
        next = await raceAbort(iterator.next(), signal);
      } catch (error) {
        done = true;
        if (signal.aborted) throw abortError(signal);
        throw toProviderError(options.provider.name, error);
      }
      if (next.done) {
        done = true;
        throw new ProviderError({
          provider: options.provider.name,
          code: "provider-response-invalid",
          message: `The ${options.provider.name} stream ended without a finish event.`,
        });
      }
      const event = next.value;
      switch (event?.type) {
        case "text-delta":
          if (typeof event.text === "string" && event.text.length > 0) {
            handlers.onText(event.text);
            options.emit({ type: "text-delta", text: event.text });
          }
          break;
        case "reasoning-delta":
          if (typeof event.text === "string" && event.text.length > 0) {
            handlers.onReasoning(event.text);
            options.emit({ type: "reasoning-delta", text: event.text });
          }
          break;
        case "tool-call-start":
          handlers.onToolCallPiece?.({ id: event.id, name: event.name });
          break;
        case "tool-call-delta":
          handlers.onToolCallPiece?.({ id: event.id, argumentsDelta: event.argumentsDelta });
          break;
        case "tool-call": {
          const call = readToolCall(event, handlers.warn);
          if (call) handlers.onToolCall(call);
          break;
        }
        case "warning":
          handlers.warn(event.warning);
          break;
        case "finish":
          return event;
        default:
          handlers.warn({
            code: "model-event-unknown",
            message: `The ${options.provider.name} stream sent an event Junction does not know (${JSON.stringify((event as { type?: unknown })?.type)}); it was ignored.`,
          });
      }
    }
  } finally {
    // Only stops the provider's stream after the turn failed or was left; that failure is already being
    // thrown, and a second one from cleanup would only hide it.
    if (!done) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

function readToolCall(event: Extract<ModelStreamEvent, { type: "tool-call" }>, warn: (w: Warning) => void) {
  if (typeof event.id !== "string" || event.id.length === 0 || typeof event.name !== "string") {
    warn({
      code: "model-tool-call-invalid",
      message: `The model sent a tool call without a string id and name (${JSON.stringify({ id: event.id, name: event.name })}); it will be read from the finished turn instead.`,
    });
    return undefined;
  }
  const call: ToolCallPart = { type: "tool-call", id: event.id, name: event.name, input: event.input };
  const program = programOfPart(event, warn);
  if (program) call.program = program;
  if (event.providerMetadata) call.providerMetadata = event.providerMetadata;
  return call;
}

/**
 * A call's `program` (the vendor's program that made it), checked: one that is not an object with
 * a non-empty `id` and `runtime` (and a string `source`, if any) is left out, with a warning.
 */
function programOfPart(
  part: { id: unknown; program?: unknown },
  warn: (warning: Warning) => void,
): ToolCallProgram | undefined {
  if (part.program === undefined) return undefined;
  const program = readToolCallProgram(part.program);
  if (!program)
    warn({
      code: "model-tool-call-invalid",
      message: `The model's tool call "${String(part.id)}" named the program that made it as ${JSON.stringify(part.program)}, not an object with a string id, runtime and source; the call keeps no program.`,
    });
  return program;
}

/** The assistant turn to store: the provider's valid `content` parts, or the streamed text if it gave none. */
export function assistantContent(
  content: unknown,
  streamed: { text: string[]; reasoning: string[] },
  warn: (warning: Warning) => void,
): AssistantContentPart[] {
  let parts: AssistantContentPart[];
  if (Array.isArray(content)) {
    parts = content.flatMap((part, index): AssistantContentPart[] => {
      if (!isAssistantPart(part)) {
        warn({
          code: "model-content-invalid",
          message: `The finished model turn had an invalid content part at index ${index} (${JSON.stringify(part)}); it was left out of the history.`,
        });
        return [];
      }
      if (part.type !== "tool-call" || part.program === undefined) return [part];
      const { program: named, ...call } = part;
      const program = programOfPart({ id: part.id, program: named }, warn);
      return [program ? { ...call, program } : call];
    });
  } else {
    warn({
      code: "model-content-invalid",
      message:
        "The finished model turn had no content list; the history was rebuilt from the streamed events.",
    });
    parts = [];
    if (streamed.reasoning.length > 0) parts.push({ type: "reasoning", text: streamed.reasoning.join("") });
    if (streamed.text.length > 0) parts.push({ type: "text", text: streamed.text.join("") });
  }
  return parts;
}

function isAssistantPart(part: unknown): part is AssistantContentPart {
  if (typeof part !== "object" || part === null) return false;
  const p = part as Record<string, unknown>;
  if (p.type === "text" || p.type === "reasoning") return typeof p.text === "string";
  if (p.type === "tool-call")
    return typeof p.id === "string" && p.id.length > 0 && typeof p.name === "string";
  return false;
}

function toProviderError(provider: string, error: unknown): Error {
  if (JunctionError.isInstance(error)) return error;
  return new ProviderError({
    provider,
    code: "provider-stream-error",
    message: `The ${provider} stream failed: ${errorMessage(error)}`,
    cause: error,
  });
}
