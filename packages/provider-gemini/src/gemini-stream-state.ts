import { isRecord } from "@junction/provider-utils";
import {
  type AssistantContentPart,
  type ModelStreamEvent,
  ProviderError,
  type ToolNameMapping,
  type Usage,
} from "@junction/types";
import type { GeminiPartMetadata } from "./convert-to-gemini-messages.js";
import { mapGeminiBlockReason, mapGeminiFinishReason } from "./map-gemini-finish-reason.js";

/** The parts of a streamed `GenerateContentResponse` chunk this reads (all untrusted). */
interface WirePart {
  text?: unknown;
  thought?: unknown;
  thoughtSignature?: unknown;
  functionCall?: unknown;
  [key: string]: unknown;
}

/**
 * Turns Gemini's streamed chunks into neutral events and assembles the assistant turn. Pure
 * apart from its own state: feed each chunk to {@link push}, then call {@link finish}.
 *
 * Gemini sends every function call whole (name and `args` object in one part), so each call
 * yields `tool-call-start`, one `tool-call-delta` with the full JSON and `tool-call` at once.
 * Parallel calls come as several `functionCall` parts, in one chunk or across chunks; each
 * keeps its place in the turn and gets an id of its own (one Gemini left out is made up from
 * the response id and the call's index, and a repeated one is replaced, with a warning).
 */
export class GeminiStreamState {
  private readonly content: AssistantContentPart[] = [];
  /** The part text is being appended to; closed by a signature, a call or a change of kind. */
  private open: { type: "text" | "reasoning"; index: number } | undefined;
  private rawReason: string | undefined;
  private blockReason: string | undefined;
  private usage: Record<string, unknown> | undefined;
  private toolCalls = 0;
  private readonly callIds = new Set<string>();
  private readonly reported = new Set<string>();
  /** The vendor's response id, once seen. */
  responseId: string | undefined;

  constructor(
    private readonly options: {
      providerName: string;
      toolNames: ToolNameMapping;
      /** Makes an id for a call Gemini sent without one. */
      generateId: (index: number) => string;
    },
  ) {}

  /** Reads one chunk and returns the events it produces. Throws `ProviderError` on malformed input. */
  push(chunk: unknown): ModelStreamEvent[] {
    if (!isRecord(chunk)) throw this.invalid("a stream chunk that is not a JSON object");
    const events: ModelStreamEvent[] = [];
    if (typeof chunk.responseId === "string") this.responseId = chunk.responseId;
    if (isRecord(chunk.usageMetadata)) this.usage = chunk.usageMetadata;
    const feedback = chunk.promptFeedback;
    if (isRecord(feedback) && typeof feedback.blockReason === "string")
      this.blockReason = feedback.blockReason;

    const candidates = chunk.candidates;
    if (candidates === undefined) return events;
    if (!Array.isArray(candidates)) throw this.invalid("`candidates` that is not an array");
    if (candidates.length > 1)
      this.warnOnce(
        events,
        "candidates-ignored",
        `Gemini sent ${candidates.length} candidates; only the first is used.`,
      );
    const candidate = candidates[0];
    if (candidate === undefined) return events;
    if (!isRecord(candidate)) throw this.invalid("a candidate that is not an object");
    if (typeof candidate.finishReason === "string") this.rawReason = candidate.finishReason;

    const content = candidate.content;
    if (content === undefined) return events;
    if (!isRecord(content)) throw this.invalid("candidate `content` that is not an object");
    const parts = content.parts ?? [];
    if (!Array.isArray(parts)) throw this.invalid("`content.parts` that is not an array");
    for (const part of parts) {
      if (!isRecord(part)) throw this.invalid("a content part that is not an object");
      this.readPart(part as WirePart, events);
    }
    return events;
  }

  /**
   * The events that end the stream: the `finish` event. Throws when the stream ended without
   * saying why: Gemini always ends a complete response with a `finishReason`, so its absence
   * means a cut-off stream.
   */
  finish(): ModelStreamEvent[] {
    const raw = this.rawReason ?? this.blockReason;
    if (raw === undefined) {
      throw new ProviderError({
        code: "provider-stream-error",
        provider: this.options.providerName,
        retryable: true,
        requestId: this.responseId,
        message: "The Gemini stream ended without a finishReason: the response is incomplete.",
      });
    }
    const reason =
      this.rawReason !== undefined
        ? mapGeminiFinishReason(this.rawReason, this.toolCalls > 0)
        : mapGeminiBlockReason(raw);
    return [
      {
        type: "finish",
        reason,
        rawReason: raw,
        usage: mapGeminiUsage(this.usage),
        content: this.content,
        ...(this.responseId ? { responseId: this.responseId } : {}),
      },
    ];
  }

  private readPart(part: WirePart, events: ModelStreamEvent[]): void {
    const signature = part.thoughtSignature;
    if (signature !== undefined && typeof signature !== "string")
      throw this.invalid("a `thoughtSignature` that is not a string");

    if (part.functionCall !== undefined) {
      this.readFunctionCall(part.functionCall, signature, events);
      return;
    }
    if (part.text !== undefined) {
      if (typeof part.text !== "string") throw this.invalid("a `text` part whose text is not a string");
      this.readText(
        { text: part.text, type: part.thought === true ? "reasoning" : "text", signature },
        events,
      );
      return;
    }
    const kind = Object.keys(part).find((key) => key !== "thoughtSignature" && key !== "thought") ?? "empty";
    this.warnOnce(
      events,
      `response-part-unsupported:${kind}`,
      `Gemini sent a "${kind}" part, which Junction's assistant content cannot hold; it is not part of the turn.`,
    );
  }

