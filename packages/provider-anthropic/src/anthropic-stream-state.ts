import { isRecord, toolCallInput } from "@junction/provider-utils";
import {
  type AssistantContentPart,
  type ModelStreamEvent,
  ProviderError,
  type ToolCallProgram,
  type ToolNameMapping,
  type Usage,
} from "@junction/types";
import { programOfCaller, programOfServerBlock } from "./anthropic-programmatic-tools.js";
import { mapAnthropicFinishReason } from "./map-anthropic-finish-reason.js";

type FinishEvent = Extract<ModelStreamEvent, { type: "finish" }>;
type ToolCallState = {
  kind: "tool-call";
  id: string;
  name: string;
  json: string;
  input: unknown;
  caller?: Record<string, unknown>;
  emitted: boolean;
};

type BlockState =
  | { kind: "text"; text: string }
  | { kind: "thinking"; text: string; signature?: string }
  | { kind: "redacted-thinking"; data: string }
  | { kind: "compaction"; block: Record<string, unknown> }
  /** A server tool's block (the tool search's `server_tool_use` and its result), kept whole to send back. */
  | { kind: "server"; block: Record<string, unknown>; json: string }
  | ToolCallState
  | { kind: "unsupported"; type: string };

interface WireUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  thinking?: number;
}

/**
 * Turns the Messages API's stream events (as the SDK parses them from SSE) into Junction's
 * neutral events. Pure and synchronous: feed each event to `push`, then call `finish` once
 * the stream has ended. Everything the server sends is checked; malformed events throw a
 * `ProviderError` naming what was wrong.
 *
 * A `message_start` may already carry whole content blocks and a `stop_reason` (programmatic
 * tool calling and other non-incremental messages): they count as blocks started and stopped
 * at once, and blocks streamed after them take the following indexes.
 */
export class AnthropicStreamState {
  readonly #toolNames: ToolNameMapping;
  readonly #providerName: string;
  readonly #blocks = new Map<number, BlockState>();
  readonly #usage: WireUsage = {};
  #responseId: string | undefined;
  #stopReason: string | undefined;
  /** The code execution container of the turn (`message_start` or `message_delta`), kept with its code's calls. */
  #container: Record<string, unknown> | undefined;
  #started = false;
  #stopped = false;
  #warnedCitations = false;
  /** The code of the programs the conversation sent holds, by `server_tool_use` id. */
  readonly #programSources: ReadonlyMap<string, string>;

  constructor(options: {
    toolNames: ToolNameMapping;
    providerName: string;
    /**
     * The code of the programs of the conversation sent, by `server_tool_use` id
     * (`programSourcesOf`): a call of a program an earlier turn started gets its source from there.
     */
    programSources?: ReadonlyMap<string, string>;
  }) {
    this.#toolNames = options.toolNames;
    this.#providerName = options.providerName;
    this.#programSources = options.programSources ?? new Map();
  }

