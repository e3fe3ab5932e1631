import { isRecord, toolCallInput } from "@junction/provider-utils";
import {
  type AssistantContentPart,
  type ModelStreamEvent,
  ProviderError,
  type ToolNameMapping,
  type Usage,
} from "@junction/types";
import { base64FromBytes } from "./bedrock-base64.js";
import type { BedrockReasoningMetadata } from "./bedrock-metadata.js";
import { mapBedrockFinishReason } from "./map-bedrock-finish-reason.js";

type FinishEvent = Extract<ModelStreamEvent, { type: "finish" }>;
type ToolCallState = {
  kind: "tool-call";
  id: string;
  name: string;
  json: string;
  input: unknown;
  emitted: boolean;
};
type BlockState =
  | { kind: "text"; text: string }
  | { kind: "reasoning"; text: string; signature?: string; redacted?: Uint8Array }
  | ToolCallState
  | { kind: "unsupported" };

/** The exceptions ConverseStream may send inside a 200 stream, and whether trying again may help. */
export const bedrockStreamExceptions: Record<string, { name: string; retryable: boolean }> = {
  internalServerException: { name: "InternalServerException", retryable: true },
  modelStreamErrorException: { name: "ModelStreamErrorException", retryable: true },
  serviceUnavailableException: { name: "ServiceUnavailableException", retryable: true },
  throttlingException: { name: "ThrottlingException", retryable: true },
  validationException: { name: "ValidationException", retryable: false },
};

/**
 * Turns ConverseStream events (as the AWS SDK decodes them from the event stream: one object
 * per event, keyed by its type) into Junction's neutral events. Pure and synchronous: feed each
 * event to `push`, then call `finish` once the stream has ended. Everything the server sends is
 * checked; malformed events throw a `ProviderError` naming what was wrong.
 *
 * Text and reasoning blocks start with their first delta (Bedrock sends no `contentBlockStart`
 * for them); tool calls start with `contentBlockStart` and are complete at `contentBlockStop`,
 * or at `messageStop` for any still open. Usage arrives in `metadata`, after `messageStop`.
 */
export class BedrockStreamState {
  readonly #toolNames: ToolNameMapping;
  readonly #blocks = new Map<number, BlockState>();
  #usage: Record<string, unknown> | undefined;
  #stopReason: string | undefined;
  #started = false;
  #stopped = false;
  #warnedCitations = false;

  constructor(options: { toolNames: ToolNameMapping }) {
    this.#toolNames = options.toolNames;
  }

