import {
  type AssistantContentPart,
  type ModelStreamEvent,
  ProviderError,
  type ToolNameMapping,
  type Usage,
} from "@junction/types";
import { retryableStreamCodes } from "./map-openai-error.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";

type ItemState =
  | { kind: "message"; itemId?: string; phase?: string; texts: string[] }
  | { kind: "reasoning"; itemId?: string; summaries: string[]; encryptedContent?: string }
  | {
      kind: "function_call";
      itemId?: string;
      callId: string;
      vendorName: string;
      arguments: string;
      started: boolean;
      emitted: boolean;
      /** The parsed input, once the call was emitted. */
      input?: unknown;
    }
  | { kind: "other"; type: string };

type JSONObject = Record<string, unknown>;

/**
 * Turns Responses API stream events into Junction's neutral events. Pure and synchronous:
 * feed it each parsed event with `push`; it validates what it reads (the stream is untrusted
 * input) and throws a `ProviderError` naming the event and field when something is malformed,
 * or when the response failed.
 */
export class OpenAIStreamMapper {
  /** The response id from `response.created`, once seen. */
  responseId: string | undefined;
  /** True once `response.completed` or `response.incomplete` produced the `finish` event. */
  finished = false;

  readonly #toolNames: ToolNameMapping;
  readonly #providerName: string;
  readonly #requestId: string | undefined;
  readonly #items = new Map<number, ItemState>();
  readonly #indexByItemId = new Map<string, number>();

  constructor(options: { toolNames: ToolNameMapping; providerName: string; requestId?: string }) {
    this.#toolNames = options.toolNames;
    this.#providerName = options.providerName;
    this.#requestId = options.requestId;
  }

