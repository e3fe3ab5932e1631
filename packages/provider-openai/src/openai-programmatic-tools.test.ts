import { Agent, type AgentConfig, type AgentEvent, annotationPolicy, type RunState } from "@junction/core";
import {
  type Message,
  type ModelStreamEvent,
  ProviderError,
  type Tool,
  type ToolDefinition,
} from "@junction/types";
import {
  collectStream,
  responsesMessage,
  responsesStream,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { closedObjectSchema, programmaticTools } from "@junction/wire-fake/programmatic-tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openai } from "./openai-provider.js";
import { prepareOpenAITools } from "./prepare-openai-tools.js";

// OpenAI's Programmatic Tool Calling through the real `openai` SDK against a local server speaking
// the Responses API's SSE framing, with a real Agent: the program's calls go through the Agent's
// gate (validation, approval, the exfiltration guard, spans) like direct ones, and survive a
// RunState round trip through JSON into a new Agent.

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const model = "gpt-5.6";
const program = {
  id: "prog_0a1b",
  type: "program",
  call_id: "call_prog_1",
  code: 'const west = await tools.sales_query({ region: "West" });\nawait tools.send_report({ to: "boss", total: Number(west) });\ntext(String(west));',
  fingerprint: "fp_opaque_Zm9vYmFy",
};
const caller = { type: "program", caller_id: program.call_id };
const functionCall = (
  id: string,
  { name, input }: { name: string; input: unknown },
  by: unknown = caller,
) => ({
  id: `fc_${id}`,
  type: "function_call",
  status: "completed",
  call_id: `call_${id}`,
  name,
  arguments: JSON.stringify(input),
  ...(by ? { caller: by } : {}),
});
const programOutput = {
  id: "progout_0a1b",
  type: "program_output",
  call_id: program.call_id,
  result: "sent 42",
  status: "completed",
};

/** Turn 1: the model writes a program; the program calls `sales_query`, which pauses it. */
const programCallsSalesQuery = {
  chunks: responsesStream({
    id: "resp_1",
    model,
    output: [
      responsesMessage("msg_1", "Let me total it in code."),
      program,
      functionCall("sales", { name: "sales_query", input: { region: "West" } }),
    ],
  }),
};
/** Turn 2: the program goes on and calls `send_report`. */
const programCallsSendReport = {
  chunks: responsesStream({
    id: "resp_2",
    model,
    output: [functionCall("report", { name: "send_report", input: { to: "boss", total: 42 } })],
  }),
};
/** Turn 3: the program has finished; the model answers. */
const programFinishes = {
  chunks: responsesStream({
    id: "resp_3",
    model,
    output: [programOutput, responsesMessage("msg_3", "Sent the West total, 42.")],
  }),
};
const textTurn = (text: string) => ({
  chunks: responsesStream({ id: "resp_text", model, output: [responsesMessage("msg_text", text)] }),
});

const object = closedObjectSchema;
const tools = (runs: string[]): Tool[] => programmaticTools(runs);

function agent(runs: string[], extra: Partial<AgentConfig> = {}) {
  return new Agent({
    provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }),
    model,
    tools: tools(runs),
    approval: annotationPolicy(),
    // Programs run on OpenAI; core's code mode says who may call what (three tools: a smaller
    // toolset than code mode's default minimum, so the minimum is lowered).
    codeMode: {
      sandbox: "provider",
      tools: { "sales_*": "code", send_report: "both", lookup: "direct" },
      minTools: 1,
    },
    ...extra,
  });
}

/** Turn 1 as OpenAI must get it back: its message, the program unchanged, and the program's call with its caller. */
const turn1Back = [
  {
    type: "message",
    role: "assistant",
    id: "msg_1",
    status: "completed",
    content: [{ type: "output_text", text: "Let me total it in code.", annotations: [] }],
  },
  program,
  {
    type: "function_call",
    id: "fc_sales",
    call_id: "call_sales",
    name: "sales_query",
    arguments: '{"region":"West"}',
    caller,
  },
];
const turn2Back = {
  type: "function_call",
  id: "fc_report",
  call_id: "call_report",
  name: "send_report",
  arguments: '{"to":"boss","total":42}',
  caller,
};

