import { isRecord, toolCallInput } from "@junction/provider-utils";
import {
  type AssistantContentPart,
  type ModelStreamEvent,
  ProviderError,
  type ToolCallProgram,
  type ToolNameMapping,
} from "@junction/types";
import type { OpenAIMCPApprovalRequest, OpenAIPartMetadata } from "./convert-to-openai-messages.js";
import { openAIStreamError } from "./map-openai-error.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import {
  type OpenAIProgramCaller,
  type OpenAIProgramItem,
  type OpenAIProgramOutputItem,
  PROGRAMMATIC_RUNTIME,
  programItemFault,
  programOutputItemFault,
  readCaller,
} from "./openai-programmatic-tools.js";
import { openAIProviderName } from "./openai-settings.js";

type ItemState =
  | { kind: "message"; itemId?: string; phase?: string; texts: string[] }
  | {
      kind: "reasoning";
      itemId?: string;
      summaries: string[];
      /** The item's own reasoning text (`content` of type `reasoning_text`), by content index. */
      texts: string[];
      encryptedContent?: string;
    }
  | {
      kind: "function_call";
      itemId?: string;
      callId: string;
      vendorName: string;
      /** The namespace the function was loaded in (OpenAI's tool search), sent back with the call. */
      namespace?: string;
      arguments: string;
      started: boolean;
      emitted: boolean;
      /** The parsed input, once the call was emitted. */
      input?: unknown;
      /** The program that made the call (Programmatic Tool Calling); absent when the model did. */
      caller?: OpenAIProgramCaller;
    }
  | { kind: "mcp_approval_request"; request: OpenAIMCPApprovalRequest; reported: boolean }
  /** OpenAI's hosted tool search (`tool_search_call`, `tool_search_output`), kept whole to send back. */
  | { kind: "tool_search"; item: JSONObject }
  /** Programmatic Tool Calling: the program the model wrote (kept whole; final once `done`). */
  | { kind: "program"; item: JSONObject; done: boolean }
  /** A finished program's result, kept whole. */
  | { kind: "program_output"; item: OpenAIProgramOutputItem }
  | { kind: "other"; type: string };

type JSONObject = Record<string, unknown>;

/**
 * Turns Responses API stream events into Junction's neutral events. Pure and synchronous:
 * feed it each parsed event with `push`, then call `finish` when the stream ends; it validates
 * what it reads (the stream is untrusted input) and throws a `ProviderError` naming the event
 * and field when something is malformed, or when the response failed.
 *
 * Hosted MCP approval requests (`mcp_approval_request` items) are never answered here: each
 * one is kept in the turn's content (see `OpenAIPartMetadata.mcpApprovalRequest`) and reported
 * with an `mcp-approval-requested` warning that says how to answer it.
 *
 * Programmatic Tool Calling: `program` and `program_output` items are kept whole for the next
 * request; the function calls a program makes are ordinary tool calls with their `caller` in
 * provider metadata, and name their program (its `call_id` and code) in the part's `program`. A
 * caller must name a program of this response or of the conversation (`programs`), else the
 * stream is refused, naming it.
 */
export class OpenAIStreamState {
  /** The response id from `response.created`, once seen. */
  responseId: string | undefined;
  /** The refusal text the model streamed, apart from its answer text. */
  refusal: string | undefined;
  /** True once `response.completed` or `response.incomplete` produced the `finish` event. */
  finished = false;

  readonly #toolNames: ToolNameMapping;
  readonly #providerName = openAIProviderName;
  readonly #requestId: string | undefined;
  readonly #items = new Map<number, ItemState>();
  readonly #indexByItemId = new Map<string, number>();
  /** The `call_id` of every program a call may name as its caller: the conversation's, then this response's. */
  readonly #programs: Set<string>;
  /** The code of the conversation's programs, by `call_id`. */
  readonly #conversationPrograms: ReadonlyMap<string, string>;

  constructor(options: {
    toolNames: ToolNameMapping;
    requestId?: string;
    /**
     * The programs of the conversation sent (`program` items' code, by `call_id`), which this
     * response may go on with.
     */
    programs?: ReadonlyMap<string, string>;
  }) {
    this.#toolNames = options.toolNames;
    this.#requestId = options.requestId;
    this.#conversationPrograms = options.programs ?? new Map();
    this.#programs = new Set(this.#conversationPrograms.keys());
  }

  /**
   * The events that end the stream. `push` already produced the `finish` event when
   * `response.completed` or `response.incomplete` arrived; a stream that ended without one
   * was cut short, and this throws a retryable `provider-stream-error`.
   */
  finish(): ModelStreamEvent[] {
    if (this.finished) return [];
    throw new ProviderError({
      code: "provider-stream-error",
      provider: this.#providerName,
      message: "The OpenAI stream ended before response.completed.",
      retryable: true,
      requestId: this.#requestId,
    });
  }

