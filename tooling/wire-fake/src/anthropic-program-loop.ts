// A local Anthropic Messages endpoint playing Claude with programmatic tool calling: its code
// (run in Anthropic's container) makes a scripted list of tool calls, turn by turn, and each turn
// is chosen from what the request holds (the tool results it carries), never from how many
// requests came before. A client that asks again for a turn (a worker recovered after a crash)
// gets the same turn.
import { anthropicEvent, anthropicStream, anthropicText, anthropicToolUse } from "./anthropic-stream.js";
import { type RecordedRequest, startWireFake, type WireFake, type WireReply } from "./index.js";

/** The code-execution tool version whose programs call the client's tools. */
export const CODE_EXECUTION = "code_execution_20250825";
/** The id of the code-execution call every turn's calls come from. */
const CODE_CALL = "srvtoolu_code1";
/** The container the code runs in: every turn after the first must send its id back. */
export const programContainer = { id: "container_program", expires_at: "2026-12-02T09:00:00Z" };

/** One call the code makes of a client tool. */
export interface ProgramToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface AnthropicProgramLoopOptions {
  readonly model: string;
  /** The code's calls, turn by turn: the calls of a turn come back together (as after `asyncio.gather`). */
  readonly turns: readonly (readonly ProgramToolCall[])[];
  /** The answer once every call has its result, given the results' texts in the order they were sent. */
  readonly finalText: (toolResults: string[]) => string;
}

/** The fake, and a hold: the request whose results number `results` is never answered, until released. */
export interface AnthropicProgramLoop extends WireFake {
  /**
   * Leaves unanswered every request that carries `results` tool results (its turn is "asked, not
   * yet answered"), until `release()`; those requests are recorded as any other.
   */
  holdAt(results: number): void;
  release(): void;
}

/** A `tool_result` block of a request, as the fake reads it. */
interface ToolResultBlock {
  readonly id: string;
  readonly text: string;
}

/** The tool results the request's user messages carry, in order; an error names what is malformed. */
export function toolResultsOf(body: unknown): ToolResultBlock[] | string {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return "the request has no `messages` array";
  const results: ToolResultBlock[] = [];
  for (const message of messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== "user" || !Array.isArray(content)) continue;
    for (const block of content) {
      const { type, tool_use_id: id, content: parts } = (block ?? {}) as Record<string, unknown>;
      if (type !== "tool_result") continue;
      if (typeof id !== "string") return "a tool_result has no string `tool_use_id`";
      const text = Array.isArray(parts)
        ? parts.map((part) => ((part as { text?: unknown }).text as string | undefined) ?? "").join("")
        : typeof parts === "string"
          ? parts
          : "";
      results.push({ id, text });
    }
  }
  return results;
}

/** What a request asks for: turn `index` of the script, the final answer, or nothing the script has. */
export type NextTurn =
  | { kind: "turn"; index: number }
  | { kind: "final" }
  | { kind: "invalid"; reason: string };

/**
 * The turn the request asks for: the first turn of `turns` whose calls are not all answered,
 * the final answer once every call is, or why the request does not fit the script.
 */
export function nextTurnOf(
  turns: AnthropicProgramLoopOptions["turns"],
  results: readonly ToolResultBlock[],
): NextTurn {
  const answered = results.map((result) => result.id);
  const expected = turns.flat().map((call) => call.id);
  const done = turns.findIndex((turn) => turn.some((call) => !answered.includes(call.id)));
  const count = done === -1 ? expected.length : turns.slice(0, done).flat().length;
  if (answered.join() !== expected.slice(0, count).join()) {
    const listed = (ids: string[]) => ids.join(", ") || "none";
    return {
      kind: "invalid",
      reason: `the request's tool results (${listed(answered)}) are not the script's first ${count} calls (${listed(expected.slice(0, count))}), in order`,
    };
  }
  return done === -1 ? { kind: "final" } : { kind: "turn", index: done };
}

/** Turn `index`'s reply: the first turn streams the code and its calls; later ones come whole. */
function turnReply(options: AnthropicProgramLoopOptions, index: number): WireReply {
  const caller = { type: CODE_EXECUTION, tool_id: CODE_CALL };
  const calls = options.turns[index]!;
  if (index === 0) {
    return {
      chunks: anthropicStream({
        id: "msg_turn_1",
        model: options.model,
        blocks: [
          {
            start: { type: "server_tool_use", id: CODE_CALL, name: "code_execution", input: {} },
            deltas: [{ type: "input_json_delta", partial_json: JSON.stringify({ code: "the program" }) }],
          },
          ...calls.map((call) =>
            anthropicToolUse({ id: call.id, name: call.name, caller }, JSON.stringify(call.input)),
          ),
        ],
        stopReason: "tool_use",
        delta: { container: programContainer },
      }),
    };
  }
  // As the code's later calls come: the whole message in `message_start`.
  return {
    chunks: [
      anthropicEvent("message_start", {
        message: {
          id: `msg_turn_${index + 1}`,
          type: "message",
          role: "assistant",
          model: options.model,
          content: calls.map((call) => ({ type: "tool_use", ...call, caller })),
          container: programContainer,
          stop_reason: "tool_use",
          stop_sequence: null,
          usage: { input_tokens: 50, output_tokens: 1 },
        },
      }),
      anthropicEvent("message_stop"),
    ],
  };
}

/** The last turn: the code's result, then Claude's answer. */
function finalReply(options: AnthropicProgramLoopOptions, results: readonly ToolResultBlock[]): WireReply {
  return {
    chunks: anthropicStream({
      id: "msg_final",
      model: options.model,
      blocks: [
        {
          start: {
            type: "code_execution_tool_result",
            tool_use_id: CODE_CALL,
            content: { type: "code_execution_result", stdout: "", stderr: "", return_code: 0, content: [] },
          },
        },
        anthropicText(options.finalText(results.map((result) => result.text))),
      ],
      stopReason: "end_turn",
    }),
  };
}

/** Anthropic's answer to a request it refuses: HTTP 400, `invalid_request_error`. */
const invalid = (message: string): WireReply => ({
  status: 400,
  json: {
    type: "error",
    error: { type: "invalid_request_error", message: `anthropic program loop: ${message}` },
  },
});

/** The reply to `request`, from its content alone. */
export function programLoopReply(options: AnthropicProgramLoopOptions, request: RecordedRequest): WireReply {
  const results = toolResultsOf(request.body);
  if (typeof results === "string") return invalid(results);
  const next = nextTurnOf(options.turns, results);
  if (next.kind === "invalid") return invalid(next.reason);
  // The code's container goes on from turn to turn: every request after the first names it.
  if (results.length > 0 && request.body.container !== programContainer.id)
    return invalid(`a request with tool results must send container "${programContainer.id}"`);
  return next.kind === "final" ? finalReply(options, results) : turnReply(options, next.index);
}

/**
 * Starts the endpoint on 127.0.0.1 (a random port): every request is answered from its content
 * (`programLoopReply`), except those `holdAt` leaves unanswered.
 */
export async function startAnthropicProgramLoop(
  options: AnthropicProgramLoopOptions,
): Promise<AnthropicProgramLoop> {
  let held: number | undefined;
  const fake = await startWireFake({
    fallback: (request) => {
      const results = toolResultsOf(request.body);
      // Never answered: the client is killed while it waits (or gives up on its own).
      if (held !== undefined && Array.isArray(results) && results.length === held)
        return new Promise<WireReply>(() => undefined);
      return programLoopReply(options, request);
    },
  });
  return {
    ...fake,
    holdAt: (results) => {
      held = results;
    },
    release: () => {
      held = undefined;
    },
  };
}