/** Runs turns 1 and 2: `sales_query` runs unasked, then `send_report` (made by the program) needs a person. */
async function stoppedRun(runs: string[]): Promise<RunState> {
  fake.enqueue(programCallsSalesQuery, programCallsSendReport);
  const handle = agent(runs).send("Total the West sales and mail them to my boss.", { approvalTimeoutMs: 0 });
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  const result = await handle.final;
  // The program's calls are the run's calls: announced, run or asked about, like direct ones.
  expect(
    events.flatMap((event) =>
      event.type === "tool-call" || event.type === "tool-result" || event.type === "tool-approval-request"
        ? [`${event.type} ${event.id}`]
        : [],
    ),
  ).toEqual([
    "tool-call call_sales",
    "tool-result call_sales",
    "tool-call call_report",
    "tool-approval-request call_report",
  ]);
  expect(result.finishReason).toBe("approval-required");
  expect((result.pending ?? []).map(({ id, name, input }) => ({ id, name, input }))).toEqual([
    { id: "call_report", name: "send_report", input: { to: "boss", total: 42 } },
  ]);
  expect(runs).toEqual(["sales_query West"]);
  // A plain state: what a store keeps and gives back.
  return JSON.parse(JSON.stringify(result.state)) as RunState;
}

describe("OpenAI Programmatic Tool Calling through the Agent", () => {
  it("sends allowed_callers and the programmatic tool, answers the program's calls with their caller, and resumes a paused call in a new Agent", async () => {
    const runs: string[] = [];
    const state = await stoppedRun(runs);

    const [first, second] = fake.requests.map((request) => request.body);
    expect(first.tools).toEqual([
      {
        type: "function",
        name: "sales_query",
        description: "Total sales of a region.",
        parameters: object({ region: { type: "string" } }, ["region"]),
        strict: false,
        allowed_callers: ["programmatic"],
      },
      {
        type: "function",
        name: "send_report",
        description: "Mail a report.",
        parameters: object({ to: { type: "string" }, total: { type: "number" } }, ["to", "total"]),
        strict: false,
        allowed_callers: ["direct", "programmatic"],
      },
      {
        type: "function",
        name: "lookup",
        description: "Look a word up.",
        parameters: object({ word: { type: "string" } }, ["word"]),
        strict: false,
      },
      { type: "programmatic_tool_calling" },
    ]);
    // The program's first call answered: the turn as it came, then the output with the caller.
    expect(second.input).toEqual([
      { role: "user", content: "Total the West sales and mail them to my boss." },
      ...turn1Back,
      { type: "function_call_output", call_id: "call_sales", output: "42", caller },
    ]);
    expect(second.tools).toEqual(first.tools);

    // Another process: a new Agent resumes the plain state with the person's approval.
    fake.enqueue(programFinishes, textTurn("You're welcome."));
    const later: string[] = [];
    const resumedAgent = agent(later);
    const resumed = await resumedAgent.resume({ state, decisions: { call_report: "approve" } }).final;
    expect(resumed.finishReason).toBe("stop");
    expect(resumed.text).toBe("Sent the West total, 42.");
    expect(later).toEqual(["send_report boss 42"]);
    expect(fake.requests).toHaveLength(3);
    const third = fake.requests[2]!.body;
    expect(third.input).toEqual([
      ...second.input,
      turn2Back,
      { type: "function_call_output", call_id: "call_report", output: "mailed", caller },
    ]);

    // The next turn sends the program's output back as it came.
    await resumedAgent.send("Thanks.").final;
    const fourth = fake.requests[3]!.body;
    expect(fourth.input.slice(-3)).toEqual([
      programOutput,
      {
        type: "message",
        role: "assistant",
        id: "msg_3",
        status: "completed",
        content: [{ type: "output_text", text: "Sent the West total, 42.", annotations: [] }],
      },
      { role: "user", content: "Thanks." },
    ]);
    // Each approved call ran once, in all.
    expect([...runs, ...later]).toEqual(["sales_query West", "send_report boss 42"]);
  });

  it("keeps the program item, with its code and fingerprint, and each call's caller in the turn's provider metadata", async () => {
    fake.enqueue(programCallsSalesQuery, textTurn("West is 42."));
    const result = await agent([]).send("Total the West sales.").final;
    const turn = result.messages.find((message) => message.role === "assistant");
    expect(turn?.content).toEqual([
      { type: "text", text: "Let me total it in code.", providerMetadata: { openai: { itemId: "msg_1" } } },
      { type: "reasoning", text: "", providerMetadata: { openai: { programItem: program } } },
      {
        type: "tool-call",
        id: "call_sales",
        name: "sales_query",
        input: { region: "West" },
        // The program, model-neutral: what an approval card shows beside the call.
        program: { id: program.call_id, runtime: "programmatic_tool_calling", source: program.code },
        providerMetadata: { openai: { itemId: "fc_sales", caller } },
      },
    ]);
  });

  it("a denied call of the program goes back as its output, with the caller, and the tool never runs", async () => {
    const runs: string[] = [];
    const state = await stoppedRun(runs);
    fake.enqueue(programFinishes);
    const later: string[] = [];
    const result = await agent(later).resume({ state, decisions: { call_report: { deny: "not today" } } })
      .final;
    expect(result.finishReason).toBe("stop");
    expect(later).toEqual([]);
    const third = fake.requests[2]!.body;
    expect(third.input.at(-2)).toEqual(turn2Back);
    const answer = third.input.at(-1);
    expect(answer).toMatchObject({ type: "function_call_output", call_id: "call_report", caller });
    expect(JSON.stringify(answer.output)).toContain("not today");
  });

  it("a call of the program with invalid arguments is refused by the Agent's validation before the tool runs", async () => {
    const runs: string[] = [];
    const invalid = {
      chunks: responsesStream({
        id: "resp_invalid",
        model,
        output: [program, functionCall("bad", { name: "sales_query", input: { region: 7 } })],
      }),
    };
    fake.enqueue(invalid, programFinishes);
    const result = await agent(runs).send("Total the sales.").final;
    expect(result.finishReason).toBe("stop");
    expect(runs).toEqual([]);
    const answer = fake.requests[1]!.body.input.at(-1);
    expect(answer).toMatchObject({ type: "function_call_output", call_id: "call_bad", caller });
    expect(JSON.stringify(answer.output)).toContain("region");
  });

  it("the exfiltration guard stops the program's open-world call after its closed-world read, though the policy approves it", async () => {
    const runs: string[] = [];
    fake.enqueue(programCallsSalesQuery, programCallsSendReport);
    const result = await agent(runs, { approval: () => "approve" }).send("Total and mail.").final;
    expect(result.finishReason).toBe("approval-required");
    expect((result.pending ?? []).map((call) => call.id)).toEqual(["call_report"]);
    expect(runs).toEqual(["sales_query West"]);
  });

  it("each of the program's calls gets its tool span, like a direct call", async () => {
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
    fake.enqueue(programCallsSalesQuery, textTurn("West is 42."));
    await agent([], { tracer }).send("Total the West sales.").final;
    const toolSpans = spans.filter((span) => span.name === "junction.tool.call");
    expect(
      toolSpans.map((span) => [
        span.attributes["junction.tool.name"],
        span.attributes["junction.tool.call_id"],
      ]),
    ).toEqual([["sales_query", "call_sales"]]);
    expect(toolSpans[0]!.attributes["junction.tool.outcome"]).toBe("success");
  });
});

