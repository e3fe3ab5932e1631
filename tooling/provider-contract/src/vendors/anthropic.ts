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
  ProgramAdapter,
  ProgramWireEntry,
  ScriptContext,
  ScriptedProgramTurn,
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

const CODE = "code_execution_20250825";
const programId = "srvtoolu_code1";
const caller = { type: CODE, tool_id: programId };
const container = { id: "container_011CZ", expires_at: "2026-12-02T09:00:00Z" };
const source =
  'west = await sales_query({"region": "West"})\nawait send_report({"to": "boss", "total": west})';
const codeResult = {
  type: "code_execution_tool_result",
  tool_use_id: programId,
  content: { type: "code_execution_result", stdout: "sent 42\n", stderr: "", return_code: 0, content: [] },
};

/**
 * A turn with Claude's code execution (the provider's programmatic fixtures): the code's end as a
 * `code_execution_tool_result`, the text, the code as a `server_tool_use`, the calls as `tool_use`
 * (a call of the code with its `caller`). A turn that writes the code streams, naming the container
 * in `message_delta`; a later call of the code arrives whole in `message_start`, in the container.
 */
function renderProgramTurn(turn: ScriptedProgramTurn): WireReply {
  const id = `msg_${turn.responseId}`;
  const calls = turn.calls ?? [];
  const toolUse = (call: (typeof calls)[number]) => ({
    type: "tool_use",
    id: programCallId(call.id),
    name: call.name,
    input: call.input,
    ...(call.by === "program" ? { caller } : {}),
  });
  if (calls.length > 0 && !turn.writesProgram && !turn.programEnds && turn.text === undefined) {
    return {
      chunks: [
        anthropicEvent("message_start", {
          message: {
            id,
            type: "message",
            role: "assistant",
            model,
            content: calls.map(toolUse),
            container,
            stop_reason: "tool_use",
            stop_sequence: null,
            usage: { input_tokens: 50, output_tokens: 1 },
          },
        }),
        anthropicEvent("message_stop"),
      ],
    };
  }
  const blocks: AnthropicStreamBlock[] = [];
  if (turn.programEnds) blocks.push({ start: codeResult });
  if (turn.text !== undefined) blocks.push(anthropicText(turn.text));
  if (turn.writesProgram) {
    blocks.push({
      start: { type: "server_tool_use", id: programId, name: "code_execution", input: {} },
      deltas: [{ type: "input_json_delta", partial_json: JSON.stringify({ code: source }) }],
    });
  }
  for (const call of calls) {
    const { input, ...start } = toolUse(call);
    blocks.push(anthropicToolUse(start, JSON.stringify(input)));
  }
  return {
    chunks: anthropicStream({
      id,
      model,
      blocks,
      stopReason: calls.length > 0 ? "tool_use" : "end_turn",
      // The API names the container in message_delta.
      ...(calls.length > 0 ? { delta: { container } } : {}),
      outputTokens: 40,
    }),
  };
}

const programCallId = (id: string) => `toolu_${id}`;

type WireTool = { name?: string; type?: string; allowed_callers?: string[] };

function offeredToPrograms(body: unknown): ReturnType<ProgramAdapter["offered"]> {
  const tools = (body as { tools?: WireTool[] }).tools ?? [];
  const runtime = tools.find((tool) => tool.type?.startsWith("code_execution_"))?.type;
  const callers = (tool: WireTool): "code" | "both" | undefined => {
    const allowed = JSON.stringify(tool.allowed_callers);
    if (tool.allowed_callers === undefined) return undefined;
    if (allowed === JSON.stringify([runtime])) return "code";
    if (allowed === JSON.stringify(["direct", runtime])) return "both";
    throw new TypeError(
      `tool "${tool.name}" has allowed_callers ${allowed}, which the contract does not expect`,
    );
  };
  const offered = tools.filter((tool) => tool.type === undefined).map((tool) => [tool.name!, callers(tool)]);
  return { tools: offered as [string, "code" | "both" | undefined][], ...(runtime ? { runtime } : {}) };
}

type WireBlock = {
  type: string;
  id?: string;
  name?: string;
  text?: string;
  input?: { code?: string };
  caller?: { tool_id: string };
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
};

/** The neutral reading of one content block Anthropic was sent. */
function sentBlock(role: string, block: WireBlock): ProgramWireEntry {
  switch (block.type) {
    case "text":
      return role === "user" ? { kind: "user", text: block.text! } : { kind: "text", text: block.text! };
    case "server_tool_use":
      return { kind: "program", id: block.id!, source: block.input?.code ?? "" };
    case "tool_use":
      return {
        kind: "call",
        id: block.id!,
        name: block.name!,
        input: block.input,
        ...(block.caller ? { program: block.caller.tool_id } : {}),
      };
    case "tool_result":
      return {
        kind: "result",
        callId: block.tool_use_id!,
        ...(block.is_error === true ? { error: true as const } : {}),
        text: typeof block.content === "string" ? block.content : JSON.stringify(block.content),
      };
    case "code_execution_tool_result":
      return { kind: "program-end", id: block.tool_use_id! };
    default:
      throw new TypeError(
        `a ${role} block of type "${block.type}" the programmatic-calls contract does not read`,
      );
  }
}

function sentBack(body: unknown): ProgramWireEntry[] {
  const messages = (body as { messages: { role: string; content: string | WireBlock[] }[] }).messages;
  return messages.flatMap(({ role, content }) =>
    typeof content === "string"
      ? [sentBlock(role, { type: "text", text: content })]
      : content.map((block) => sentBlock(role, block)),
  );
}

/** Claude's code execution calling the request's tools (`allowed_callers`, `caller` on `tool_use`). */
const programs: ProgramAdapter = {
  model,
  modelWithout: "claude-haiku-4-5",
  runtime: CODE,
  program: { id: programId, source },
  callId: programCallId,
  render: renderProgramTurn,
  offered: offeredToPrograms,
  sentBack,
  wire: {
    resultNamesProgram: false,
    resultFlagsErrors: true,
    container: { id: container.id, read: (body) => (body as { container?: string }).container },
  },
};

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
  programs,
};
