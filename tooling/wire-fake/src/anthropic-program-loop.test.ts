import { describe, expect, it } from "vitest";
import { nextTurnOf, programContainer, programLoopReply, toolResultsOf } from "./anthropic-program-loop.js";
import type { RecordedRequest } from "./index.js";

const call = (id: string) => ({ id, name: "ledger_append_entry", input: { entry: Number(id.at(-1)) } });
const options = {
  model: "claude-sonnet-4-6",
  turns: [[call("toolu_1"), call("toolu_2")], [call("toolu_3")]],
  finalText: (results: string[]) => `Done: ${results.join("; ")}`,
};
const resultMessage = (...ids: string[]) => ({
  role: "user",
  content: ids.map((id) => ({
    type: "tool_result",
    tool_use_id: id,
    content: [{ type: "text", text: `r${id}` }],
  })),
});
const request = (body: unknown): RecordedRequest => ({
  method: "POST",
  path: "/v1/messages",
  headers: {},
  text: JSON.stringify(body),
  body,
});
/** The JSON data of the reply's SSE events, in order. */
const events = (chunks: string[] = []) =>
  chunks.map((chunk) => JSON.parse(chunk.slice(chunk.indexOf("data: ") + 6)) as Record<string, any>);

describe("the Anthropic program loop", () => {
  it("reads the tool results a request carries, in order, and names a malformed one", () => {
    const body = {
      messages: [
        { role: "user", content: "go" },
        resultMessage("toolu_1", "toolu_2"),
        resultMessage("toolu_3"),
      ],
    };
    expect(toolResultsOf(body)).toEqual([
      { id: "toolu_1", text: "rtoolu_1" },
      { id: "toolu_2", text: "rtoolu_2" },
      { id: "toolu_3", text: "rtoolu_3" },
    ]);
    expect(toolResultsOf({})).toBe("the request has no `messages` array");
    expect(toolResultsOf({ messages: [{ role: "user", content: [{ type: "tool_result" }] }] })).toBe(
      "a tool_result has no string `tool_use_id`",
    );
  });

  it("picks the turn from the results alone: the first turn not all answered, then the answer", () => {
    const results = (...ids: string[]) => ids.map((id) => ({ id, text: "" }));
    expect(nextTurnOf(options.turns, [])).toEqual({ kind: "turn", index: 0 });
    expect(nextTurnOf(options.turns, results("toolu_1", "toolu_2"))).toEqual({ kind: "turn", index: 1 });
    expect(nextTurnOf(options.turns, results("toolu_1", "toolu_2", "toolu_3"))).toEqual({ kind: "final" });
    // Half a turn answered, or the results out of the script's order: not the script.
    expect(nextTurnOf(options.turns, results("toolu_1"))).toEqual({
      kind: "invalid",
      reason: "the request's tool results (toolu_1) are not the script's first 0 calls (none), in order",
    });
    expect(nextTurnOf(options.turns, results("toolu_2", "toolu_1")).kind).toBe("invalid");
  });

  it("answers the same request with the same turn, however often it comes", () => {
    const body = { messages: [resultMessage("toolu_1", "toolu_2")], container: programContainer.id };
    const first = programLoopReply(options, request(body));
    expect(programLoopReply(options, request(body))).toEqual(first);
    const [start] = events(first.chunks);
    expect(start!.message.content).toEqual([
      {
        type: "tool_use",
        ...call("toolu_3"),
        caller: { type: "code_execution_20250825", tool_id: "srvtoolu_code1" },
      },
    ]);
  });

  it("ends with the code's result and an answer quoting every result; refuses a later turn without the container", () => {
    const body = { messages: [resultMessage("toolu_1", "toolu_2"), resultMessage("toolu_3")] };
    expect(programLoopReply(options, request(body))).toMatchObject({
      status: 400,
      json: { error: { type: "invalid_request_error" } },
    });
    const final = events(
      programLoopReply(options, request({ ...body, container: programContainer.id })).chunks,
    );
    const texts = final
      .filter((event) => event.type === "content_block_delta")
      .map((event) => event.delta.text as string);
    expect(texts).toEqual(["Done: rtoolu_1; rtoolu_2; rtoolu_3"]);
    expect(final.find((event) => event.type === "content_block_start")!.content_block.type).toBe(
      "code_execution_tool_result",
    );
  });
});
