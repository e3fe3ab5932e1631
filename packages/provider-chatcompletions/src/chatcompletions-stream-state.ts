import { isRecord as isObject, parseToolArguments, toolCallInput } from "@junction/provider-utils";
import {
  type AssistantContentPart,
  type FinishReason,
  type ModelStreamEvent,
  ProviderError,
  type ToolNameMapping,
  type Usage,
  type Warning,
} from "@junction/types";
import { mapChatCompletionsFinishReason } from "./map-chatcompletions-finish-reason.js";

interface PendingToolCall {
  id: string;
  /** The name as the server sent it; mapped back to the real name when the call completes. */
  vendorName: string;
  arguments: string;
  started: boolean;
  done: boolean;
  /** Argument text that came before the name, sent once the call can start. */
  buffered: string;
  /** Where the call sits in the turn's content. */
  position: number;
}

/**
 * Reassembles one streamed Chat Completions turn from its chunks into neutral events. Pure:
 * feed it parsed chunks with `push`, then call `finish` once the stream ended.
 *
 * It copes with what compatible servers do differently: arguments streamed in pieces or sent
 * whole, several calls in one chunk, calls without an `index` or without an `id` (a unique
 * one is made up), reasoning in `reasoning_content` or `reasoning`, a missing usage chunk,
 * and `finish_reason: "stop"` on a turn with tool calls. A call is announced complete
 * (`tool-call`) as soon as its arguments parse as a JSON object, so tools can start early.
 */
export class ChatCompletionsStreamState {
  private readonly content: (AssistantContentPart | undefined)[] = [];
  private readonly calls: PendingToolCall[] = [];
  private readonly callsByIndex = new Map<number, PendingToolCall>();
  private usage: Usage | undefined;
  private finishReason: string | undefined;
  private responseId: string | undefined;
  /** The refusal text the model streamed in its own field. */
  private refusal: string | undefined;
  private lastKind: "text" | "reasoning" | "tool" | undefined;

  private readonly providerName: string;
  private readonly toolNames: ToolNameMapping;
  private readonly makeId: () => string;

  constructor(options: {
    toolNames: ToolNameMapping;
    /** The provider's name, for metadata and errors. */
    providerName: string;
    /** Makes an id for a tool call the server sent without one. */
    generateId: () => string;
  }) {
    this.toolNames = options.toolNames;
    this.providerName = options.providerName;
    this.makeId = options.generateId;
  }

  /** Takes one parsed chunk and returns the events it produces. */
  push(chunk: unknown): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    if (!isObject(chunk)) throw this.invalid(`a stream chunk is ${describe(chunk)}, not an object`);
    if (typeof chunk.id === "string" && this.responseId === undefined) this.responseId = chunk.id;
    if (chunk.usage != null) this.usage = this.readUsage(chunk.usage);
    // Groq reports usage in its own extension object on the last chunk.
    else if (isObject(chunk.x_groq) && chunk.x_groq.usage != null)
      this.usage = this.readUsage(chunk.x_groq.usage);
    if (chunk.choices == null) return events;
    if (!Array.isArray(chunk.choices)) throw this.invalid(`"choices" is ${describe(chunk.choices)}`);

