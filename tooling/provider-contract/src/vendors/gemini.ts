import { gemini } from "@junction/provider-gemini";
import type { WireReply } from "@junction/wire-fake";
import { startHeldSSEStream, startSSEVendorFake } from "../sse-vendor-fake.ts";
import type {
  FoundImage,
  ScriptContext,
  ScriptedReply,
  ScriptedTurn,
  VendorAdapter,
} from "../vendor-adapter.ts";

/** Gemini 3 takes images inside `functionResponse.parts`; older models get them beside it. */
const model = "gemini-3-flash-preview";

const finishReasons = {
  stop: "STOP",
  "tool-calls": "STOP",
  length: "MAX_TOKENS",
  refusal: "SAFETY",
} as const;

/** One `?alt=sse` frame, as `@google/genai` reads it. */
const frame = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * A `streamGenerateContent?alt=sse` stream (see the provider's recorded fixtures): one chunk per
 * piece, thoughts as `thought: true` text parts, function calls whole and without ids (as Gemini
 * sends them), parallel calls as several parts of one chunk, the last chunk with `finishReason`
 * and the usage (`candidatesTokenCount` excludes the thoughts).
 */
function turnChunks(turn: ScriptedTurn, context: ScriptContext): string[] {
  const chunks: Record<string, unknown>[] = [];
  const chunk = (parts: Record<string, unknown>[]) =>
    chunks.push({
      candidates: [{ content: { parts, role: "model" }, index: 0 }],
      modelVersion: model,
      responseId: turn.responseId,
    });
  for (const text of turn.reasoning ?? []) chunk([{ text, thought: true }]);
  for (const text of turn.text ?? []) chunk([{ text }]);
  if (turn.toolCalls?.length) {
    chunk(
      turn.toolCalls.map((call) => ({
        functionCall: { name: context.vendorToolName(call.name), args: call.input },
      })),
    );
  }
  const { inputTokens, outputTokens, reasoningTokens } = turn.usage;
  const last = chunks.at(-1) as { candidates: Record<string, unknown>[] };
  last.candidates[0]!.finishReason = finishReasons[turn.finish];
  (last as Record<string, unknown>).usageMetadata = {
    promptTokenCount: inputTokens,
    candidatesTokenCount: outputTokens - (reasoningTokens ?? 0),
    totalTokenCount: inputTokens + outputTokens,
    ...(reasoningTokens !== undefined ? { thoughtsTokenCount: reasoningTokens } : {}),
  };
  return chunks.map(frame);
}

const statuses: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

function render(reply: ScriptedReply, context: ScriptContext): WireReply {
  switch (reply.kind) {
    case "turn":
      return { chunks: turnChunks(reply.turn, context) };
    case "http-error":
      return {
        status: reply.status,
        headers: { "retry-after": "0" },
        json: {
          error: { code: reply.status, message: reply.message, status: statuses[reply.status] ?? "INTERNAL" },
        },
      };
    case "stream-error":
      // Gemini ends a 200 stream that fails part-way with an error frame.
      return {
        chunks: [
          frame({
            candidates: [{ content: { parts: [{ text: reply.text }], role: "model" }, index: 0 }],
            modelVersion: model,
            responseId: "resp_contract_error",
          }),
          frame({ error: { code: 503, message: reply.message, status: "UNAVAILABLE" } }),
        ],
      };
    default: {
      const unknown: never = reply;
      return unknown;
    }
  }
}

function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? [];
  return tools.flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name));
}

type Part = {
  inlineData?: { mimeType: string; data: string };
  functionResponse?: { parts?: Part[] };
};

function toolResultImages(body: unknown): { native: FoundImage[]; elsewhere: FoundImage[] } {
  const found = { native: [] as FoundImage[], elsewhere: [] as FoundImage[] };
  const image = (part: Part): FoundImage | undefined =>
    part.inlineData ? { mimeType: part.inlineData.mimeType, data: part.inlineData.data } : undefined;
  for (const content of (body as { contents: { parts: Part[] }[] }).contents) {
    for (const part of content.parts) {
      const outside = image(part);
      if (outside) found.elsewhere.push(outside);
      for (const inner of part.functionResponse?.parts ?? []) {
        const inside = image(inner);
        if (inside) found.native.push(inside);
      }
    }
  }
  return found;
}

/** Google's Gemini API through `@google/genai`. */
export const geminiVendor: VendorAdapter = {
  name: "gemini",
  displayName: "Gemini",
  model,
  createProvider: ({ baseURL, maxRetries }) =>
    gemini({
      apiKey: "contract-key",
      baseURL,
      apiVersion: "v1beta",
      maxRetries,
      retryOptions: { initialDelay: 0.001, maxDelay: 0.001, jitter: 0 },
    }),
  missingApiKey: {
    environmentVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    createProvider: ({ baseURL, maxRetries }) => gemini({ baseURL, apiVersion: "v1beta", maxRetries }),
    message: "Gemini API key is missing: pass apiKey or set GEMINI_API_KEY (or GOOGLE_API_KEY).",
  },
  startFake: () => startSSEVendorFake({ render, toolNames }),
  startHeldStream: (turn) =>
    startHeldSSEStream({
      chunks: turnChunks(turn, { vendorToolName: (name) => name }),
      marker: JSON.stringify(turn.text![0]),
    }),
  wire: {
    toolCallIds: "generated",
    argumentDeltas: "whole",
    reasoningTokens: "when-reasoning",
    toolNamePattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/,
  },
  toolNames,
  structuredOutput: {
    format: (body) => {
      const config = (body as { generationConfig?: Record<string, unknown> }).generationConfig ?? {};
      if (config.responseMimeType === undefined && config.responseJsonSchema === undefined) return undefined;
      return { responseMimeType: config.responseMimeType, responseJsonSchema: config.responseJsonSchema };
    },
    expected: (schema) => ({ responseMimeType: "application/json", responseJsonSchema: schema }),
    documentation:
      "https://ai.google.dev/gemini-api/docs/structured-output (generationConfig.responseMimeType application/json with responseJsonSchema)",
    // Before Gemini 3 the format does not go with function calling: final-step-only.
    models: ["gemini-2.5-flash"],
  },
  toolResultImages,
  imageModels: ["gemini-2.5-flash"],
};
