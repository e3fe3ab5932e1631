import { Agent, type AgentConfig, type AgentEvent, annotationPolicy, type RunState } from "@junction/core";
import {
  type AssistantContentPart,
  JunctionError,
  type Message,
  type ModelStreamEvent,
  type Tool,
} from "@junction/types";
import {
  anthropicEvent,
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  collectStream,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { closedObjectSchema, programmaticTools } from "@junction/wire-fake/programmatic-tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropic } from "./anthropic-provider.js";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const model = "claude-sonnet-4-6";
const CODE = "code_execution_20250825";
const caller = { type: CODE, tool_id: "srvtoolu_code1" };
const container = { id: "container_011CZ", expires_at: "2026-12-02T09:00:00Z" };
const program =
  'west = await sales_query({"region": "West"})\nawait send_report({"to": "boss", "total": west})';

/** Turn 1: Claude writes code in the container; the code calls `sales_query`, which pauses it. */
const codeCallsSalesQuery = {
  chunks: anthropicStream({
    id: "msg_turn1",
    model,
    blocks: [
      anthropicText("Let me total it in code."),
      {
        start: { type: "server_tool_use", id: "srvtoolu_code1", name: "code_execution", input: {} },
        deltas: [{ type: "input_json_delta", partial_json: JSON.stringify({ code: program }) }],
      },
      anthropicToolUse({ id: "toolu_sales", name: "sales_query", caller }, '{"region":"West"}'),
    ],
    stopReason: "tool_use",
    // The API names the container in message_delta.
    delta: { container },
    outputTokens: 40,
  }),
};

/** A turn that arrives whole in `message_start` (as the code's later calls do), in the container. */
const wholeMessage = (id: string, content: Record<string, unknown>[]) => ({
  chunks: [
    anthropicEvent("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content,
        container,
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 1 },
      },
    }),
    anthropicEvent("message_stop"),
  ],
});

/** Turn 2: the code goes on and calls `send_report`. */
const codeCallsSendReport = wholeMessage("msg_turn2", [
  { type: "tool_use", id: "toolu_report", name: "send_report", input: { to: "boss", total: 42 }, caller },
]);

const codeResult = {
  type: "code_execution_tool_result",
  tool_use_id: "srvtoolu_code1",
  content: { type: "code_execution_result", stdout: "sent 42\n", stderr: "", return_code: 0, content: [] },
};

/** Turn 3: the code has finished; Claude answers. */
const codeFinishes = {
  chunks: anthropicStream({
    id: "msg_turn3",
    model,
    blocks: [{ start: codeResult }, anthropicText("Sent the West total, 42.")],
    stopReason: "end_turn",
  }),
};

const textTurn = (text: string) => ({
  chunks: anthropicStream({
    id: "msg_text",
    model,
    blocks: [anthropicText(text)],
    stopReason: "end_turn",
    outputTokens: 3,
  }),
});

const object = closedObjectSchema;
const tools = (runs: string[]): Tool[] => programmaticTools(runs);

function agent(runs: string[], extra: Partial<AgentConfig> = {}) {
  return new Agent({
    provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }),
    model,
    tools: tools(runs),
    approval: annotationPolicy(),
    // Programs run in Anthropic's container; code mode says who may call what (three tools: a
    // smaller toolset than code mode's default minimum, so the minimum is lowered).
    codeMode: {
      sandbox: "provider",
      tools: { "sales_*": "code", send_report: "both", lookup: "direct" },
      minTools: 1,
    },
    ...extra,
  });
}

/** The assistant turn 1 as Anthropic must get it back: its text, its code, and the code's call with its caller. */
const turn1Back = {
  role: "assistant",
  content: [
    { type: "text", text: "Let me total it in code." },
    { type: "server_tool_use", id: "srvtoolu_code1", name: "code_execution", input: { code: program } },
    { type: "tool_use", id: "toolu_sales", name: "sales_query", input: { region: "West" }, caller },
  ],
};
const turn2Back = {
  role: "assistant",
  content: [
    { type: "tool_use", id: "toolu_report", name: "send_report", input: { to: "boss", total: 42 }, caller },
  ],
};