  /** Maps one stream event; returns the neutral events it produces (often none). */
  push(event: unknown): ModelStreamEvent[] {
    if (this.finished) return [];
    if (!isObject(event) || typeof event.type !== "string")
      throw this.#invalid(`a stream event without a type: ${preview(event)}`);
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued":
        if (isObject(event.response) && typeof event.response.id === "string")
          this.responseId = event.response.id;
        return [];
      case "response.output_item.added":
        return this.#itemAdded(event);
      case "response.output_item.done":
        return this.#itemDone(event);
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const delta = this.#string(event, "delta");
        const item = this.#item(event, "message");
        if (item.kind !== "message") return [];
        const contentIndex = typeof event.content_index === "number" ? event.content_index : 0;
        item.texts[contentIndex] = (item.texts[contentIndex] ?? "") + delta;
        return delta ? [{ type: "text-delta", text: delta }] : [];
      }
      case "response.reasoning_summary_text.delta": {
        const delta = this.#string(event, "delta");
        const item = this.#item(event, "reasoning");
        if (item.kind !== "reasoning") return [];
        const summaryIndex = typeof event.summary_index === "number" ? event.summary_index : 0;
        const events: ModelStreamEvent[] = [];
        // Summary parts are separate paragraphs: keep them apart in the streamed text too.
        if (item.summaries[summaryIndex] === undefined && summaryIndex > 0)
          events.push({ type: "reasoning-delta", text: "\n\n" });
        item.summaries[summaryIndex] = (item.summaries[summaryIndex] ?? "") + delta;
        if (delta) events.push({ type: "reasoning-delta", text: delta });
        return events;
      }
      case "response.function_call_arguments.delta": {
        const delta = this.#string(event, "delta");
        const item = this.#item(event, "function_call");
        if (item.kind !== "function_call" || item.emitted) return [];
        item.arguments += delta;
        return delta ? [{ type: "tool-call-delta", id: item.callId, argumentsDelta: delta }] : [];
      }
      case "response.function_call_arguments.done": {
        const item = this.#item(event, "function_call");
        if (item.kind !== "function_call") return [];
        item.arguments = this.#string(event, "arguments");
        return this.#emitToolCall(item);
      }
      case "response.completed":
      case "response.incomplete":
        return this.#finish(event);
      case "response.failed":
        throw this.#failed(event);
      case "error":
        throw this.#error(event);
      default:
        // Progress events (content_part.added, output_text.done, …) repeat what the deltas and
        // the output_item events already carry.
        return [];
    }
  }

  #itemAdded(event: JSONObject): ModelStreamEvent[] {
    const item = this.#object(event, "item");
    const index = this.#outputIndex(event);
    const itemId = typeof item.id === "string" ? item.id : undefined;
    if (itemId) this.#indexByItemId.set(itemId, index);
    switch (item.type) {
      case "message":
        this.#items.set(index, {
          kind: "message",
          itemId,
          phase: typeof item.phase === "string" ? item.phase : undefined,
          texts: [],
        });
        return [];
      case "reasoning":
        this.#items.set(index, { kind: "reasoning", itemId, summaries: [] });
        return [];
      case "function_call": {
        const state: ItemState = {
          kind: "function_call",
          itemId,
          callId: this.#string(item, "call_id", "function_call item"),
          vendorName: this.#string(item, "name", "function_call item"),
          arguments: typeof item.arguments === "string" ? item.arguments : "",
          started: true,
          emitted: false,
        };
        this.#items.set(index, state);
        return [
          { type: "tool-call-start", id: state.callId, name: this.#toolNames.fromVendor(state.vendorName) },
        ];
      }
      default: {
        const type = typeof item.type === "string" ? item.type : "unknown";
        this.#items.set(index, { kind: "other", type });
        return [
          {
            type: "warning",
            warning: {
              code: "output-item-unsupported",
              message: `OpenAI returned an output item of type "${type}", which Junction does not carry; it is left out of the turn.`,
            },
          },
        ];
      }
    }
  }

  #itemDone(event: JSONObject): ModelStreamEvent[] {
    const item = this.#object(event, "item");
    const index = this.#outputIndex(event);
    const known = this.#items.get(index);
    const itemId = typeof item.id === "string" ? item.id : undefined;
    switch (item.type) {
      case "message": {
        const texts = Array.isArray(item.content)
          ? item.content.map((part) =>
              isObject(part) && typeof part.text === "string"
                ? part.text
                : isObject(part) && typeof part.refusal === "string"
                  ? part.refusal
                  : "",
            )
          : undefined;
        const phase = typeof item.phase === "string" ? item.phase : undefined;
        const state = known?.kind === "message" ? known : { kind: "message" as const, texts: [] };
        this.#items.set(index, {
          ...state,
          itemId: itemId ?? state.itemId,
          phase: phase ?? state.phase,
          texts: texts ?? state.texts,
        });
        return [];
      }
      case "reasoning": {
        const summaries = Array.isArray(item.summary)
          ? item.summary.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
          : undefined;
        const state = known?.kind === "reasoning" ? known : { kind: "reasoning" as const, summaries: [] };
        this.#items.set(index, {
          ...state,
          itemId: itemId ?? state.itemId,
          summaries: summaries ?? state.summaries,
          // The encrypted content in output_item.added may be incomplete; this one is final.
          encryptedContent:
            typeof item.encrypted_content === "string" ? item.encrypted_content : state.encryptedContent,
        });
        return [];
      }
      case "function_call": {
        const events: ModelStreamEvent[] = [];
        let state = known;
        if (state?.kind !== "function_call") {
          state = {
            kind: "function_call",
            itemId,
            callId: this.#string(item, "call_id", "function_call item"),
            vendorName: this.#string(item, "name", "function_call item"),
            arguments: "",
            started: false,
            emitted: false,
          };
          this.#items.set(index, state);
        }
        if (!state.started) {
          state.started = true;
          events.push({
            type: "tool-call-start",
            id: state.callId,
            name: this.#toolNames.fromVendor(state.vendorName),
          });
        }
        if (typeof item.arguments === "string" && !state.emitted) {
          if (item.arguments.startsWith(state.arguments) && item.arguments.length > state.arguments.length)
            events.push({
              type: "tool-call-delta",
              id: state.callId,
              argumentsDelta: item.arguments.slice(state.arguments.length),
            });
          state.arguments = item.arguments;
        }
        events.push(...this.#emitToolCall(state));
        return events;
      }
      default:
        return [];
    }
  }

  #emitToolCall(item: Extract<ItemState, { kind: "function_call" }>): ModelStreamEvent[] {
    if (item.emitted) return [];
    item.emitted = true;
    const name = this.#toolNames.fromVendor(item.vendorName);
    const parsed = parseArguments(item.arguments);
    const events: ModelStreamEvent[] = [];
    if (!parsed.ok)
      events.push({
        type: "warning",
        warning: {
          code: "tool-call-arguments-invalid",
          message: `OpenAI sent arguments for "${name}" (call ${item.callId}) that are not a JSON object (${parsed.error}); passed on as the raw text so the tool reports the error to the model.`,
        },
      });
    item.input = parsed.ok ? parsed.value : item.arguments;
    events.push({
      type: "tool-call",
      id: item.callId,
      name,
      input: item.input,
      ...(item.itemId ? { providerMetadata: { [this.#providerName]: { itemId: item.itemId } } } : {}),
    });
    return events;
  }

  #finish(event: JSONObject): ModelStreamEvent[] {
    const response = this.#object(event, "response");
    if (typeof response.id === "string") this.responseId = response.id;
    const events: ModelStreamEvent[] = [];
    // A function call cut short (for example by max_output_tokens) never got its done event.
    for (const item of this.#items.values())
      if (item.kind === "function_call" && !item.emitted && item.arguments)
        events.push(...this.#emitToolCall(item));
    const content = this.#content();
    const status =
      typeof response.status === "string"
        ? response.status
        : event.type === "response.completed"
          ? "completed"
          : "incomplete";
    const incompleteReason =
      isObject(response.incomplete_details) && typeof response.incomplete_details.reason === "string"
        ? response.incomplete_details.reason
        : undefined;
    this.finished = true;
    events.push({
      type: "finish",
      reason: mapOpenAIFinishReason({
        status,
        incompleteReason,
        hasToolCalls: content.some((part) => part.type === "tool-call"),
      }),
      rawReason: incompleteReason ?? status,
      usage: mapUsage(response.usage),
      content,
      ...(this.responseId ? { responseId: this.responseId } : {}),
    });
    return events;
  }

  #content(): AssistantContentPart[] {
    const content: AssistantContentPart[] = [];
    const indexes = [...this.#items.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const item = this.#items.get(index)!;
      switch (item.kind) {
        case "message": {
          const text = item.texts.join("");
          if (!text) break;
          const metadata: Record<string, unknown> = {};
          if (item.itemId) metadata.itemId = item.itemId;
          if (item.phase) metadata.phase = item.phase;
          content.push({ type: "text", text, ...this.#metadata(metadata) });
          break;
        }
        case "reasoning": {
          const summaries = item.summaries.length > 0 ? item.summaries : [""];
          summaries.forEach((text, summaryIndex) => {
            const metadata: Record<string, unknown> = {};
            if (item.itemId) metadata.itemId = item.itemId;
            if (summaryIndex === 0 && item.encryptedContent)
              metadata.encryptedContent = item.encryptedContent;
            content.push({ type: "reasoning", text: text ?? "", ...this.#metadata(metadata) });
          });
          break;
        }
        case "function_call":
          if (!item.emitted) break;
          content.push({
            type: "tool-call",
            id: item.callId,
            name: this.#toolNames.fromVendor(item.vendorName),
            input: item.input,
            ...this.#metadata(item.itemId ? { itemId: item.itemId } : {}),
          });
          break;
        case "other":
          break;
        default: {
          const unknown: never = item;
          return unknown;
        }
      }
    }
    return content;
  }

  #metadata(metadata: Record<string, unknown>): {
    providerMetadata?: Record<string, Record<string, unknown>>;
  } {
    return Object.keys(metadata).length > 0 ? { providerMetadata: { [this.#providerName]: metadata } } : {};
  }

  #failed(event: JSONObject): ProviderError {
    const response = isObject(event.response) ? event.response : {};
    const error = isObject(response.error) ? response.error : {};
    const code = typeof error.code === "string" ? error.code : undefined;
    const message = typeof error.message === "string" ? error.message : "no error message";
    return new ProviderError({
      code: "provider-stream-error",
      provider: this.#providerName,
      message: `OpenAI response failed${code ? ` (${code})` : ""}: ${message}`,
      retryable: code !== undefined && retryableStreamCodes.has(code),
      requestId: this.#requestId,
    });
  }

  #error(event: JSONObject): ProviderError {
    const error = isObject(event.error) ? event.error : event;
    const code = typeof error.code === "string" ? error.code : undefined;
    const message = typeof error.message === "string" ? error.message : "no error message";
    return new ProviderError({
      code: "provider-stream-error",
      provider: this.#providerName,
      message: `OpenAI stream error${code ? ` (${code})` : ""}: ${message}`,
      retryable: code !== undefined && retryableStreamCodes.has(code),
      requestId: this.#requestId,
    });
  }

  /** The item an event refers to, by output_index or item_id; created when the stream skipped its added event. */
  #item(event: JSONObject, kind: "message" | "reasoning" | "function_call"): ItemState {
    let index = typeof event.output_index === "number" ? event.output_index : undefined;
    if (index === undefined && typeof event.item_id === "string")
      index = this.#indexByItemId.get(event.item_id);
    if (index === undefined) throw this.#invalid(`${event.type} without output_index or a known item_id`);
    const existing = this.#items.get(index);
    if (existing) return existing;
    if (kind === "function_call")
      throw this.#invalid(`${event.type} for output ${index}, which no function_call item announced`);
    const itemId = typeof event.item_id === "string" ? event.item_id : undefined;
    const created: ItemState =
      kind === "message" ? { kind, itemId, texts: [] } : { kind: "reasoning", itemId, summaries: [] };
    this.#items.set(index, created);
    return created;
  }

  #outputIndex(event: JSONObject): number {
    if (typeof event.output_index === "number") return event.output_index;
    throw this.#invalid(`${event.type} without a numeric output_index`);
  }

  #object(event: JSONObject, field: string): JSONObject {
    const value = event[field];
    if (isObject(value)) return value;
    throw this.#invalid(`${event.type} without an object "${field}"`);
  }

  #string(source: JSONObject, field: string, what?: string): string {
    const value = source[field];
    if (typeof value === "string") return value;
    throw this.#invalid(`${what ?? source.type} without a string "${field}" (got ${preview(value)})`);
  }

  #invalid(what: string): ProviderError {
    return new ProviderError({
      code: "provider-response-invalid",
      provider: this.#providerName,
      message: `OpenAI sent ${what}.`,
      requestId: this.#requestId,
    });
  }
}

/** Maps Responses API usage; counts OpenAI did not report stay absent. */
export function mapUsage(usage: unknown): Usage {
  if (!isObject(usage)) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const inputTokens = numberOr(usage.input_tokens, 0);
  const outputTokens = numberOr(usage.output_tokens, 0);
  const out: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: numberOr(usage.total_tokens, inputTokens + outputTokens),
  };
  const input = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const output = isObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  if (typeof input.cached_tokens === "number") out.cachedInputTokens = input.cached_tokens;
  if (typeof input.cache_write_tokens === "number") out.cacheWriteInputTokens = input.cache_write_tokens;
  if (typeof output.reasoning_tokens === "number") out.reasoningTokens = output.reasoning_tokens;
  return out;
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value))
      return { ok: false, error: `a JSON ${Array.isArray(value) ? "array" : typeof value}` };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function isObject(value: unknown): value is JSONObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
