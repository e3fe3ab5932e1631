import {
  type AssistantContentPart,
  createAbortError,
  type FinishReason,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ProviderCapabilities,
  ProviderError,
  type ToolCallProgram,
  type Usage,
  type Warning,
} from "@junction/types";

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** @default `call_<turn>_<index>`, both 1-based */
  id?: string;
  name: string;
  /** @default {} */
  input?: unknown;
  /** A pause before this call's events, to script a model that streams calls over time. */
  delayMs?: number;
  /**
   * The vendor-run program that made the call (provider-mode code mode), carried on its
   * `tool-call` event and its part, as a provider that runs programs reports it.
   */
  program?: ToolCallProgram;
}

/** A pause inside a low-level event script. */
export interface ScriptedPause {
  type: "pause";
  ms: number;
}

/** One model turn, streamed as the real events a provider would send. */
export interface ScriptedTurn {
  reasoning?: string;
  /** Streamed word by word as `text-delta` events. */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** @default "tool-calls" when there are tool calls, else "stop" */
  finishReason?: FinishReason;
  /** @default { inputTokens: 10, outputTokens: 5, totalTokens: 15 } */
  usage?: Partial<Usage>;
  warnings?: Warning[];
  /** A pause before every event. */
  delayMs?: number;
  /** Low-level: these exact events (and pauses) instead of the fields above; a `finish` is added when missing. */
  events?: (ModelStreamEvent | ScriptedPause)[];
  /** The model's refusal, carried on the `finish` event as a vendor reports it apart from the text. */
  refusal?: string;
  /** Thrown by the stream in place of its `finish` (a `ProviderError`, as a real provider would throw). */
  error?: Error;
}