describe("what OpenAI sends is checked", () => {
  const provider = () => openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });
  const stream = (messages: Message[] = [{ role: "user", content: "Go." }]) =>
    collectStream(provider().stream({ model, messages }));
  const refusal = async (output: Record<string, unknown>[], messages?: Message[]) => {
    fake.enqueue({ chunks: responsesStream({ id: "resp_bad", model, output }) });
    const { error } = await stream(messages);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).code).toBe("provider-response-invalid");
    return (error as Error).message;
  };

  it("refuses a call whose caller names a program neither the response nor the conversation has, naming it", async () => {
    expect(
      await refusal([
        functionCall("x", { name: "sales_query", input: {} }, { type: "program", caller_id: "call_prog_9" }),
      ]),
    ).toContain(
      'a function_call item "call_x" whose caller names program "call_prog_9", which is in neither this response nor the conversation',
    );
  });

  it("refuses a caller of unknown form, a program without its fingerprint, and an output of an unknown program", async () => {
    expect(
      await refusal([functionCall("x", { name: "sales_query", input: {} }, { type: "robot" })]),
    ).toContain('a function_call item "call_x" with a caller of unknown form {"type":"robot"}');
    const { fingerprint: _, ...unsigned } = program;
    expect(await refusal([unsigned])).toContain('a program item without a non-empty string "fingerprint"');
    expect(await refusal([{ ...programOutput, call_id: "call_prog_9" }])).toContain(
      'a program_output item for program "call_prog_9", which is in neither this response nor the conversation',
    );
  });

  it("takes a call of a program the conversation holds, and a call made directly", async () => {
    fake.enqueue(programCallsSalesQuery);
    const first = await stream();
    const finish = first.events.at(-1) as Extract<ModelStreamEvent, { type: "finish" }>;
    expect(finish.reason).toBe("tool-calls");
    const messages: Message[] = [
      { role: "user", content: "Go." },
      { role: "assistant", content: finish.content },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_sales", toolName: "sales_query", output: "42" }],
      },
    ];
    fake.enqueue(programCallsSendReport);
    const second = await stream(messages);
    expect(second.events.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls" });
    fake.enqueue({
      chunks: responsesStream({
        id: "resp_direct",
        model,
        output: [functionCall("direct", { name: "lookup", input: { word: "x" } }, { type: "direct" })],
      }),
    });
    const direct = await stream();
    const call = (direct.events.at(-1) as Extract<ModelStreamEvent, { type: "finish" }>).content[0];
    expect(call).toEqual({
      type: "tool-call",
      id: "call_direct",
      name: "lookup",
      input: { word: "x" },
      providerMetadata: { openai: { itemId: "fc_direct" } },
    });
  });
});