  /** Maps one stream event; returns the neutral events it produces (often none). */
  push(event: unknown): ModelStreamEvent[] {
    if (this.finished) return [];
    if (!isRecord(event) || typeof event.type !== "string")
      throw this.#invalid(`a stream event without a type: ${preview(event)}`);
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued":
        if (isRecord(event.response) && typeof event.response.id === "string")
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
        if (event.type === "response.refusal.delta") this.refusal = (this.refusal ?? "") + delta;
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
      case "response.reasoning_text.delta":
        return this.#reasoningText(event, this.#string(event, "delta"), "delta");
      case "response.reasoning_text.done":
        return this.#reasoningText(event, this.#string(event, "text"), "done");
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

  /**
   * Reasoning text as LM Studio and other compatible servers stream it (`reasoning_text`
   * deltas, then a `done` event with the whole text of that content part). A `done` event adds
   * whatever the deltas did not already carry, so a server that sends only `done` still streams.
   */
  #reasoningText(event: JSONObject, text: string, kind: "delta" | "done"): ModelStreamEvent[] {
    const item = this.#item(event, "reasoning");
    if (item.kind !== "reasoning") return [];
    const contentIndex = typeof event.content_index === "number" ? event.content_index : 0;
    const current = item.texts[contentIndex];
    let delta = text;
    if (kind === "done") {
      item.texts[contentIndex] = text;
      if (current !== undefined && !text.startsWith(current)) return [];
      delta = text.slice(current?.length ?? 0);
    } else {
      item.texts[contentIndex] = (current ?? "") + text;
    }
    const events: ModelStreamEvent[] = [];
    // Separate content parts (and summaries before them) as paragraphs, as summaries are.
    if (current === undefined && delta && (contentIndex > 0 || item.summaries.length > 0))
      events.push({ type: "reasoning-delta", text: "\n\n" });
    if (delta) events.push({ type: "reasoning-delta", text: delta });
    return events;
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
        this.#items.set(index, { kind: "reasoning", itemId, summaries: [], texts: [] });
        return [];
      case "mcp_approval_request":
        return this.#approvalRequest(index, item);
      case "tool_search_call":
      case "tool_search_output":
        return this.#toolSearchItem(index, item);
      case "program":
      case "program_output":
        return this.#programItem(index, item, false);
      case "function_call": {
        const callId = this.#string(item, "call_id", "function_call item");
        const state: ItemState = {
          kind: "function_call",
          itemId,
          callId,
          vendorName: this.#string(item, "name", "function_call item"),
          ...namespaceOf(item),
          ...this.#callerOf(item, callId),
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
              isRecord(part) && typeof part.text === "string"
                ? part.text
                : isRecord(part) && typeof part.refusal === "string"
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
          ? item.summary.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
          : undefined;
        const texts = Array.isArray(item.content)
          ? item.content.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
          : undefined;
        const state =
          known?.kind === "reasoning" ? known : { kind: "reasoning" as const, summaries: [], texts: [] };
        this.#items.set(index, {
          ...state,
          itemId: itemId ?? state.itemId,
          summaries: summaries ?? state.summaries,
          texts: texts && texts.length > 0 ? texts : state.texts,
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
          const callId = this.#string(item, "call_id", "function_call item");
          state = {
            kind: "function_call",
            itemId,
            callId,
            vendorName: this.#string(item, "name", "function_call item"),
            ...namespaceOf(item),
            ...this.#callerOf(item, callId),
            arguments: "",
            started: false,
            emitted: false,
          };
          this.#items.set(index, state);
        } else if (!state.caller) {
          // The final item is the one to trust for who made the call.
          Object.assign(state, this.#callerOf(item, state.callId));
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
      case "mcp_approval_request":
        return this.#approvalRequest(index, item);
      case "tool_search_call":
      case "tool_search_output":
        return this.#toolSearchItem(index, item);
      case "program":
      case "program_output":
        return this.#programItem(index, item, true);
      default:
        return [];
    }
  }

  /**
   * A `program` item (from `.added`, then final from `.done`) or a `program_output` item. The
   * program is known from its first event on, so the calls it makes (which follow it) can name
   * it; both are checked whole (ids, code, fingerprint as strings, which Junction never reads
   * into) and kept unchanged for the next request.
   */
  #programItem(index: number, item: JSONObject, done: boolean): ModelStreamEvent[] {
    if (item.type === "program") {
      const callId = this.#string(item, "call_id", "program item");
      if (done) this.#check(programItemFault(item));
      this.#programs.add(callId);
      this.#items.set(index, { kind: "program", item: { ...item }, done });
      return [];
    }
    this.#check(programOutputItemFault(item));
    const output = { ...item } as OpenAIProgramOutputItem;
    if (!this.#programs.has(output.call_id))
      throw this.#invalid(
        `a program_output item for program "${output.call_id}", which is in neither this response nor the conversation`,
      );
    this.#items.set(index, { kind: "program_output", item: output });
    return [];
  }

  /** A function call's `caller`, read and checked: a program must be one this response or the conversation has. */
  #callerOf(item: JSONObject, callId: string): { caller?: OpenAIProgramCaller } {
    const { caller, fault } = readCaller(item.caller);
    if (fault) throw this.#invalid(`a function_call item "${callId}" with ${fault}`);
    if (!caller) return {};
    if (!this.#programs.has(caller.caller_id))
      throw this.#invalid(
        `a function_call item "${callId}" whose caller names program "${caller.caller_id}", which is in neither this response nor the conversation`,
      );
    return { caller };
  }

