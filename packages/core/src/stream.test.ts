import { type Message, ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { type AgentEvent, argumentsDigest, generate, runStateOf, stream } from "./index.js";
import { scriptedModel } from "./testing/index.js";

const messages: Message[] = [{ role: "user", content: "Echo hi" }];
const tools = [
  {
    name: "echo",
    description: "Echoes",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  },
];

describe("stream() and generate() without an Agent", () => {
  it("runs the loop through onToolCall and streams the events", async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "1", name: "echo", input: { text: "hi" } },
          { id: "2", name: "missing" },
        ],
      },
      { text: "hi" },
    ]);
    const calls: unknown[] = [];
    const handle = stream({
      provider,
      model: "m",
      messages,
      tools,
      onToolCall: async (call, context) => {
        calls.push(call);
        expect(context.signal).toBeInstanceOf(AbortSignal);
        return call.name === "echo"
          ? [{ type: "text", text: String((call.input as { text: string }).text) }]
          : null;
      },
    });
    const events: AgentEvent[] = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;
    expect(calls).toEqual([
      { id: "1", name: "echo", input: { text: "hi" } },
      { id: "2", name: "missing", input: {} },
    ]);
    expect(result.steps[0]!.toolResults).toEqual([
      {
        type: "tool-result",
        toolCallId: "1",
        toolName: "echo",
        output: { content: [{ type: "text", text: "hi" }], isError: false },
      },
      {
        type: "tool-result",
        toolCallId: "2",
        toolName: "missing",
        output: { content: [{ type: "text", text: 'There is no tool named "missing".' }], isError: true },
      },
    ]);
    expect(provider.requests[0]!.tools).toEqual(tools);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    // The caller's messages are left alone; the result has the whole conversation.
    expect(messages).toHaveLength(1);
    expect(result.messages).toHaveLength(4);
  });

  it("without onToolCall stops at the first turn that calls tools and hands the calls back", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "1", name: "echo", input: { text: "x" } }] },
      { text: "never" },
    ]);
    const result = await generate({ provider, model: "m", messages, tools });
    expect(result.finishReason).toBe("tool-calls");
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]!.toolCalls).toEqual([
      { type: "tool-call", id: "1", name: "echo", input: { text: "x" } },
    ]);
    expect(provider.remaining).toBe(1);
  });

  it("turns a throwing handler into an error result and rejects invalid messages", async () => {
    const provider = scriptedModel([{ toolCalls: [{ id: "1", name: "echo" }] }, { text: "sorry" }]);
    const result = await generate({
      provider,
      model: "m",
      messages,
      tools,
      onToolCall: async () => {
        throw new Error("nope");
      },
    });
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({
      content: [{ type: "text", text: 'Tool "echo" failed: nope' }],
      isError: true,
    });
    await expect(
      generate({ provider: scriptedModel([]), model: "m", messages: [{ role: "robot" }] as never }),
    ).rejects.toThrow('Invalid conversation: message 0: unknown role "robot".');
  });
});