  private readText(
    { text, type, signature }: { text: string; type: "text" | "reasoning"; signature: string | undefined },
    events: ModelStreamEvent[],
  ) {
    if (text === "" && signature === undefined) return;
    if (text !== "") events.push({ type: type === "text" ? "text-delta" : "reasoning-delta", text });
    let index: number;
    if (this.open?.type === type) {
      index = this.open.index;
      const current = this.content[index] as { text: string };
      current.text += text;
    } else {
      index = this.content.push({ type, text }) - 1;
      this.open = { type, index };
    }
    if (signature !== undefined) {
      this.content[index]!.providerMetadata = {
        [this.options.providerName]: { thoughtSignature: signature },
      };
      // A signature ends the part it belongs to: later text starts a new one.
      this.open = undefined;
    }
  }

  private readFunctionCall(value: unknown, signature: string | undefined, events: ModelStreamEvent[]) {
    if (!isRecord(value)) throw this.invalid("a `functionCall` that is not an object");
    if (typeof value.name !== "string" || value.name === "")
      throw this.invalid("a `functionCall` without a name");
    if (value.partialArgs !== undefined || value.willContinue === true) {
      throw this.invalid(
        "a `functionCall` with streamed arguments (`partialArgs`), which this provider does not assemble; leave `toolConfig.functionCallingConfig.streamFunctionCallArguments` off",
      );
    }
    const args = value.args ?? {};
    if (!isRecord(args)) throw this.invalid(`\`args\` for "${value.name}" that are not a JSON object`);
    if (value.id !== undefined && (typeof value.id !== "string" || value.id === ""))
      throw this.invalid(`an \`id\` for "${value.name}" that is not a non-empty string`);

    this.open = undefined;
    let id = value.id as string | undefined;
    if (id !== undefined && this.callIds.has(id)) {
      // Results are matched to calls by id: a repeated id would hand one call the other's result.
      this.warnOnce(
        events,
        `tool-call-id-repeated:${id}`,
        `Gemini sent the call id "${id}" for more than one call; the later call to "${value.name}" got an id of its own, and its result is matched to it by name and order.`,
      );
      id = undefined;
    }
    const generated = id === undefined;
    id ??= this.uniqueId(this.options.generateId(this.toolCalls));
    this.callIds.add(id);
    this.toolCalls++;
    const name = this.options.toolNames.fromVendor(value.name);
    const metadata: GeminiPartMetadata = {
      ...(signature !== undefined ? { thoughtSignature: signature } : {}),
      ...(generated ? { generatedId: true } : {}),
    };
    const providerMetadata =
      Object.keys(metadata).length > 0 ? { [this.options.providerName]: { ...metadata } } : undefined;
    events.push({ type: "tool-call-start", id, name });
    events.push({ type: "tool-call-delta", id, argumentsDelta: JSON.stringify(args) });
    events.push({
      type: "tool-call",
      id,
      name,
      input: args,
      ...(providerMetadata ? { providerMetadata } : {}),
    });
    this.content.push({
      type: "tool-call",
      id,
      name,
      input: args,
      ...(providerMetadata ? { providerMetadata } : {}),
    });
  }

  private uniqueId(candidate: string): string {
    let id = candidate;
    for (let n = 2; this.callIds.has(id); n++) id = `${candidate}-${n}`;
    return id;
  }

  private warnOnce(events: ModelStreamEvent[], key: string, message: string) {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    events.push({ type: "warning", warning: { code: key.split(":")[0]!, message } });
  }

  private invalid(what: string): ProviderError {
    return new ProviderError({
      code: "provider-response-invalid",
      provider: this.options.providerName,
      retryable: false,
      requestId: this.responseId,
      message: `Gemini sent ${what}.`,
    });
  }
}

/**
 * Maps Gemini's `usageMetadata` to neutral usage. `candidatesTokenCount` excludes thinking, so
 * output is candidates + thoughts; input includes the tool-use prompt; cached counts as read.
 */
export function mapGeminiUsage(usage: Record<string, unknown> | undefined): Usage {
  const count = (key: string) => (typeof usage?.[key] === "number" ? (usage[key] as number) : undefined);
  const prompt = count("promptTokenCount") ?? 0;
  const toolUsePrompt = count("toolUsePromptTokenCount") ?? 0;
  const candidates = count("candidatesTokenCount") ?? 0;
  const thoughts = count("thoughtsTokenCount");
  const cached = count("cachedContentTokenCount");
  const inputTokens = prompt + toolUsePrompt;
  const outputTokens = candidates + (thoughts ?? 0);
  return {
    inputTokens,
    outputTokens,
    totalTokens: count("totalTokenCount") ?? inputTokens + outputTokens,
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    ...(thoughts !== undefined ? { reasoningTokens: thoughts } : {}),
  };
}