    for (const choice of chunk.choices) {
      if (!isObject(choice)) throw this.invalid(`a choice is ${describe(choice)}`);
      // Only the first choice is read: Junction never asks for n > 1.
      if (choice.index !== undefined && choice.index !== 0) continue;
      const delta = choice.delta;
      if (delta != null) {
        if (!isObject(delta)) throw this.invalid(`"delta" is ${describe(delta)}`);
        this.readDelta(delta, events);
      }
      if (typeof choice.finish_reason === "string") {
        this.finishReason = choice.finish_reason;
        // The turn is over: every call still open is complete.
        for (const call of this.calls) this.complete(call, events);
      }
    }
    return events;
  }

  /** Ends the turn: completes any open calls and returns the trailing events, `finish` last. */
  finish(): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    for (const call of this.calls) this.complete(call, events);
    if (this.usage === undefined) {
      events.push(
        warning(
          "usage-missing",
          "The server sent no token usage (it may not support stream_options.include_usage); usage is reported as 0.",
        ),
      );
    }
    const reason: FinishReason = mapChatCompletionsFinishReason(this.finishReason, this.calls.length > 0);
    events.push({
      type: "finish",
      reason,
      ...(this.finishReason !== undefined ? { rawReason: this.finishReason } : {}),
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      content: this.content.filter((part): part is AssistantContentPart => part !== undefined),
      ...(this.responseId !== undefined ? { responseId: this.responseId } : {}),
      ...(this.refusal !== undefined ? { refusal: this.refusal } : {}),
    });
    return events;
  }

  private readDelta(delta: Record<string, unknown>, events: ModelStreamEvent[]): void {
    for (const field of ["reasoning_content", "reasoning"] as const) {
      const value = delta[field];
      if (typeof value === "string" && value !== "") {
        this.appendReasoning(value, field);
        events.push({ type: "reasoning-delta", text: value });
      }
    }
    const text = delta.content;
    if (typeof text === "string" && text !== "") {
      this.appendText(text);
      events.push({ type: "text-delta", text });
    } else if (text != null && typeof text !== "string") {
      throw this.invalid(`"delta.content" is ${describe(text)}`);
    }
    // OpenAI streams a refusal in its own field; it is what the model said, so it is text.
    if (typeof delta.refusal === "string" && delta.refusal !== "") {
      this.appendText(delta.refusal);
      this.refusal = (this.refusal ?? "") + delta.refusal;
      events.push({ type: "text-delta", text: delta.refusal });
    }
    // The deprecated single `function_call` (older servers) is one tool call without an id.
    if (isObject(delta.function_call))
      this.readToolCall({ index: -1, function: delta.function_call }, events);
    if (delta.tool_calls == null) return;
    if (!Array.isArray(delta.tool_calls))
      throw this.invalid(`"delta.tool_calls" is ${describe(delta.tool_calls)}`);
    for (const toolCall of delta.tool_calls) this.readToolCall(toolCall, events);
  }

  private readToolCall(toolCall: unknown, events: ModelStreamEvent[]): void {
    if (!isObject(toolCall)) throw this.invalid(`a tool call is ${describe(toolCall)}`);
    const fn = toolCall.function == null ? {} : toolCall.function;
    if (!isObject(fn)) throw this.invalid(`"tool_calls[].function" is ${describe(fn)}`);
    const id = typeof toolCall.id === "string" && toolCall.id !== "" ? toolCall.id : undefined;
    const name = typeof fn.name === "string" && fn.name !== "" ? fn.name : undefined;
    const argumentsDelta =
      typeof fn.arguments === "string"
        ? fn.arguments
        : isObject(fn.arguments)
          ? // A few servers send the arguments as an object instead of JSON text.
            JSON.stringify(fn.arguments)
          : "";

    const call = this.findCall(toolCall.index, id, name);
    if (call.done) {
      if (argumentsDelta !== "") {
        events.push(
          warning(
            "tool-call-arguments-after-complete",
            `More arguments arrived for tool call ${call.id} after its arguments were already complete; they were ignored.`,
          ),
        );
      }
      return;
    }
    if (name !== undefined && call.vendorName === "") call.vendorName = name;
    if (!call.started && call.vendorName !== "") {
      call.started = true;
      events.push({ type: "tool-call-start", id: call.id, name: this.toolNames.fromVendor(call.vendorName) });
      if (call.buffered !== "") {
        events.push({ type: "tool-call-delta", id: call.id, argumentsDelta: call.buffered });
        call.buffered = "";
      }
    }
    if (argumentsDelta === "") return;
    call.arguments += argumentsDelta;
    if (call.started) events.push({ type: "tool-call-delta", id: call.id, argumentsDelta });
    else call.buffered += argumentsDelta;
    const whole = call.started ? wholeObject(call.arguments) : undefined;
    if (whole) this.complete(call, events, whole);
  }

  /** The call a tool-call delta belongs to, by index, else by id, else the latest one. */
  private findCall(index: unknown, id: string | undefined, name: string | undefined): PendingToolCall {
    if (typeof index === "number") {
      const known = this.callsByIndex.get(index);
      // A new id at a known index (some servers restart indexes per chunk) is a new call.
      if (known && (id === undefined || id === known.id)) return known;
    } else if (id !== undefined) {
      const known = this.calls.find((call) => call.id === id);
      if (known) return known;
    } else if (name === undefined) {
      const latest = this.calls.at(-1);
      if (latest) return latest;
    }
    const call: PendingToolCall = {
      id: id ?? this.makeId(),
      vendorName: "",
      arguments: "",
      started: false,
      done: false,
      buffered: "",
      position: this.content.length,
    };
    this.content.push(undefined);
    this.calls.push(call);
    if (typeof index === "number") this.callsByIndex.set(index, call);
    this.lastKind = "tool";
    return call;
  }

  /** Ends `call`: its input is `parsed` when its arguments were already read as a whole object. */
  private complete(
    call: PendingToolCall,
    events: ModelStreamEvent[],
    parsed?: Record<string, unknown>,
  ): void {
    if (call.done) return;
    if (call.vendorName === "") {
      throw this.invalid(`tool call ${call.id} ended without a function name`);
    }
    call.done = true;
    const name = this.toolNames.fromVendor(call.vendorName);
    const { input, warning: invalid } = parsed
      ? { input: parsed, warning: undefined }
      : toolCallInput({ text: call.arguments, id: call.id, name, provider: "Chat Completions" });
    if (invalid) events.push({ type: "warning", warning: invalid });
    this.content[call.position] = { type: "tool-call", id: call.id, name, input };
    events.push({ type: "tool-call", id: call.id, name, input });
  }

  private appendText(text: string): void {
    const last = this.content.at(-1);
    if (this.lastKind === "text" && last?.type === "text") last.text += text;
    else this.content.push({ type: "text", text });
    this.lastKind = "text";
  }

  private appendReasoning(text: string, field: "reasoning_content" | "reasoning"): void {
    const last = this.content.at(-1);
    if (this.lastKind === "reasoning" && last?.type === "reasoning") last.text += text;
    else this.content.push({ type: "reasoning", text, providerMetadata: { [this.providerName]: { field } } });
    this.lastKind = "reasoning";
  }

  /**
   * Maps a `usage` object. `reasoningTokens` is part of `outputTokens` (the `Usage` contract), as
   * OpenAI counts it; servers that leave reasoning out of `completion_tokens` (xAI) report more
   * reasoning than completion tokens, and then `outputTokens` is completion + reasoning.
   */
  private readUsage(usage: unknown): Usage {
    if (!isObject(usage)) throw this.invalid(`"usage" is ${describe(usage)}`);
    const inputTokens = count(usage.prompt_tokens) ?? 0;
    const completionTokens = count(usage.completion_tokens) ?? 0;
    const reasoning = isObject(usage.completion_tokens_details)
      ? count(usage.completion_tokens_details.reasoning_tokens)
      : undefined;
    const outputTokens =
      reasoning !== undefined && reasoning > completionTokens
        ? completionTokens + reasoning
        : completionTokens;
    const result: Usage = {
      inputTokens,
      outputTokens,
      // total_tokens counts reasoning either way; it never falls below input + output.
      totalTokens: Math.max(count(usage.total_tokens) ?? 0, inputTokens + outputTokens),
    };
    const cached = isObject(usage.prompt_tokens_details)
      ? count(usage.prompt_tokens_details.cached_tokens)
      : undefined;
    if (cached !== undefined) result.cachedInputTokens = cached;
    if (reasoning !== undefined) result.reasoningTokens = reasoning;
    return result;
  }

  private invalid(what: string): ProviderError {
    return new ProviderError({
      code: "provider-response-invalid",
      provider: this.providerName,
      message: `The ${this.providerName} server sent an invalid stream: ${what}.`,
    });
  }
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * A call's arguments so far as an object, when they are a whole JSON object. Only text that ends
 * in `}` is parsed: the arguments arrive in many pieces, and parsing every unfinished prefix would
 * throw (and build) an error each time, in time quadratic in the arguments' length.
 */
function wholeObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimEnd().endsWith("}")) return undefined;
  const parsed = parseToolArguments(text);
  return parsed.ok ? parsed.value : undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value} (${JSON.stringify(value)?.slice(0, 80)})`;
}

function warning(code: string, message: string): ModelStreamEvent {
  return { type: "warning", warning: { code, message } satisfies Warning };
}