describe("stream() and generate() with approvals", () => {
  it("a call the policy asks about ends generate() with approval-required; resume runs it once and asks the model only for the next step", async () => {
    const ran: unknown[] = [];
    const onToolCall = async (call: { input: unknown }) => {
      ran.push(call.input);
      return "echoed";
    };
    const first = await generate({
      provider: scriptedModel([{ toolCalls: [{ id: "e1", name: "echo", input: { text: "hi" } }] }]),
      model: "m",
      messages,
      tools,
      onToolCall,
      approval: () => "ask",
    });
    expect(first.finishReason).toBe("approval-required");
    expect(first.pending).toEqual([
      {
        id: "e1",
        name: "echo",
        input: { text: "hi" },
        step: 1,
        // What a decision is bound to: the tool as the step offered it, and the arguments.
        toolDigest: first.state!.tools.find((tool) => tool.name === "echo")!.digest,
        argumentsDigest: await argumentsDigest({ text: "hi" }),
      },
    ]);
    expect(ran).toEqual([]);
    const state = JSON.parse(JSON.stringify(first.state));
    expect(state.messages).toEqual(messages);

    const provider = scriptedModel([{ text: "done" }]);
    const resumed = await generate({
      provider,
      model: "m",
      tools,
      onToolCall,
      approval: () => "ask",
      resume: { state, decisions: { e1: "approve" } },
    });
    expect(resumed.text).toBe("done");
    expect(ran).toEqual([{ text: "hi" }]);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.messages.at(-1)).toMatchObject({
      role: "tool",
      content: [{ toolCallId: "e1", output: "echoed" }],
    });
  });

  it("a policy's denial and a reader's in-process approval both work as with an Agent", async () => {
    const ran: string[] = [];
    const handle = stream({
      provider: scriptedModel([
        {
          toolCalls: [
            { id: "a", name: "echo", input: { text: "ask me" } },
            { id: "b", name: "echo", input: { text: "deny me" } },
          ],
        },
        { text: "ok" },
      ]),
      model: "m",
      messages,
      tools,
      onToolCall: async (call) => {
        ran.push(call.id);
        return "ran";
      },
      approval: (request) =>
        (request.input as { text: string }).text === "deny me" ? { deny: "not this one" } : "ask",
    });
    for await (const event of handle) if (event.type === "tool-approval-request") event.approve();
    const result = await handle.final;
    expect(ran).toEqual(["a"]);
    expect(JSON.stringify(result.steps[0]!.toolResults[1]!.output)).toContain("was denied: not this one.");
  });
});

describe("generate({ resume }) that fails", () => {
  it("rejects with a state to go on from (its own was spent): the approved call ran once and is not run again", async () => {
    const ran: unknown[] = [];
    const onToolCall = async (call: { input: unknown }) => {
      ran.push(call.input);
      return "echoed";
    };
    const base = { model: "m", tools, onToolCall, approval: () => "ask" as const };
    const first = await generate({
      ...base,
      provider: scriptedModel([{ toolCalls: [{ id: "e1", name: "echo", input: { text: "hi" } }] }]),
      messages,
    });
    const outage = new ProviderError({ provider: "scripted", message: "down", status: 503 });
    const failed = await generate({
      ...base,
      provider: scriptedModel([{ error: outage }]),
      resume: { state: first.state!, decisions: { e1: "approve" } },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBe(outage);
    const next = runStateOf(failed)!;
    expect(next).toMatchObject({ runId: first.state!.runId, pending: [], resumes: 1 });
    const resumed = await generate({
      ...base,
      provider: scriptedModel([{ text: "done" }]),
      resume: { state: next, decisions: {} },
    });
    expect(resumed.text).toBe("done");
    expect(ran).toEqual([{ text: "hi" }]);
  });
});

describe("generate({ resume }) arguments a newcomer gets wrong (issue 26)", () => {
  const base = () => ({ provider: scriptedModel([]), model: "m", tools, onToolCall: async () => "x" });

  it("a state given as `resume` itself, or no `resume.state`, names the argument and says what to pass", async () => {
    const first = await generate({
      provider: scriptedModel([{ toolCalls: [{ id: "e1", name: "echo", input: { text: "hi" } }] }]),
      model: "m",
      messages,
      tools,
      onToolCall: async () => "x",
      approval: () => "ask",
    });
    expect(first.finishReason).toBe("approval-required");
    await expect(generate({ ...base(), resume: first.state as never })).rejects.toMatchObject({
      code: "invalid-argument",
      message:
        "stream(): `resume` is a run state itself; it takes one value, { state, decisions }: " +
        'for example stream({ …, resume: { state: result.state, decisions: { [result.pending[0].id]: "approve" } } }).',
    });
    await expect(generate({ ...base(), resume: {} as never })).rejects.toMatchObject({
      code: "run-state-invalid",
      message:
        'stream(): `resume.state` is undefined; pass the `state` of a result whose finishReason is "approval-required" (`result.state`), as the object or parsed back from its JSON, ' +
        'for example stream({ …, resume: { state: result.state, decisions: { [result.pending[0].id]: "approve" } } }).',
    });
  });
});