  /** Processes one wire event; returns the neutral events it produces, in order. */
  push(event: unknown): ModelStreamEvent[] {
    if (!isRecord(event)) throw invalid(`a stream event is not an object: ${preview(event)}`);
    const [type, ...others] = Object.keys(event).filter((key) => event[key] !== undefined);
    if (type === undefined || others.length > 0) {
      throw invalid(`a stream event has no single type: ${preview(event)}`);
    }
    const payload = event[type];
    const exception = bedrockStreamExceptions[type];
    if (exception) {
      const message = isRecord(payload) && typeof payload.message === "string" ? payload.message : undefined;
      throw new ProviderError({
        code: "provider-stream-error",
        provider: "bedrock",
        message: `Bedrock sent an error inside the stream (${exception.name}${message ? `: ${message}` : ""}).`,
        retryable: exception.retryable,
      });
    }
    if (type === "$unknown") return [];
    if (!isRecord(payload)) throw invalid(`${type} is not an object: ${preview(payload)}`);
    switch (type) {
      case "messageStart":
        if (this.#started) throw invalid("a second messageStart arrived");
        this.#started = true;
        return [];
      case "contentBlockStart":
        return this.#blockStart(payload);
      case "contentBlockDelta":
        return this.#blockDelta(payload);
      case "contentBlockStop": {
        const state = this.#blocks.get(this.#index(payload, type));
        return state?.kind === "tool-call" ? this.#emitToolCall(state) : [];
      }
      case "messageStop":
        this.#requireStarted(type);
        this.#stopped = true;
        if (typeof payload.stopReason === "string") this.#stopReason = payload.stopReason;
        return [...this.#blocks.values()].flatMap((state) =>
          state.kind === "tool-call" ? this.#emitToolCall(state) : [],
        );
      case "metadata":
        if (payload.usage !== undefined) {
          if (!isRecord(payload.usage))
            throw invalid(`metadata.usage is not an object: ${preview(payload.usage)}`);
          this.#usage = payload.usage;
        }
        return [];
      default:
        // Newer event types: nothing Junction carries.
        return [];
    }
  }

  /** The final `finish` event. Throws when the stream ended before `messageStop`. */
  finish(): ModelStreamEvent[] {
    if (!this.#stopped) {
      throw new ProviderError({
        code: "provider-stream-error",
        provider: "bedrock",
        message: this.#started
          ? "The Bedrock stream ended before messageStop: the response is incomplete."
          : "The Bedrock stream ended without any message.",
        retryable: true,
      });
    }
    const event: FinishEvent = {
      type: "finish",
      reason: mapBedrockFinishReason(this.#stopReason),
      usage: this.#buildUsage(),
      content: this.#buildContent(),
    };
    if (this.#stopReason !== undefined) event.rawReason = this.#stopReason;
    return [event];
  }

  #blockStart(payload: Record<string, unknown>): ModelStreamEvent[] {
    this.#requireStarted("contentBlockStart");
    const index = this.#index(payload, "contentBlockStart");
    if (this.#blocks.has(index)) throw invalid(`contentBlockStart for block ${index}, which exists`);
    const start = payload.start;
    if (!isRecord(start)) throw invalid(`contentBlockStart ${index} has no start object`);
    const toolUse = start.toolUse;
    if (!isRecord(toolUse)) {
      this.#blocks.set(index, { kind: "unsupported" });
      return [
        warning(
          "response-block-unsupported",
          `Bedrock started a ${Object.keys(start).join("/") || "empty"} content block, which Junction does not carry; it was left out of the turn.`,
        ),
      ];
    }
    if (typeof toolUse.toolUseId !== "string" || toolUse.toolUseId === "") {
      throw invalid(`toolUse block ${index} has no toolUseId`);
    }
    if (typeof toolUse.name !== "string" || toolUse.name === "") {
      throw invalid(`toolUse block ${index} (${toolUse.toolUseId}) has no name`);
    }
    const name = this.#toolNames.fromVendor(toolUse.name);
    this.#blocks.set(index, {
      kind: "tool-call",
      id: toolUse.toolUseId,
      name,
      json: "",
      input: {},
      emitted: false,
    });
    return [{ type: "tool-call-start", id: toolUse.toolUseId, name }];
  }

  #blockDelta(payload: Record<string, unknown>): ModelStreamEvent[] {
    this.#requireStarted("contentBlockDelta");
    const index = this.#index(payload, "contentBlockDelta");
    const delta = payload.delta;
    if (!isRecord(delta)) throw invalid(`contentBlockDelta ${index} has no delta object`);
    let state = this.#blocks.get(index);
    if (state?.kind === "unsupported") return [];

    for (const key of ["text", "reasoningContent", "toolUse"] as const) {
      const value = delta[key];
      if (value !== undefined && (key === "text" ? typeof value !== "string" : !isRecord(value))) {
        throw invalid(
          `contentBlockDelta ${index} has a ${key} delta that is not ${key === "text" ? "a string" : "an object"}: ${preview(value)}`,
        );
      }
    }
    if (typeof delta.text === "string") {
      state ??= this.#open(index, { kind: "text", text: "" });
      if (state.kind !== "text") throw mismatch("text", index, state);
      state.text += delta.text;
      return delta.text ? [{ type: "text-delta", text: delta.text }] : [];
    }
    if (isRecord(delta.reasoningContent)) {
      const reasoning = delta.reasoningContent;
      state ??= this.#open(index, { kind: "reasoning", text: "" });
      if (state.kind !== "reasoning") throw mismatch("reasoningContent", index, state);
      if (typeof reasoning.signature === "string")
        state.signature = (state.signature ?? "") + reasoning.signature;
      if (reasoning.redactedContent !== undefined) {
        if (!(reasoning.redactedContent instanceof Uint8Array)) {
          throw invalid(`reasoningContent.redactedContent of block ${index} is not bytes`);
        }
        state.redacted = concat(state.redacted, reasoning.redactedContent);
      }
      if (typeof reasoning.text === "string" && reasoning.text !== "") {
        state.text += reasoning.text;
        return [{ type: "reasoning-delta", text: reasoning.text }];
      }
      return [];
    }
    if (isRecord(delta.toolUse)) {
      if (state?.kind !== "tool-call")
        throw invalid(`toolUse delta for block ${index}, which is not a tool call`);
      const input = delta.toolUse.input;
      if (typeof input !== "string") throw invalid(`toolUse.input of block ${index} is not a string`);
      state.json += input;
      return input ? [{ type: "tool-call-delta", id: state.id, argumentsDelta: input }] : [];
    }
    if (delta.citation !== undefined) {
      if (this.#warnedCitations) return [];
      this.#warnedCitations = true;
      return [
        warning(
          "response-citations-unsupported",
          "Bedrock sent citations, which Junction does not carry; the cited text is kept.",
        ),
      ];
    }
    return [
      warning(
        "response-delta-unsupported",
        `Bedrock sent a ${Object.keys(delta).join("/") || "empty"} delta, which Junction does not carry; it was left out.`,
      ),
    ];
  }

  #open<T extends BlockState>(index: number, state: T): T {
    this.#blocks.set(index, state);
    return state;
  }