  /** Processes one wire event; returns the neutral events it produces, in order. */
  push(event: unknown): ModelStreamEvent[] {
    if (!isRecord(event) || typeof event.type !== "string") {
      throw this.#invalid(`a stream event is not an object with a "type": ${preview(event)}`);
    }
    switch (event.type) {
      case "message_start":
        return this.#messageStart(event);
      case "content_block_start": {
        this.#requireStarted(event.type);
        const index = this.#index(event);
        if (this.#blocks.has(index))
          throw this.#invalid(`content_block_start for block ${index}, which exists`);
        return this.#startBlock(index, event.content_block, "content_block_start");
      }
      case "content_block_delta":
        return this.#blockDelta(event);
      case "content_block_stop":
        return this.#blockStop(event);
      case "message_delta":
        this.#requireStarted(event.type);
        // A null stop_reason leaves one that message_start already gave.
        if (isRecord(event.delta) && typeof event.delta.stop_reason === "string") {
          this.#stopReason = event.delta.stop_reason;
        }
        if (isRecord(event.delta)) this.#readContainer(event.delta.container);
        this.#readUsage(event.usage);
        return [];
      case "message_stop":
        this.#requireStarted(event.type);
        this.#stopped = true;
        return this.#flushToolCalls();
      case "ping":
        return [];
      default:
        // Anthropic may add event types; its versioning policy asks clients to ignore unknown ones.
        return [];
    }
  }

  /** The final `finish` event. Throws when the stream ended before `message_stop`. */
  finish(): ModelStreamEvent[] {
    if (!this.#stopped) {
      throw new ProviderError({
        code: "provider-stream-error",
        provider: this.#providerName,
        message: this.#started
          ? "The Anthropic stream ended before message_stop: the response is incomplete."
          : "The Anthropic stream ended without any message.",
        retryable: true,
      });
    }
    const event: FinishEvent = {
      type: "finish",
      reason: mapAnthropicFinishReason(this.#stopReason),
      usage: this.#buildUsage(),
      content: this.#buildContent(),
    };
    if (typeof this.#stopReason === "string") event.rawReason = this.#stopReason;
    if (this.#responseId !== undefined) event.responseId = this.#responseId;
    return [event];
  }

  #messageStart(event: Record<string, unknown>): ModelStreamEvent[] {
    const message = event.message;
    if (!isRecord(message)) throw this.#invalid("message_start has no message object");
    this.#started = true;
    if (typeof message.id === "string") this.#responseId = message.id;
    if (typeof message.stop_reason === "string") this.#stopReason = message.stop_reason;
    this.#readContainer(message.container);
    this.#readUsage(message.usage);
    const content = message.content ?? [];
    if (!Array.isArray(content))
      throw this.#invalid(`message_start content is not an array: ${preview(content)}`);
    // Blocks that arrive whole: started and stopped at once, tool calls announced complete. A
    // repeated message_start (some proxies send one twice) does not repeat blocks already read.
    return content.flatMap((block, index) =>
      this.#blocks.has(index)
        ? []
        : [...this.#startBlock(index, block, "message_start content"), ...this.#stopBlock(index)],
    );
  }

  #startBlock(index: number, block: unknown, where: string): ModelStreamEvent[] {
    if (!isRecord(block) || typeof block.type !== "string") {
      throw this.#invalid(`${where} block ${index} has no type`);
    }
    switch (block.type) {
      case "text": {
        const text = typeof block.text === "string" ? block.text : "";
        this.#blocks.set(index, { kind: "text", text });
        return text ? [{ type: "text-delta", text }] : [];
      }
      case "thinking": {
        const text = typeof block.thinking === "string" ? block.thinking : "";
        const state: BlockState = { kind: "thinking", text };
        if (typeof block.signature === "string" && block.signature) state.signature = block.signature;
        this.#blocks.set(index, state);
        return text ? [{ type: "reasoning-delta", text }] : [];
      }
      case "redacted_thinking":
        if (typeof block.data !== "string")
          throw this.#invalid(`redacted_thinking block ${index} has no data`);
        this.#blocks.set(index, { kind: "redacted-thinking", data: block.data });
        return [];
      case "compaction":
        // Kept whole and sent back unchanged: its signature covers the fields as they are.
        this.#blocks.set(index, { kind: "compaction", block: { ...block } });
        return [];
      case "server_tool_use":
      case "tool_search_tool_result":
      case "code_execution_tool_result":
      case "bash_code_execution_tool_result":
      case "text_editor_code_execution_tool_result":
        // Anthropic's tool search and its code execution (whose code calls tools, programmatic
        // tool calling; code_execution_20250825 also runs bash and edits files) ran on its side:
        // their calls and results go back unchanged on the next turn. Other server tools (web
        // search, web fetch) are not carried.
        if (block.type !== "server_tool_use" || KEPT_SERVER_TOOLS.has(String(block.name))) {
          this.#blocks.set(index, { kind: "server", block: { ...block }, json: "" });
          return [];
        }
        return this.#unsupported(index, block.type);
      case "tool_use": {
        if (typeof block.id !== "string" || block.id === "") {
          throw this.#invalid(`tool_use block ${index} has no id`);
        }
        if (typeof block.name !== "string" || block.name === "") {
          throw this.#invalid(`tool_use block ${index} (${block.id}) has no name`);
        }
        const name = this.#toolNames.fromVendor(block.name);
        const state: ToolCallState = {
          kind: "tool-call",
          id: block.id,
          name,
          json: "",
          input: block.input,
          emitted: false,
        };
        if (isRecord(block.caller) && block.caller.type !== "direct") state.caller = block.caller;
        this.#blocks.set(index, state);
        return [{ type: "tool-call-start", id: block.id, name }];
      }
      default:
        return this.#unsupported(index, block.type);
    }
  }

  #unsupported(index: number, type: string): ModelStreamEvent[] {
    this.#blocks.set(index, { kind: "unsupported", type });
    return [
      warning(
        "response-block-unsupported",
        `Anthropic sent a "${type}" content block, which Junction does not carry; it was left out of the turn.`,
      ),
    ];
  }

  #blockDelta(event: Record<string, unknown>): ModelStreamEvent[] {
    this.#requireStarted("content_block_delta");
    const index = this.#index(event);
    const state = this.#blocks.get(index);
    if (!state) throw this.#invalid(`content_block_delta for block ${index}, which was never started`);
    const delta = event.delta;
    if (!isRecord(delta) || typeof delta.type !== "string") {
      throw this.#invalid(`content_block_delta ${index} has no delta with a type`);
    }
    // The block was already reported as left out when it started.
    if (state.kind === "unsupported") return [];
    switch (delta.type) {
      case "text_delta": {
        if (state.kind !== "text") throw this.#mismatch(delta.type, index, state);
        const text = this.#string(delta.text, "text_delta.text");
        state.text += text;
        return text ? [{ type: "text-delta", text }] : [];
      }
      case "thinking_delta": {
        if (state.kind !== "thinking") throw this.#mismatch(delta.type, index, state);
        const text = this.#string(delta.thinking, "thinking_delta.thinking");
        state.text += text;
        return text ? [{ type: "reasoning-delta", text }] : [];
      }
      case "signature_delta":
        if (state.kind === "compaction") {
          state.block.signature = this.#string(delta.signature, "signature_delta.signature");
          return [];
        }
        if (state.kind !== "thinking") throw this.#mismatch(delta.type, index, state);
        state.signature =
          (state.signature ?? "") + this.#string(delta.signature, "signature_delta.signature");
        return [];
      case "compaction_delta":
        if (state.kind !== "compaction") throw this.#mismatch(delta.type, index, state);
        // The delta carries the block's final value (null content: a failed compaction), as the SDK reads it.
        if ("content" in delta) state.block.content = delta.content;
        if ("encrypted_content" in delta) state.block.encrypted_content = delta.encrypted_content;
        return [];
      case "input_json_delta": {
        if (state.kind === "server") {
          state.json += this.#string(delta.partial_json, "input_json_delta.partial_json");
          return [];
        }
        if (state.kind !== "tool-call") throw this.#mismatch(delta.type, index, state);
        const json = this.#string(delta.partial_json, "input_json_delta.partial_json");
        state.json += json;
        return json ? [{ type: "tool-call-delta", id: state.id, argumentsDelta: json }] : [];
      }
      case "citations_delta":
        if (this.#warnedCitations) return [];
        this.#warnedCitations = true;
        return [
          warning(
            "response-citations-unsupported",
            "Anthropic sent citations, which Junction does not carry; the cited text is kept.",
          ),
        ];
      default:
        return [
          warning(
            "response-delta-unsupported",
            `Anthropic sent a "${delta.type}" delta, which Junction does not carry; it was left out.`,
          ),
        ];
    }
  }

  #blockStop(event: Record<string, unknown>): ModelStreamEvent[] {
    this.#requireStarted("content_block_stop");
    return this.#stopBlock(this.#index(event));
  }

  #stopBlock(index: number): ModelStreamEvent[] {
    const state = this.#blocks.get(index);
    if (!state) throw this.#invalid(`content_block_stop for block ${index}, which was never started`);
    return state.kind === "tool-call" ? this.#emitToolCall(state) : [];
  }