describe("the program a call was made by, on its tool-call part", () => {
  const provider = () => openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });
  const streamTurn = async (messages: Message[]) => {
    const { events, error } = await collectStream(provider().stream({ model, messages }));
    expect(error).toBeUndefined();
    const finish = events.at(-1) as Extract<ModelStreamEvent, { type: "finish" }>;
    const calls = events.filter(
      (event): event is Extract<ModelStreamEvent, { type: "tool-call" }> => event.type === "tool-call",
    );
    return {
      calls: calls.map((call) => [call.id, call.program]),
      parts: finish.content.flatMap((part) => (part.type === "tool-call" ? [[part.id, part.program]] : [])),
      content: finish.content,
    };
  };
  const named = { id: program.call_id, runtime: "programmatic_tool_calling", source: program.code };

  it("names the program item's call_id and carries its code, on the event and the part, in this turn and the next", async () => {
    fake.enqueue(programCallsSalesQuery, programCallsSendReport);
    const ask: Message = { role: "user", content: "Go." };
    const first = await streamTurn([ask]);
    expect(first.calls).toEqual([["call_sales", named]]);
    expect(first.parts).toEqual([["call_sales", named]]);
    // The turn after: the program is in the conversation sent, not in the response.
    const second = await streamTurn([
      ask,
      { role: "assistant", content: first.content },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_sales", toolName: "sales_query", output: "42" }],
      },
    ]);
    expect(second.calls).toEqual([["call_report", named]]);
    expect(second.parts).toEqual([["call_report", named]]);
    // What goes back to OpenAI is unchanged.
    const report = second.content.find((part) => part.type === "tool-call");
    expect(report?.providerMetadata).toEqual({ openai: { itemId: "fc_report", caller } });
  });
});

describe("Programmatic Tool Calling on the request and the model", () => {
  it("declares programmaticToolCalling for the GPT-5.6 family only", () => {
    const capabilities = (id: string) => openai({ apiKey: "sk-test" }).capabilitiesFor?.(id);
    for (const id of ["gpt-5.6", "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "openai/gpt-5.6-luna"])
      expect(capabilities(id)?.programmaticToolCalling, id).toBe(true);
    for (const id of ["gpt-5.5", "gpt-5.4", "gpt-5-mini", "gpt-5.60", "gpt-4.1"])
      expect(capabilities(id)?.programmaticToolCalling, id).toBeUndefined();
  });

  it("an Agent refuses code mode on the provider for a model without it, naming the model", () => {
    expect(
      () =>
        new Agent({
          provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1` }),
          model: "gpt-5.5",
          tools: tools([]),
          codeMode: { sandbox: "provider" },
        }),
    ).toThrow(`openai's "gpt-5.5" does not. Run programs in a sandbox instead`);
  });

  it("sends no programmatic tool when no definition has callers, and keeps allowed_callers on a deferred tool in its namespace", () => {
    const definition = (
      name: string,
      extra: Pick<ToolDefinition, "callers" | "defer" | "group"> = {},
    ): ToolDefinition => ({
      ...extra,
      name,
      description: "",
      inputSchema: { type: "object", properties: {} },
    });
    const plain = prepareOpenAITools({
      tools: [definition("a")],
      toolChoice: undefined,
      messages: [],
      strict: false,
    });
    expect(plain.tools).toEqual([
      { type: "function", name: "a", parameters: { type: "object", properties: {} }, strict: false },
    ]);
    const deferred = prepareOpenAITools({
      tools: [
        definition("crm_find", {
          callers: "code",
          defer: true,
          group: { name: "crm", description: "CRM tools." },
        }),
      ],
      toolChoice: undefined,
      messages: [],
      strict: false,
    });
    expect(deferred.tools).toEqual([
      {
        type: "namespace",
        name: "crm",
        description: "CRM tools.",
        tools: [
          {
            type: "function",
            name: "crm_find",
            parameters: { type: "object", properties: {} },
            strict: false,
            allowed_callers: ["programmatic"],
            defer_loading: true,
          },
        ],
      },
      { type: "tool_search" },
      { type: "programmatic_tool_calling" },
    ]);
  });
});