/** A turn, or a function of the request that makes one (to answer what the agent sent). */
export type ScriptedResponse =
  | ScriptedTurn
  | ((request: ModelRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>);

/** Options of `scriptedModel()`. */
export interface ScriptedModelOptions {
  responses: ScriptedResponse[];
  /** @default "scripted" */
  name?: string;
  /** @default every capability on */
  capabilities?: Partial<ProviderCapabilities>;
}

/** A `ModelProvider` that plays a script, and records what it was asked. */
export interface ScriptedModel extends ModelProvider {
  /** Every request received, in order, copied when received (without the signal). */
  readonly requests: Omit<ModelRequest, "signal">[];
  /** Turns not played yet. */
  readonly remaining: number;
}

const DEFAULT_USAGE: Usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/**
 * A model provider for tests and demos that streams scripted turns as real
 * `ModelStreamEvent`s: reasoning, text word by word, tool calls (start, argument delta,
 * complete call) and a `finish` carrying the whole turn. It honours the request's abort
 * signal and fails with a `ProviderError` when the script runs out.
 *
 * @example
 * ```ts
 * import { scriptedModel } from "@junction/core/testing";
 * const provider = scriptedModel([
 *   { toolCalls: [{ name: "add", input: { a: 2, b: 3 } }] },
 *   { text: "2 + 3 = 5" },
 * ]);
 * const agent = new Agent({ provider, model: "scripted", tools: [add] });
 * ```
 */
export function scriptedModel(script: ScriptedResponse[] | ScriptedModelOptions): ScriptedModel {
  const options = Array.isArray(script) ? { responses: script } : script;
  const name = options.name ?? "scripted";
  const responses = [...options.responses];
  const requests: Omit<ModelRequest, "signal">[] = [];
  const capabilities: ProviderCapabilities = {
    toolResultImages: true,
    toolResultAudio: true,
    toolResultDocuments: true,
    userImages: true,
    userAudio: true,
    parallelToolCalls: true,
    reasoning: true,
    ...options.capabilities,
  };
  let played = 0;
  return {
    name,
    capabilities,
    requests,
    get remaining() {
      return responses.length - played;
    },
    stream(request) {
      const { signal, ...rest } = request;
      requests.push(structuredClone(rest));
      const index = played++;
      const response = responses[index];
      return play(response, request, { name, index, signal });
    },
  };
}

async function* play(
  response: ScriptedResponse | undefined,
  request: ModelRequest,
  { name, index, signal }: { name: string; index: number; signal: AbortSignal | undefined },
): AsyncGenerator<ModelStreamEvent> {
  if (response === undefined) {
    throw new ProviderError({
      provider: name,
      code: "provider-response-invalid",
      message: `The scripted model has no response left for request ${index + 1}.`,
    });
  }
  const turn = typeof response === "function" ? await response(request, index) : response;
  const script = turn.events ? withFinish(turn.events) : eventsOf(turn, index);
  for (const item of script) {
    if (item.type === "pause") {
      await pause(item.ms, signal);
      continue;
    }
    if (turn.delayMs) await pause(turn.delayMs, signal);
    throwIfAborted(signal);
    // A failing turn fails where a real stream would: before its finish.
    if (item.type === "finish" && turn.error) throw turn.error;
    yield item;
  }
  if (turn.error) throw turn.error;
}

function eventsOf(turn: ScriptedTurn, turnIndex: number): (ModelStreamEvent | ScriptedPause)[] {
  const events: (ModelStreamEvent | ScriptedPause)[] = [];
  const content: AssistantContentPart[] = [];
  if (turn.reasoning) {
    events.push({ type: "reasoning-delta", text: turn.reasoning });
    content.push({ type: "reasoning", text: turn.reasoning });
  }
  if (turn.text) {
    for (const piece of turn.text.match(/\S+\s*|\s+/g) ?? [])
      events.push({ type: "text-delta", text: piece });
    content.push({ type: "text", text: turn.text });
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    const id = call.id ?? `call_${turnIndex + 1}_${index + 1}`;
    const input = call.input ?? {};
    if (call.delayMs) events.push({ type: "pause", ms: call.delayMs });
    events.push({ type: "tool-call-start", id, name: call.name });
    events.push({ type: "tool-call-delta", id, argumentsDelta: JSON.stringify(input) });
    const program = call.program ? { program: call.program } : {};
    events.push({ type: "tool-call", id, name: call.name, input, ...program });
    content.push({ type: "tool-call", id, name: call.name, input, ...program });
  });
  for (const warning of turn.warnings ?? []) events.push({ type: "warning", warning });
  const hasCalls = (turn.toolCalls ?? []).length > 0;
  events.push({
    type: "finish",
    reason: turn.finishReason ?? (hasCalls ? "tool-calls" : "stop"),
    usage: usageOf(turn.usage),
    content,
    ...(turn.refusal !== undefined ? { refusal: turn.refusal } : {}),
  });
  return events;
}

function withFinish(events: (ModelStreamEvent | ScriptedPause)[]): (ModelStreamEvent | ScriptedPause)[] {
  if (events.some((event) => event.type === "finish")) return events;
  const content: AssistantContentPart[] = [];
  let text = "";
  for (const event of events) {
    if (event.type === "text-delta") text += event.text;
    if (event.type === "tool-call") {
      content.push({ type: "tool-call", id: event.id, name: event.name, input: event.input });
    }
  }
  if (text) content.unshift({ type: "text", text });
  const hasCalls = content.some((part) => part.type === "tool-call");
  return [...events, { type: "finish", reason: hasCalls ? "tool-calls" : "stop", usage: usageOf(), content }];
}

function usageOf(usage: Partial<Usage> = {}): Usage {
  const inputTokens = usage.inputTokens ?? DEFAULT_USAGE.inputTokens;
  const outputTokens = usage.outputTokens ?? DEFAULT_USAGE.outputTokens;
  return {
    ...usage,
    inputTokens,
    outputTokens,
    totalTokens: usage.totalTokens ?? inputTokens + outputTokens,
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw createAbortError("The scripted model stream was aborted.", signal.reason);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  throwIfAborted(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(createAbortError("The scripted model stream was aborted.", signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