  #emitToolCall(state: ToolCallState): ModelStreamEvent[] {
    if (state.emitted) return [];
    state.emitted = true;
    const { input, warning: invalid } = toolCallInput({
      text: state.json,
      id: state.id,
      name: state.name,
      provider: "Bedrock",
    });
    state.input = input;
    return [
      ...(invalid ? [{ type: "warning" as const, warning: invalid }] : []),
      { type: "tool-call", id: state.id, name: state.name, input },
    ];
  }

  #buildContent(): AssistantContentPart[] {
    const content: AssistantContentPart[] = [];
    for (const index of [...this.#blocks.keys()].sort((a, b) => a - b)) {
      const state = this.#blocks.get(index)!;
      switch (state.kind) {
        case "text":
          if (state.text !== "") content.push({ type: "text", text: state.text });
          break;
        case "reasoning": {
          const metadata: BedrockReasoningMetadata = {};
          if (state.redacted) metadata.redactedContent = base64FromBytes(state.redacted);
          else if (state.signature !== undefined) metadata.signature = state.signature;
          content.push({
            type: "reasoning",
            text: state.redacted ? "" : state.text,
            providerMetadata: { bedrock: { ...metadata } },
          });
          break;
        }
        case "tool-call":
          content.push({ type: "tool-call", id: state.id, name: state.name, input: state.input });
          break;
        case "unsupported":
          break;
        default: {
          const unknown: never = state;
          throw invalid(`unknown block state ${JSON.stringify(unknown)}`);
        }
      }
    }
    return content;
  }

  #buildUsage(): Usage {
    const read = (key: string): number | undefined => {
      const count = this.#usage?.[key];
      if (count === undefined || count === null) return undefined;
      if (typeof count !== "number" || !Number.isFinite(count) || count < 0) {
        throw invalid(`usage.${key} is not a token count: ${preview(count)}`);
      }
      return count;
    };
    const cacheRead = read("cacheReadInputTokens");
    const cacheWrite = read("cacheWriteInputTokens");
    // Bedrock's inputTokens leaves out cache reads and writes; Junction's inputTokens includes them.
    const inputTokens = (read("inputTokens") ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
    const outputTokens = read("outputTokens") ?? 0;
    const usage: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
    if (cacheRead !== undefined) usage.cachedInputTokens = cacheRead;
    if (cacheWrite !== undefined) usage.cacheWriteInputTokens = cacheWrite;
    return usage;
  }

  #index(payload: Record<string, unknown>, type: string): number {
    const index = payload.contentBlockIndex;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) {
      throw invalid(`${type} has no valid contentBlockIndex: ${preview(index)}`);
    }
    return index;
  }

  #requireStarted(type: string): void {
    if (!this.#started) throw invalid(`${type} arrived before messageStart`);
  }
}

function concat(first: Uint8Array | undefined, second: Uint8Array): Uint8Array {
  if (!first) return second;
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

function mismatch(delta: string, index: number, state: BlockState): ProviderError {
  return invalid(`a ${delta} delta for block ${index}, which is a ${state.kind} block`);
}

function invalid(detail: string): ProviderError {
  return new ProviderError({
    code: "provider-response-invalid",
    provider: "bedrock",
    message: `Bedrock sent an invalid stream: ${detail}.`,
  });
}

function warning(code: string, message: string): ModelStreamEvent {
  return { type: "warning", warning: { code, message } };
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
