import { openai } from "@junction/provider-openai";
import { responsesMessage, responsesStream, type WireReply } from "@junction/wire-fake";
import { startHeldSSEStream, startSSEVendorFake } from "../sse-vendor-fake.ts";
import type {
  FoundImage,
  ProgramAdapter,
  ProgramWireEntry,
  ScriptContext,
  ScriptedProgramCall,
  ScriptedProgramTurn,
  ScriptedReply,
  ScriptedTurn,
  VendorAdapter,
} from "../vendor-adapter.ts";

const model = "gpt-5.1";

/** A Responses API stream event, framed as the API sends it (`event:` line, then `data:`). */
function streamEvents(events: Record<string, unknown>[]): string[] {
  return events.map(
    (event, sequence_number) =>
      `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number })}\n\n`,
  );
}

function response(
  turn: ScriptedTurn,
  { status, output, usage }: { status: string; output: unknown[]; usage: unknown },
) {
  return {
    id: turn.responseId,
    object: "response",
    created_at: 1787659560,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: null,
    max_output_tokens: null,
    model: "gpt-5.1-2025-11-13",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: "medium", summary: "auto" },
    store: true,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage,
  };
}

/**
 * A Responses API stream (see the provider's recorded fixtures): `response.created`, each output
 * item added → its deltas → done, then `response.completed` (or `response.incomplete` at the
 * output limit) carrying the output and the usage.
 */
function turnEvents(turn: ScriptedTurn, context: ScriptContext): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [
    {
      type: "response.created",
      response: response(turn, { status: "in_progress", output: [], usage: null }),
    },
    {
      type: "response.in_progress",
      response: response(turn, { status: "in_progress", output: [], usage: null }),
    },
  ];
  const output: Record<string, unknown>[] = [];
  const status = turn.finish === "length" ? "incomplete" : "completed";
  if (turn.reasoning) {
    const output_index = output.length;
    const id = `rs_${turn.responseId}`;
    const text = turn.reasoning.join("");
    const done = { id, type: "reasoning", summary: [{ type: "summary_text", text }] };
    events.push(
      { type: "response.output_item.added", output_index, item: { id, type: "reasoning", summary: [] } },
      {
        type: "response.reasoning_summary_part.added",
        item_id: id,
        output_index,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      },
      ...turn.reasoning.map((delta) => ({
        type: "response.reasoning_summary_text.delta",
        item_id: id,
        output_index,
        summary_index: 0,
        delta,
      })),
      { type: "response.reasoning_summary_text.done", item_id: id, output_index, summary_index: 0, text },
      { type: "response.output_item.done", output_index, item: done },
    );
    output.push(done);
  }
  if (turn.text) {
    const output_index = output.length;
    const id = `msg_${turn.responseId}`;
    const text = turn.text.join("");
    // A refusal is its own content part, streamed as `response.refusal.delta`
    // (https://platform.openai.com/docs/guides/structured-outputs#refusals).
    const refused = turn.finish === "refusal";
    const part = refused
      ? { type: "refusal", refusal: text }
      : { type: "output_text", annotations: [], logprobs: [], text };
    const done = { id, type: "message", status, content: [part], role: "assistant" };
    events.push(
      {
        type: "response.output_item.added",
        output_index,
        item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
      },
      {
        type: "response.content_part.added",
        item_id: id,
        output_index,
        content_index: 0,
        part: refused ? { ...part, refusal: "" } : { ...part, text: "" },
      },
      ...turn.text.map((delta) =>
        refused
          ? { type: "response.refusal.delta", item_id: id, output_index, content_index: 0, delta }
          : {
              type: "response.output_text.delta",
              item_id: id,
              output_index,
              content_index: 0,
              delta,
              logprobs: [],
            },
      ),
      refused
        ? { type: "response.refusal.done", item_id: id, output_index, content_index: 0, refusal: text }
        : {
            type: "response.output_text.done",
            item_id: id,
            output_index,
            content_index: 0,
            text,
            logprobs: [],
          },
      { type: "response.content_part.done", item_id: id, output_index, content_index: 0, part },
      { type: "response.output_item.done", output_index, item: done },
    );
    output.push(done);
  }
  for (const call of turn.toolCalls ?? []) {
    const output_index = output.length;
    const id = `fc_${call.id}`;
    const item = { id, type: "function_call", call_id: call.id, name: context.vendorToolName(call.name) };
    const args = call.argumentPieces.join("");
    const done = { ...item, status: "completed", arguments: args };
    events.push(
      {
        type: "response.output_item.added",
        output_index,
        item: { ...item, status: "in_progress", arguments: "" },
      },
      ...call.argumentPieces.map((delta) => ({
        type: "response.function_call_arguments.delta",
        item_id: id,
        output_index,
        delta,
      })),
      { type: "response.function_call_arguments.done", item_id: id, output_index, arguments: args },
      { type: "response.output_item.done", output_index, item: done },
    );
    output.push(done);
  }
  const { inputTokens, outputTokens, reasoningTokens } = turn.usage;
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens ?? 0 },
    total_tokens: inputTokens + outputTokens,
  };
  events.push({
    type: status === "completed" ? "response.completed" : "response.incomplete",
    response: response(turn, { status, output, usage }),
  });
  return events;
}