/** Runs turns 1 and 2: `sales_query` runs unasked, then `send_report` (made by the code) needs a person. */
async function stoppedRun(runs: string[]): Promise<RunState> {
  fake.enqueue(codeCallsSalesQuery, codeCallsSendReport);
  const handle = agent(runs).send("Total the West sales and mail them to my boss.", { approvalTimeoutMs: 0 });
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  const result = await handle.final;
  // The code's calls are the run's calls: announced, run or asked about, like direct ones.
  expect(
    events.flatMap((event) =>
      event.type === "tool-call" || event.type === "tool-result" || event.type === "tool-approval-request"
        ? [`${event.type} ${event.id}`]
        : [],
    ),
  ).toEqual([
    "tool-call toolu_sales",
    "tool-result toolu_sales",
    "tool-call toolu_report",
    "tool-approval-request toolu_report",
  ]);
  expect(result.finishReason).toBe("approval-required");
  expect((result.pending ?? []).map(({ id, name, input }) => ({ id, name, input }))).toEqual([
    { id: "toolu_report", name: "send_report", input: { to: "boss", total: 42 } },
  ]);
  expect(runs).toEqual(["sales_query West"]);
  // A plain state: what a store keeps and gives back.
  return JSON.parse(JSON.stringify(result.state)) as RunState;
}

