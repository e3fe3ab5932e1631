import { chatCompletions } from "@junction/provider-chatcompletions";
import type { WireReply } from "@junction/wire-fake";
import { startHeldSSEStream, startSSEVendorFake } from "../sse-vendor-fake.ts";
import type {
  FoundImage,
  ScriptContext,
  ScriptedReply,
  ScriptedTurn,
  ScriptedUsage,
  VendorAdapter,
} from "../vendor-adapter.ts";

const model = "gpt-4o-2024-08-06";

const finishReasons = {
  stop: "stop",
  "tool-calls": "tool_calls",
  length: "length",
  refusal: "stop",
} as const;

const frame = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * Usage as OpenAI reports it (`completion_tokens` includes the reasoning), or as xAI does
 * (shape `reasoning-outside-completion`: reasoning left out of `completion_tokens`, counted in
 * `total_tokens`).
 */
function usage({ inputTokens, outputTokens, reasoningTokens, shape }: ScriptedUsage) {
  const reasoning = reasoningTokens ?? 0;
  const completion = shape === "reasoning-outside-completion" ? outputTokens - reasoning : outputTokens;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: completion,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0 },
  };
}

/**
 * A `/chat/completions` stream (see the provider's recorded fixtures): a role chunk, one chunk per
 * piece (`reasoning_content`, `content`, tool calls opening with index, id and name, then argument
 * pieces at the same index), a chunk with `finish_reason`, the usage chunk, `[DONE]`.
 */
function turnChunks(turn: ScriptedTurn, context: ScriptContext): string[] {
  const envelope = { id: turn.responseId, object: "chat.completion.chunk", created: 1785332890, model };
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    frame({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason }] });
  const chunks = [chunk({ role: "assistant", content: "" })];
  for (const reasoning_content of turn.reasoning ?? []) chunks.push(chunk({ reasoning_content }));
  // OpenAI streams a refusal in `delta.refusal` instead of `delta.content`.
  for (const content of turn.text ?? [])
    chunks.push(chunk(turn.finish === "refusal" ? { refusal: content } : { content }));
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: "function",
            function: { name: context.vendorToolName(call.name), arguments: "" },
          },
        ],
      }),
    );
    for (const piece of call.argumentPieces) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  chunks.push(
    chunk({}, finishReasons[turn.finish]),
    frame({ ...envelope, choices: [], usage: usage(turn.usage) }),
    "data: [DONE]\n\n",
  );
  return chunks;
}

function render(reply: ScriptedReply, context: ScriptContext): WireReply {
  switch (reply.kind) {
    case "turn":
      return { chunks: turnChunks(reply.turn, context), headers: { "x-request-id": "req_contract" } };
    case "http-error":
      return {
        status: reply.status,
        headers: { "x-request-id": "req_contract_error", "retry-after": "0" },
        json: {
          error: {
            message: reply.message,
            type: reply.status === 400 ? "invalid_request_error" : "server_error",
            param: null,
            code: null,
          },
        },
      };
    case "stream-error": {
      // OpenRouter's documented mid-stream error: a chunk with a top-level error and finish_reason error.
      const envelope = { id: "gen-contract", object: "chat.completion.chunk", created: 1785332890, model };
      return {
        chunks: [
          frame({
            ...envelope,
            choices: [{ index: 0, delta: { role: "assistant", content: reply.text }, finish_reason: null }],
          }),
          frame({
            ...envelope,
            choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
            error: { code: 502, message: reply.message },
          }),
          "data: [DONE]\n\n",
        ],
      };
    }
    default: {
      const unknown: never = reply;
      return unknown;
    }
  }
}

function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: { function: { name: string } }[] }).tools ?? [];
  return tools.map((tool) => tool.function.name);
}

type Part = { type: string; image_url?: { url: string } };

function toolResultImages(body: unknown): { native: FoundImage[]; elsewhere: FoundImage[] } {
  const found = { native: [] as FoundImage[], elsewhere: [] as FoundImage[] };
  for (const message of (body as { messages: { role: string; content: unknown }[] }).messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as Part[]) {
      const match =
        part.type === "image_url" ? /^data:([^;]+);base64,(.*)$/.exec(part.image_url?.url ?? "") : null;
      if (!match) continue;
      (message.role === "tool" ? found.native : found.elsewhere).push({
        mimeType: match[1]!,
        data: match[2]!,
      });
    }
  }
  return found;
}

/** Any OpenAI-compatible Chat Completions endpoint through the `openai` SDK. */
export const chatCompletionsVendor: VendorAdapter = {
  name: "chatcompletions",
  displayName: "chatcompletions",
  model,
  createProvider: ({ baseURL, maxRetries }) =>
    chatCompletions({ apiKey: "sk-contract", baseURL, maxRetries }),
  missingApiKey: {
    // With no baseURL the endpoint is api.openai.com, which needs a key; the fetch sends any
    // request the provider would make to the fake instead, where the suite counts it.
    environmentVariables: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
    createProvider: ({ baseURL, maxRetries }) =>
      chatCompletions({
        maxRetries,
        fetch: (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          return fetch(`${baseURL}${url.pathname.replace(/^\/v1/, "")}${url.search}`, init);
        },
      }),
    message:
      "chatCompletions() has no baseURL: pass the endpoint's baseURL (for example http://localhost:11434/v1 for Ollama, or spread one of CHAT_COMPLETIONS_PRESETS) or set OPENAI_BASE_URL. To use api.openai.com itself, pass apiKey or set OPENAI_API_KEY.",
  },
  startFake: () => startSSEVendorFake({ render, toolNames, basePath: "/v1" }),
  startHeldStream: (turn) =>
    startHeldSSEStream({
      chunks: turnChunks(turn, { vendorToolName: (name) => name }),
      marker: `"content":${JSON.stringify(turn.text![0])}`,
      basePath: "/v1",
    }),
  wire: {
    toolCallIds: "wire",
    argumentDeltas: "pieces",
    reasoningTokens: "always",
    toolNamePattern: /^[a-zA-Z0-9_-]{1,64}$/,
  },
  toolNames,
  structuredOutput: {
    format: (body) => (body as { response_format?: unknown }).response_format,
    expected: (schema) => ({ type: "json_schema", json_schema: { name: "answer", schema } }),
    documentation:
      "https://platform.openai.com/docs/guides/structured-outputs?api-mode=chat (response_format, type json_schema)",
  },
  toolResultImages,
  usageVariants: [
    { label: "xAI: reasoning left out of completion_tokens", shape: "reasoning-outside-completion" },
  ],
};
