import { anthropic } from "@junction/provider-anthropic";
import {
  type AnthropicStreamBlock,
  anthropicEvent,
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  type WireReply,
} from "@junction/wire-fake";
import { startHeldSSEStream, startSSEVendorFake } from "../sse-vendor-fake.ts";
import type {
  FoundImage,
  ScriptContext,
  ScriptedReply,
  ScriptedTurn,
  VendorAdapter,
} from "../vendor-adapter.ts";

const model = "claude-sonnet-4-6";

const stopReasons = {
  stop: "end_turn",
  "tool-calls": "tool_use",
  length: "max_tokens",
  refusal: "refusal",
} as const;

/** A Messages API stream, event by event as the API sends it (see the provider's recorded fixtures). */
function turnChunks(turn: ScriptedTurn, context: ScriptContext): string[] {
  const blocks: AnthropicStreamBlock[] = [];
  if (turn.reasoning) {
    blocks.push({
      start: { type: "thinking", thinking: "", signature: "" },
      deltas: [
        ...turn.reasoning.map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: "c2lnbmF0dXJlLWZvci10aGUtY29udHJhY3Q=" },
      ],
    });
  }
  if (turn.text) blocks.push(anthropicText(...turn.text));
  for (const call of turn.toolCalls ?? []) {
    blocks.push(
      anthropicToolUse({ id: call.id, name: context.vendorToolName(call.name) }, ...call.argumentPieces),
    );
  }
  return anthropicStream({
    id: turn.responseId,
    model,
    blocks,
    stopReason: stopReasons[turn.finish],
    usage: {
      input_tokens: turn.usage.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    },
    outputTokens: turn.usage.outputTokens,
  });
}

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
};

function render(reply: ScriptedReply, context: ScriptContext): WireReply {
  switch (reply.kind) {
    case "turn":
      return { chunks: turnChunks(reply.turn, context), headers: { "request-id": "req_contract" } };
    case "http-error":
      return {
        status: reply.status,
        headers: { "request-id": "req_contract_error", "retry-after-ms": "1" },
        json: {
          type: "error",
          error: { type: errorTypes[reply.status] ?? "api_error", message: reply.message },
          request_id: "req_contract_error",
        },
      };
    case "stream-error": {
      const opening = turnChunks(
        {
          responseId: "msg_contract_error",
          text: [reply.text],
          finish: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        },
        context,
      );
      // message_start, content_block_start and the text delta, then the error event.
      return {
        chunks: [
          ...opening.slice(0, 3),
          anthropicEvent("error", { error: { type: "overloaded_error", message: reply.message } }),
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
  const tools = (body as { tools?: { name: string }[] }).tools ?? [];
  return tools.map((tool) => tool.name);
}

type Block = { type: string; content?: unknown; source?: { type: string; media_type: string; data: string } };

function toolResultImages(body: unknown): { native: FoundImage[]; elsewhere: FoundImage[] } {
  const found = { native: [] as FoundImage[], elsewhere: [] as FoundImage[] };
  const image = (block: Block): FoundImage | undefined =>
    block.type === "image" && block.source?.type === "base64"
      ? { mimeType: block.source.media_type, data: block.source.data }
      : undefined;
  for (const message of (body as { messages: { content: string | Block[] }[] }).messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      const outside = image(block);
      if (outside) found.elsewhere.push(outside);
      if (block.type === "tool_result" && Array.isArray(block.content)) {
        for (const inner of block.content as Block[]) {
          const inside = image(inner);
          if (inside) found.native.push(inside);
        }
      }
    }
  }
  return found;
}

/** Anthropic's Messages API through `@anthropic-ai/sdk`. */
export const anthropicVendor: VendorAdapter = {
  name: "anthropic",
  displayName: "Anthropic",
  model,
  createProvider: ({ baseURL, maxRetries }) => anthropic({ apiKey: "sk-ant-contract", baseURL, maxRetries }),
  missingApiKey: {
    environmentVariables: ["ANTHROPIC_API_KEY"],
    createProvider: ({ baseURL, maxRetries }) => anthropic({ baseURL, maxRetries }),
    message: "Anthropic API key is missing: pass apiKey or set ANTHROPIC_API_KEY.",
  },
  startFake: () => startSSEVendorFake({ render, toolNames }),
  startHeldStream: (turn) =>
    startHeldSSEStream({
      chunks: turnChunks(turn, { vendorToolName: (name) => name }),
      marker: turn.text![0]!,
    }),
  wire: {
    toolCallIds: "wire",
    argumentDeltas: "pieces",
    reasoningTokens: "never",
    toolNamePattern: /^[a-zA-Z0-9_-]{1,64}$/,
  },
  toolNames,
  structuredOutput: {
    format: (body) => (body as { output_config?: { format?: unknown } }).output_config?.format,
    expected: (schema) => ({ type: "json_schema", schema }),
    documentation:
      "https://platform.claude.com/docs/en/build-with-claude/structured-outputs (output_config.format, type json_schema)",
  },
  toolResultImages,
};