const errorTypes: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  429: { type: "requests", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
};

function render(reply: ScriptedReply, context: ScriptContext): WireReply {
  switch (reply.kind) {
    case "turn":
      return {
        chunks: streamEvents(turnEvents(reply.turn, context)),
        headers: { "x-request-id": "req_contract" },
      };
    case "http-error":
      return {
        status: reply.status,
        headers: { "x-request-id": "req_contract_error", "retry-after": "0" },
        json: {
          error: { message: reply.message, param: null, ...(errorTypes[reply.status] ?? errorTypes[500]) },
        },
      };
    case "stream-error": {
      const turn: ScriptedTurn = {
        responseId: "resp_contract_error",
        text: [reply.text],
        finish: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      };
      // created, in_progress, message added, content part added, the text delta; then the error
      // event and response.failed, as the API ends a response that failed part-way.
      const opening = turnEvents(turn, context).slice(0, 5);
      const error = { code: "server_error", message: reply.message };
      return {
        chunks: streamEvents([
          ...opening,
          { type: "error", error: { type: "server_error", ...error, param: null } },
          {
            type: "response.failed",
            response: { ...response(turn, { status: "failed", output: [], usage: null }), error },
          },
        ]),
      };
    }
    default: {
      const unknown: never = reply;
      return unknown;
    }
  }
}

function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: { type: string; name: string }[] }).tools ?? [];
  return tools.filter((tool) => tool.type === "function").map((tool) => tool.name);
}

type Item = { type: string; output?: unknown; content?: unknown; image_url?: unknown };

function dataURLImage(part: Item): FoundImage | undefined {
  if (part.type !== "input_image" || typeof part.image_url !== "string") return undefined;
  const match = /^data:([^;]+);base64,(.*)$/.exec(part.image_url);
  return match ? { mimeType: match[1]!, data: match[2]! } : undefined;
}

function toolResultImages(body: unknown): { native: FoundImage[]; elsewhere: FoundImage[] } {
  const found = { native: [] as FoundImage[], elsewhere: [] as FoundImage[] };
  for (const item of (body as { input: Item[] }).input) {
    const nested = item.type === "function_call_output" ? item.output : item.content;
    if (!Array.isArray(nested)) continue;
    for (const part of nested as Item[]) {
      const image = dataURLImage(part);
      if (image) (item.type === "function_call_output" ? found.native : found.elsewhere).push(image);
    }
  }
  return found;
}

const programModel = "gpt-5.6";
const program = {
  id: "prog_0a1b",
  type: "program",
  call_id: "call_prog_1",
  code: 'const west = await tools.sales_query({ region: "West" });\nawait tools.send_report({ to: "boss", total: Number(west) });\ntext(String(west));',
  fingerprint: "fp_opaque_Zm9vYmFy",
};
const programOutput = {
  id: "progout_0a1b",
  type: "program_output",
  call_id: program.call_id,
  result: "sent 42",
  status: "completed",
};
const programCallId = (id: string) => `call_${id}`;

function functionCall(call: ScriptedProgramCall): Record<string, unknown> {
  return {
    id: `fc_${call.id}`,
    type: "function_call",
    status: "completed",
    call_id: programCallId(call.id),
    name: call.name,
    arguments: JSON.stringify(call.input),
    caller: call.by === "program" ? { type: "program", caller_id: program.call_id } : { type: "direct" },
  };
}

/**
 * A response with Programmatic Tool Calling (the provider's programmatic fixtures): the program's
 * `program_output`, the message, the `program` item (its code and fingerprint), then each
 * `function_call` with its `caller`.
 */
