import { Agent, type AgentConfig } from "@junction/core";
import {
  type AssistantContentPart,
  JunctionError,
  type Message,
  type ModelStreamEvent,
} from "@junction/types";
import {
  anthropicEvent,
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  collectStream,
} from "@junction/wire-fake";
import { wireFakePerTest } from "@junction/wire-fake/per-test";
import {
  closedObjectSchema,
  playProgramConversation,
  programmaticTools,
} from "@junction/wire-fake/programmatic-tools";
import { describe, expect, it } from "vitest";
import { anthropic } from "./anthropic-provider.js";

// Anthropic's wire for programmatic tool calling. What every vendor that runs programs does the same
// (who may call what, ToolCallPart.program and its source, the program's calls through the Agent's
// gate and a resume) is the provider contract's (tooling/provider-contract,
// contract-programmatic-calls.ts); here: the exact tools and messages, the container, the caller in
// the part's metadata, a program the conversation does not hold, the code execution option.

const fake = wireFakePerTest();

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

function agent(extra: Partial<AgentConfig> = {}) {
  return new Agent({
    provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }),
    model,
    tools: programmaticTools([]),
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

const provider = () => anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 });
const ask = { role: "user", content: "Total the West sales and mail them to my boss." } as const;
/** Streams one turn for `messages` and gives its content. */
async function streamTurn(messages: Message[]): Promise<AssistantContentPart[]> {
  const { events, error } = await collectStream(provider().stream({ model, messages }));
  expect(error).toBeUndefined();
  const finish = events.find((event) => event.type === "finish");
  return (finish as Extract<ModelStreamEvent, { type: "finish" }>).content ?? [];
}
const toolCalls = (content: AssistantContentPart[]) => content.filter((part) => part.type === "tool-call");

describe("Anthropic's wire for programmatic tool calling", () => {
  it("declares allowed_callers and the code execution tool, and sends no container or option of its own", async () => {
    fake.enqueue(textTurn("Nothing to do."));
    await agent().send("Total the West sales and mail them to my boss.").final;
    const first = fake.requests[0]!.body;
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
  });

  it("sends each turn back as it came, the code's calls with their caller, naming the container while a call of the code waits", async () => {
    fake.enqueue(codeCallsSalesQuery, codeCallsSendReport, codeFinishes, textTurn("You're welcome."));
    const turns: AssistantContentPart[][] = [];
    await playProgramConversation<AssistantContentPart[]>({
      ask: ask.content,
      callIds: { sales: "toolu_sales", report: "toolu_report" },
      stream: async (messages) => {
        turns.push(await streamTurn(messages));
        return turns.at(-1)!;
      },
    });
    // What goes back to Anthropic rides on the part's metadata.
    expect(toolCalls(turns[0]!)[0]!.providerMetadata).toEqual({ anthropic: { caller, container } });

    const [, second, third, fourth] = fake.requests.map((request) => request.body);
    // The code's first call answered: the turn as it came, only a tool_result after it, the container echoed.
    expect(second.container).toBe(container.id);
    expect(second.messages).toEqual([
      { role: "user", content: "Total the West sales and mail them to my boss." },
      turn1Back,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_sales", content: "42" }] },
    ]);
    expect(third.container).toBe(container.id);
    expect(third.messages).toEqual([
      ...second.messages,
      turn2Back,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_report", content: "mailed" }] },
    ]);
    // The next turn sends the code's result back as it came, and no container (no call of the code is pending).
    expect(fourth.container).toBeUndefined();
    expect(fourth.messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: [codeResult, { type: "text", text: "Sent the West total, 42." }],
      },
      { role: "user", content: "Thanks." },
    ]);
  });

  it("refuses a code execution version it does not know, and the moved per-tool map, naming what to do", async () => {
    const bad = (programmaticToolCalling: unknown) =>
      agent({ modelSettings: { providerOptions: { anthropic: { programmaticToolCalling } } } })
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
    await agent({
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

describe("the program a code execution call was made by, on its tool-call part", () => {
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
    const content = await streamTurn([ask]);
    expect(toolCalls(content).map((part) => [part.id, part.program])).toEqual([
      ["toolu_report", { id: "srvtoolu_code1", runtime: CODE }],
      ["toolu_lookup", undefined],
    ]);
  });
});