  #check(fault: string | undefined): void {
    if (fault) throw this.#invalid(fault);
  }

  /**
   * OpenAI's hosted tool search ran on its side: its call and output (the definitions it loaded)
   * go back unchanged on the next request, so the tools it found stay loaded. Kept from `.added`
   * and replaced by `.done`, which is final. A search the client was to run is not Junction's
   * (it never asks for one) and is left out with a warning.
   */
  #toolSearchItem(index: number, item: JSONObject): ModelStreamEvent[] {
    if (item.execution === "client") {
      if (this.#items.get(index)?.kind === "other") return [];
      this.#items.set(index, { kind: "other", type: String(item.type) });
      return [
        {
          type: "warning",
          warning: {
            code: "output-item-unsupported",
            message: `OpenAI returned a client-executed ${String(item.type)} item, which Junction does not run (it asks only for OpenAI's hosted search); it is left out of the turn.`,
          },
        },
      ];
    }
    this.#items.set(index, { kind: "tool_search", item: { ...item } });
    return [];
  }

  /**
   * A hosted MCP server's request for approval, from `output_item.added` or `.done` (whichever
   * comes first; both carry the whole request). Kept for the turn's content and reported once.
   */
  #approvalRequest(index: number, item: JSONObject): ModelStreamEvent[] {
    const what = "mcp_approval_request item";
    const request: OpenAIMCPApprovalRequest = {
      id: this.#string(item, "id", what),
      serverLabel: this.#string(item, "server_label", what),
      name: this.#string(item, "name", what),
      arguments: typeof item.arguments === "string" ? item.arguments : "",
    };
    const known = this.#items.get(index);
    if (known?.kind === "mcp_approval_request" && known.reported) return [];
    this.#items.set(index, { kind: "mcp_approval_request", request, reported: true });
    return [
      {
        type: "warning",
        warning: {
          code: "mcp-approval-requested",
          message: `OpenAI's hosted MCP server "${request.serverLabel}" asks for approval to run its tool "${request.name}" with arguments ${preview(request.arguments)} (approval request ${request.id}). Junction never approves it on its own: the request is kept in the turn's content (providerMetadata.openai.mcpApprovalRequest). To answer, set providerMetadata.openai.mcpApprovalResponse to { approve: true } or { approve: false, reason } on that part and send the conversation again; it goes to OpenAI as an mcp_approval_response item.`,
        },
      },
    ];
  }

  #emitToolCall(item: Extract<ItemState, { kind: "function_call" }>): ModelStreamEvent[] {
    if (item.emitted) return [];
    item.emitted = true;
    const name = this.#toolNames.fromVendor(item.vendorName);
    const { input, warning: invalid } = toolCallInput({
      text: item.arguments,
      id: item.callId,
      name,
      provider: "OpenAI",
    });
    const events: ModelStreamEvent[] = invalid ? [{ type: "warning", warning: invalid }] : [];
    item.input = input;
    events.push({
      type: "tool-call",
      id: item.callId,
      name,
      input: item.input,
      ...this.#programOf(item),
      ...this.#metadata(callMetadata(item)),
    });
    return events;
  }

  /** The program that made a call (its caller), with its code from this response or the conversation sent. */
  #programOf(item: { caller?: OpenAIProgramCaller }): { program?: ToolCallProgram } {
    if (!item.caller) return {};
    const id = item.caller.caller_id;
    const source = this.#programSource(id);
    return { program: { id, runtime: PROGRAMMATIC_RUNTIME, ...(source !== undefined ? { source } : {}) } };
  }

  /** The code of program `id`: its `program` item of this response (as last sent), else the conversation's. */
  #programSource(id: string): string | undefined {
    for (const item of this.#items.values())
      if (item.kind === "program" && item.item.call_id === id && typeof item.item.code === "string")
        return item.item.code;
    return this.#conversationPrograms.get(id);
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
      isRecord(response.incomplete_details) && typeof response.incomplete_details.reason === "string"
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
      usage: mapOpenAIUsage(response.usage),
      content,
      ...(this.responseId ? { responseId: this.responseId } : {}),
      ...(this.refusal !== undefined ? { refusal: this.refusal } : {}),
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
          const metadata: OpenAIPartMetadata = {};
          if (item.itemId) metadata.itemId = item.itemId;
          if (item.phase) metadata.phase = item.phase;
          content.push({ type: "text", text, ...this.#metadata(metadata) });
          break;
        }
        case "reasoning": {
          // One part per summary, then one per reasoning text; an item with neither still
          // needs a part, to echo its id and encrypted content.
          const texts = [...item.texts].map((text) => text ?? "");
          const summaries = item.summaries.length > 0 || texts.length === 0 ? [...item.summaries] : [];
          if (summaries.length === 0 && texts.length === 0) summaries.push("");
          const parts = [
            ...summaries.map((text) => ({ text: text ?? "", reasoningText: false })),
            ...texts.map((text) => ({ text, reasoningText: true })),
          ];
          parts.forEach((part, partIndex) => {
            const metadata: OpenAIPartMetadata = {};
            if (item.itemId) metadata.itemId = item.itemId;
            if (partIndex === 0 && item.encryptedContent) metadata.encryptedContent = item.encryptedContent;
            if (part.reasoningText) metadata.reasoningText = true;
            content.push({ type: "reasoning", text: part.text, ...this.#metadata(metadata) });
          });
          break;
        }
        case "mcp_approval_request":
          // Nothing for the model to say: the part only carries the request, for the caller.
          content.push({ type: "text", text: "", ...this.#metadata({ mcpApprovalRequest: item.request }) });
          break;
        case "function_call":
          if (!item.emitted) break;
          content.push({
            type: "tool-call",
            id: item.callId,
            name: this.#toolNames.fromVendor(item.vendorName),
            input: item.input,
            ...this.#programOf(item),
            ...this.#metadata(callMetadata(item)),
          });
          break;
        case "tool_search":
          // Nothing for the model to say: the part only carries the item, to send back.
          content.push({ type: "reasoning", text: "", ...this.#metadata({ toolSearchItem: item.item }) });
          break;
        case "program":
          // A program whose done event never came must still be whole to be sent back.
          if (!item.done) this.#check(programItemFault(item.item));
          content.push({
            type: "reasoning",
            text: "",
            ...this.#metadata({ programItem: item.item as OpenAIProgramItem }),
          });
          break;
        case "program_output":
          content.push({ type: "reasoning", text: "", ...this.#metadata({ programOutputItem: item.item }) });
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

  #metadata(metadata: OpenAIPartMetadata): {
    providerMetadata?: Record<string, Record<string, unknown>>;
  } {
    return Object.keys(metadata).length > 0
      ? { providerMetadata: { [this.#providerName]: { ...metadata } } }
      : {};
  }

  #failed(event: JSONObject): ProviderError {
    const response = isRecord(event.response) ? event.response : {};
    const error = isRecord(response.error) ? response.error : {};
    return openAIStreamError("OpenAI response failed", error, { requestId: this.#requestId });
  }

  #error(event: JSONObject): ProviderError {
    return openAIStreamError("OpenAI stream error", isRecord(event.error) ? event.error : event, {
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
    if (itemId) this.#indexByItemId.set(itemId, index);
    const created: ItemState =
      kind === "message"
        ? { kind, itemId, texts: [] }
        : { kind: "reasoning", itemId, summaries: [], texts: [] };
    this.#items.set(index, created);
    return created;
  }

  #outputIndex(event: JSONObject): number {
    if (typeof event.output_index === "number") return event.output_index;
    throw this.#invalid(`${event.type} without a numeric output_index`);
  }

  #object(event: JSONObject, field: string): JSONObject {
    const value = event[field];
    if (isRecord(value)) return value;
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

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** The namespace a function call names, when it names one. */
function namespaceOf(item: JSONObject): { namespace?: string } {
  return typeof item.namespace === "string" && item.namespace !== "" ? { namespace: item.namespace } : {};
}

/** What a function call needs sent back: its item id, namespace and caller. */
function callMetadata(item: {
  itemId?: string;
  namespace?: string;
  caller?: OpenAIProgramCaller;
}): OpenAIPartMetadata {
  return {
    ...(item.itemId ? { itemId: item.itemId } : {}),
    ...(item.namespace ? { namespace: item.namespace } : {}),
    ...(item.caller ? { caller: { ...item.caller } } : {}),
  };
}