describe("Anthropic programmatic tool calling through the Agent", () => {
  it("sends allowed_callers and the code execution tool, answers the code's calls in its container, and resumes a paused call in a new Agent", async () => {
    const runs: string[] = [];
    const state = await stoppedRun(runs);

    const [first, second] = fake.requests.map((request) => request.body);
    expect(first.tools).toEqual([
      {
        name: "sales_query",
        description: "Total sales of a region.",
        input_schema: object({ region: { type: "string" } }, ["region"]),
        allowed_callers: [CODE],
      },
      {
        name: "send_report",
        description: "Mail a report.",
        input_schema: object({ to: { type: "string" }, total: { type: "number" } }, ["to", "total"]),
        allowed_callers: ["direct", CODE],
      },
      {
        name: "lookup",
        description: "Look a word up.",
        input_schema: object({ word: { type: "string" } }, ["word"]),
      },
      { type: CODE, name: "code_execution" },
    ]);
    expect(first.container).toBeUndefined();
    expect(first.programmaticToolCalling).toBeUndefined();
    // The code's first call answered: the turn as it came, only a tool_result after it, the container echoed.
    expect(second.container).toBe(container.id);
    expect(second.messages).toEqual([
      { role: "user", content: "Total the West sales and mail them to my boss." },
      turn1Back,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_sales", content: "42" }] },
    ]);

    // Another process: a new Agent resumes the plain state with the person's approval.
    fake.enqueue(codeFinishes, textTurn("You're welcome."));
    const later: string[] = [];
    const resumedAgent = agent(later);
    const resumed = await resumedAgent.resume({ state, decisions: { toolu_report: "approve" } }).final;
    expect(resumed.finishReason).toBe("stop");
    expect(resumed.text).toBe("Sent the West total, 42.");
    expect(later).toEqual(["send_report boss 42"]);
    expect(fake.requests).toHaveLength(3);
    const third = fake.requests[2]!.body;
    expect(third.container).toBe(container.id);
    expect(third.messages).toEqual([
      ...second.messages,
      turn2Back,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_report", content: "mailed" }] },
    ]);

    // The next turn sends the code's result back as it came, and no container (no call of the code is pending).
    await resumedAgent.send("Thanks.").final;
    const fourth = fake.requests[3]!.body;
    expect(fourth.container).toBeUndefined();
    expect(fourth.messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: [codeResult, { type: "text", text: "Sent the West total, 42." }],
      },
      { role: "user", content: "Thanks." },
    ]);
    // Each approved call ran once, in all.
    expect([...runs, ...later]).toEqual(["sales_query West", "send_report boss 42"]);
  });

  it("a denied call of the code goes back to the container as an error tool_result, and the tool never runs", async () => {
    const runs: string[] = [];
    const state = await stoppedRun(runs);
    fake.enqueue(codeFinishes);
    const later: string[] = [];
    const result = await agent(later).resume({ state, decisions: { toolu_report: { deny: "not today" } } })
      .final;
    expect(result.finishReason).toBe("stop");
    expect(later).toEqual([]);
    const third = fake.requests[2]!.body;
    expect(third.container).toBe(container.id);
    expect(third.messages.at(-2)).toEqual(turn2Back);
    const answer = third.messages.at(-1);
    expect(answer.role).toBe("user");
    expect(answer.content).toHaveLength(1);
    expect(answer.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_report",
      is_error: true,
    });
    expect(JSON.stringify(answer.content[0].content)).toContain("not today");
  });

  it("a call of the code with invalid arguments is refused by the Agent's validation before the tool runs", async () => {
    const runs: string[] = [];
    const invalid = wholeMessage("msg_invalid", [
      { type: "tool_use", id: "toolu_bad", name: "sales_query", input: { region: 7 }, caller },
    ]);
    fake.enqueue(invalid, codeFinishes);
    const result = await agent(runs).send("Total the sales.").final;
    expect(result.finishReason).toBe("stop");
    expect(runs).toEqual([]);
    const second = fake.requests[1]!.body;
    expect(second.container).toBe(container.id);
    const answer = second.messages.at(-1).content;
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_bad", is_error: true });
    expect(JSON.stringify(answer[0].content)).toContain("region");
  });

  it("the exfiltration guard stops the code's open-world call after its closed-world read, though the policy approves it", async () => {
    const runs: string[] = [];
    fake.enqueue(codeCallsSalesQuery, codeCallsSendReport);
    const result = await agent(runs, { approval: () => "approve" }).send("Total and mail.").final;
    expect(result.finishReason).toBe("approval-required");
    expect((result.pending ?? []).map((call) => call.id)).toEqual(["toolu_report"]);
    expect(runs).toEqual(["sales_query West"]);
  });

  it("each of the code's calls gets its tool span, like a direct call", async () => {
    const spans: { name: string; attributes: Record<string, unknown> }[] = [];
    const tracer = {
      startSpan(name: string, options: { attributes?: Record<string, unknown> }) {
        const span = { name, attributes: { ...options.attributes } };
        spans.push(span);
        return {
          setAttribute: (key: string, value: unknown) => {
            span.attributes[key] = value;
          },
          setStatus: () => undefined,
          end: () => undefined,
        };
      },
    };
    fake.enqueue(codeCallsSalesQuery, textTurn("West is 42."));
    await agent([], { tracer }).send("Total the West sales.").final;
    const toolSpans = spans.filter((span) => span.name === "junction.tool.call");
    expect(
      toolSpans.map((span) => [
        span.attributes["junction.tool.name"],
        span.attributes["junction.tool.call_id"],
      ]),
    ).toEqual([["sales_query", "toolu_sales"]]);
    expect(toolSpans[0]!.attributes["junction.tool.outcome"]).toBe("success");
  });

  it("refuses a code execution version it does not know, and the moved per-tool map, naming what to do", async () => {
    const bad = (programmaticToolCalling: unknown) =>
      agent([], { modelSettings: { providerOptions: { anthropic: { programmaticToolCalling } } } })
        .send("Hi")
        .final.catch((caught: unknown) => caught);
    const unknownVersion = await bad({ codeExecution: "code_execution_20250522" });
    expect(JunctionError.isInstance(unknownVersion)).toBe(true);
    expect((unknownVersion as Error).message).toContain(
      'providerOptions.anthropic.programmaticToolCalling.codeExecution must be one of "code_execution_20250825", "code_execution_20260120", got "code_execution_20250522".',
    );
    const moved = await bad({ tools: { sales_query: "code" } });
    expect((moved as Error).message).toContain(
      'who may call a tool is set by the Agent\'s code mode, codeMode: { sandbox: "provider", tools: { "sales_*": "code" } }',
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("sends the code execution version the option names", async () => {
    fake.enqueue(textTurn("Nothing to do."));
    await agent([], {
      modelSettings: {
        providerOptions: {
          anthropic: { programmaticToolCalling: { codeExecution: "code_execution_20260120" } },
        },
      },
    }).send("Hi").final;
    const body = fake.requests[0]!.body;
    expect(body.tools.at(-1)).toEqual({ type: "code_execution_20260120", name: "code_execution" });
    expect(body.tools[0].allowed_callers).toEqual(["code_execution_20260120"]);
  });
});

describe("code mode on the provider, for a model that does not run programs", () => {
  it("is refused when the Agent is made, naming the model and the sandbox to use instead", () => {
    expect(
      () =>
        new Agent({
          provider: anthropic({ apiKey: "test-key", baseURL: fake.url }),
          model: "claude-haiku-4-5",
          tools: tools([]),
          codeMode: { sandbox: "provider" },
        }),
    ).toThrow(
      "needs a model that runs programs itself (a provider declaring programmaticToolCalling for it: Anthropic's Claude Sonnet or Opus 4.5 and later, OpenAI's GPT-5.6); anthropic's \"claude-haiku-4-5\" does not. Run programs in a sandbox instead",
    );
  });

  it("a step with fewer tools than minTools sends every tool as before, with no code execution tool", async () => {
    fake.enqueue(textTurn("Hi."));
    await agent([], { codeMode: { sandbox: "provider", tools: { "sales_*": "code" } } }).send("Hi").final;
    const body = fake.requests[0]!.body;
    expect(
      body.tools.map((tool: { name: string; allowed_callers?: unknown }) => [
        tool.name,
        tool.allowed_callers,
      ]),
    ).toEqual([
      ["sales_query", undefined],
      ["send_report", undefined],
      ["lookup", undefined],
    ]);
  });
});

describe("the program a code execution call was made by, on its tool-call part", () => {
  const provider = () => anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 });
  const ask = { role: "user", content: "Total the West sales and mail them to my boss." } as const;
  const streamTurn = async (messages: Message[]) => {
    const { events, error } = await collectStream(provider().stream({ model, messages }));
    expect(error).toBeUndefined();
    const finish = events.find((event) => event.type === "finish");
    const calls = events.filter(
      (event): event is Extract<ModelStreamEvent, { type: "tool-call" }> => event.type === "tool-call",
    );
    return { calls, content: (finish as Extract<ModelStreamEvent, { type: "finish" }>).content ?? [] };
  };
  const toolCalls = (content: AssistantContentPart[]) => content.filter((part) => part.type === "tool-call");

  it("names the server_tool_use and carries the code the turn streamed, on the event and the part", async () => {
    fake.enqueue(codeCallsSalesQuery);
    const { calls, content } = await streamTurn([ask]);
    const expected = { id: "srvtoolu_code1", runtime: CODE, source: program };
    expect(calls.map((call) => [call.id, call.program])).toEqual([["toolu_sales", expected]]);
    expect(toolCalls(content).map((part) => [part.id, part.program])).toEqual([["toolu_sales", expected]]);
    // What goes back to Anthropic is unchanged.
    expect(toolCalls(content)[0]!.providerMetadata).toEqual({ anthropic: { caller, container } });
  });

  it("a later turn's call of the same program gets its code from the conversation sent", async () => {
    fake.enqueue(codeCallsSalesQuery, codeCallsSendReport);
    const first = await streamTurn([ask]);
    const second = await streamTurn([
      ask,
      { role: "assistant", content: first.content },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "toolu_sales", toolName: "sales_query", output: "42" }],
      },
    ]);
    const expected = { id: "srvtoolu_code1", runtime: CODE, source: program };
    expect(second.calls.map((call) => [call.id, call.program])).toEqual([["toolu_report", expected]]);
    expect(toolCalls(second.content).map((part) => [part.id, part.program])).toEqual([
      ["toolu_report", expected],
    ]);
  });

  it("a call of a program neither the turn nor the conversation holds names it without a source; the model's own call names none", async () => {
    fake.enqueue(
      wholeMessage("msg_lost", [
        {
          type: "tool_use",
          id: "toolu_report",
          name: "send_report",
          input: { to: "boss", total: 42 },
          caller,
        },
        { type: "tool_use", id: "toolu_lookup", name: "lookup", input: { word: "west" } },
      ]),
    );
    const { content } = await streamTurn([ask]);
    expect(toolCalls(content).map((part) => [part.id, part.program])).toEqual([
      ["toolu_report", { id: "srvtoolu_code1", runtime: CODE }],
      ["toolu_lookup", undefined],
    ]);
  });
});