  #flushToolCalls(): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    for (const state of this.#blocks.values()) {
      if (state.kind === "tool-call") events.push(...this.#emitToolCall(state));
    }
    return events;
  }

  #emitToolCall(state: ToolCallState): ModelStreamEvent[] {
    if (state.emitted) return [];
    state.emitted = true;
    const events: ModelStreamEvent[] = [];
    if (state.json.trim() === "") {
      // A tool without streamed arguments: the start block's input (whole, or {}) is the input.
      state.input = isRecord(state.input) ? state.input : {};
    } else {
      const { input, warning: invalid } = toolCallInput({
        text: state.json,
        id: state.id,
        name: state.name,
        provider: "Anthropic",
      });
      state.input = input;
      if (invalid) events.push({ type: "warning", warning: invalid });
    }
    const metadata = state.caller
      ? { providerMetadata: { [this.#providerName]: { caller: state.caller } } }
      : {};
    events.push({
      type: "tool-call",
      id: state.id,
      name: state.name,
      input: state.input,
      ...this.#programOf(state),
      ...metadata,
    });
    return events;
  }

  /** The program that made a call (its caller), with its code from this turn or the conversation sent. */
  #programOf(state: ToolCallState): { program?: ToolCallProgram } {
    const program = programOfCaller(state.caller, (id) => this.#programSource(id));
    return program ? { program } : {};
  }

  /** The code of program `id`: its `server_tool_use` block of this turn, else the conversation's. */
  #programSource(id: string): string | undefined {
    for (const block of this.#blocks.values()) {
      if (block.kind !== "server") continue;
      const program = programOfServerBlock(serverBlock(block));
      if (program?.id === id) return program.code;
    }
    return this.#programSources.get(id);
  }

  #buildContent(): AssistantContentPart[] {
    const content: AssistantContentPart[] = [];
    const indexes = [...this.#blocks.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const state = this.#blocks.get(index)!;
      switch (state.kind) {
        case "text":
          if (state.text !== "") content.push({ type: "text", text: state.text });
          break;
        case "thinking":
          content.push({
            type: "reasoning",
            text: state.text,
            ...(state.signature !== undefined ? this.#metadata({ signature: state.signature }) : {}),
          });
          break;
        case "redacted-thinking":
          content.push({ type: "reasoning", text: "", ...this.#metadata({ redactedData: state.data }) });
          break;
        case "compaction":
          content.push({ type: "reasoning", text: "", ...this.#metadata({ compaction: state.block }) });
          break;
        case "server":
          content.push({
            type: "reasoning",
            text: "",
            ...this.#metadata({ serverBlock: serverBlock(state) }),
          });
          break;
        case "tool-call":
          content.push({
            type: "tool-call",
            id: state.id,
            name: state.name,
            input: state.input,
            ...this.#programOf(state),
            ...(state.caller
              ? this.#metadata({
                  caller: state.caller,
                  ...(this.#container ? { container: this.#container } : {}),
                })
              : {}),
          });
          break;
        case "unsupported":
          break;
        default: {
          const unknown: never = state;
          throw this.#invalid(`unknown block state ${JSON.stringify(unknown)}`);
        }
      }
    }
    return content;
  }

  #metadata(fields: Record<string, unknown>) {
    return { providerMetadata: { [this.#providerName]: fields } };
  }

  #buildUsage(): Usage {
    const { input = 0, output = 0, cacheRead, cacheWrite, thinking } = this.#usage;
    // Anthropic's input_tokens leaves out cache reads and writes; Junction's inputTokens includes them.
    const inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    const usage: Usage = { inputTokens, outputTokens: output, totalTokens: inputTokens + output };
    if (cacheRead !== undefined) usage.cachedInputTokens = cacheRead;
    if (cacheWrite !== undefined) usage.cacheWriteInputTokens = cacheWrite;
    if (thinking !== undefined) usage.reasoningTokens = thinking;
    return usage;
  }

  #readContainer(value: unknown): void {
    if (value === undefined || value === null) return;
    if (!isRecord(value) || typeof value.id !== "string" || value.id === "") {
      throw this.#invalid(`container is not an object with an id: ${preview(value)}`);
    }
    this.#container = { ...value };
  }

  #readUsage(value: unknown): void {
    if (value === undefined || value === null) return;
    if (!isRecord(value)) throw this.#invalid(`usage is not an object: ${preview(value)}`);
    // message_delta counts are cumulative: a later number replaces an earlier one.
    const read = (key: string): number | undefined => {
      const count = value[key];
      if (count === undefined || count === null) return undefined;
      if (typeof count !== "number" || !Number.isFinite(count) || count < 0) {
        throw this.#invalid(`usage.${key} is not a token count: ${preview(count)}`);
      }
      return count;
    };
    const input = read("input_tokens");
    const output = read("output_tokens");
    const cacheRead = read("cache_read_input_tokens");
    const cacheWrite = read("cache_creation_input_tokens");
    if (input !== undefined) this.#usage.input = input;
    if (output !== undefined) this.#usage.output = output;
    if (cacheRead !== undefined) this.#usage.cacheRead = cacheRead;
    if (cacheWrite !== undefined) this.#usage.cacheWrite = cacheWrite;
    const details = value.output_tokens_details;
    if (isRecord(details) && typeof details.thinking_tokens === "number") {
      this.#usage.thinking = details.thinking_tokens;
    }
  }

  #requireStarted(type: string): void {
    if (!this.#started) throw this.#invalid(`${type} arrived before message_start`);
  }

  #index(event: Record<string, unknown>): number {
    const index = event.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) {
      throw this.#invalid(`${String(event.type)} has no valid block index: ${preview(index)}`);
    }
    return index;
  }

  #string(value: unknown, what: string): string {
    if (typeof value !== "string") throw this.#invalid(`${what} is not a string: ${preview(value)}`);
    return value;
  }

  #mismatch(deltaType: string, index: number, state: BlockState): ProviderError {
    return this.#invalid(`a ${deltaType} arrived for block ${index}, which is a ${state.kind} block`);
  }

  #invalid(detail: string): ProviderError {
    return new ProviderError({
      code: "provider-response-invalid",
      provider: this.#providerName,
      message: `Invalid Anthropic stream: ${detail}.`,
    });
  }
}

function warning(code: string, message: string): ModelStreamEvent {
  return { type: "warning", warning: { code, message } };
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** The server tools whose blocks a turn keeps: the tool search, and the code execution that calls tools. */
const KEPT_SERVER_TOOLS = new Set([
  "tool_search_tool_bm25",
  "tool_search_tool_regex",
  "code_execution",
  "bash_code_execution",
  "text_editor_code_execution",
]);

/** A server block as it goes back: a `server_tool_use`'s streamed input parsed into `input`. */
function serverBlock(state: { block: Record<string, unknown>; json: string }): Record<string, unknown> {
  if (state.block.type !== "server_tool_use" || state.json === "") return state.block;
  try {
    return { ...state.block, input: JSON.parse(state.json) };
  } catch {
    // Anthropic's own JSON for its own tool: if it is broken, send what it started the block with.
    return state.block;
  }
}