function renderProgramTurn(turn: ScriptedProgramTurn): WireReply {
  const output: Record<string, unknown>[] = [];
  if (turn.programEnds) output.push(programOutput);
  if (turn.text !== undefined) output.push(responsesMessage(`msg_${turn.responseId}`, turn.text));
  if (turn.writesProgram) output.push(program);
  output.push(...(turn.calls ?? []).map(functionCall));
  return { chunks: responsesStream({ id: `resp_${turn.responseId}`, model: programModel, output }) };
}

type WireTool = { type: string; name?: string; allowed_callers?: string[] };

function offeredToPrograms(body: unknown): ReturnType<ProgramAdapter["offered"]> {
  const tools = (body as { tools?: WireTool[] }).tools ?? [];
  const callers = (tool: WireTool): "code" | "both" | undefined => {
    const allowed = JSON.stringify(tool.allowed_callers);
    if (tool.allowed_callers === undefined) return undefined;
    if (allowed === '["programmatic"]') return "code";
    if (allowed === '["direct","programmatic"]') return "both";
    throw new TypeError(
      `tool "${tool.name}" has allowed_callers ${allowed}, which the contract does not expect`,
    );
  };
  const runtime = tools.find((tool) => tool.type === "programmatic_tool_calling")?.type;
  return {
    tools: tools.filter((tool) => tool.type === "function").map((tool) => [tool.name!, callers(tool)]),
    ...(runtime ? { runtime } : {}),
  };
}

type InputItem = {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  call_id?: string;
  code?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
  caller?: { type: string; caller_id?: string };
};

/** The neutral reading of one input item OpenAI was sent. */
function sentItem(item: InputItem): ProgramWireEntry {
  const byProgram = item.caller?.type === "program" ? { program: item.caller.caller_id! } : {};
  switch (item.type ?? "message") {
    case "message": {
      const text =
        typeof item.content === "string"
          ? item.content
          : (item.content ?? []).map((part) => part.text ?? "").join("");
      return item.role === "user" ? { kind: "user", text } : { kind: "text", text };
    }
    case "program":
      return { kind: "program", id: item.call_id!, source: item.code! };
    case "function_call":
      return {
        kind: "call",
        id: item.call_id!,
        name: item.name!,
        input: JSON.parse(item.arguments!),
        ...byProgram,
      };
    case "function_call_output":
      return {
        kind: "result",
        callId: item.call_id!,
        ...byProgram,
        text: typeof item.output === "string" ? item.output : JSON.stringify(item.output),
      };
    case "program_output":
      return { kind: "program-end", id: item.call_id! };
    default:
      throw new TypeError(
        `an input item of type "${item.type}" the programmatic-calls contract does not read`,
      );
  }
}

/** OpenAI's Programmatic Tool Calling (GPT-5.6: `allowed_callers`, `program` items, `caller`). */
const programs: ProgramAdapter = {
  model: programModel,
  modelWithout: "gpt-5.5",
  runtime: "programmatic_tool_calling",
  program: { id: program.call_id, source: program.code },
  callId: programCallId,
  render: renderProgramTurn,
  basePath: "/v1",
  offered: offeredToPrograms,
  sentBack: (body) => (body as { input: InputItem[] }).input.map(sentItem),
  wire: { resultNamesProgram: true, resultFlagsErrors: false },
};

/** OpenAI's Responses API through the `openai` SDK. */
export const openAIVendor: VendorAdapter = {
  name: "openai",
  displayName: "OpenAI",
  model,
  createProvider: ({ baseURL, maxRetries }) => openai({ apiKey: "sk-contract", baseURL, maxRetries }),
  missingApiKey: {
    environmentVariables: ["OPENAI_API_KEY"],
    createProvider: ({ baseURL, maxRetries }) => openai({ baseURL, maxRetries }),
    message: "OpenAI API key is missing: pass apiKey or set OPENAI_API_KEY.",
  },
  startFake: () => startSSEVendorFake({ render, toolNames, basePath: "/v1" }),
  startHeldStream: (turn) =>
    startHeldSSEStream({
      chunks: streamEvents(turnEvents(turn, { vendorToolName: (name) => name })),
      marker: `"delta":${JSON.stringify(turn.text![0])}`,
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
    format: (body) => (body as { text?: { format?: unknown } }).text?.format,
    expected: (schema) => ({ type: "json_schema", name: "answer", schema, strict: true }),
    documentation:
      "https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses (text.format, type json_schema, strict)",
  },
  toolResultImages,
  programs,
};
