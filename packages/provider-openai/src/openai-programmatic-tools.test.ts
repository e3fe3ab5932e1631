import { Agent, annotationPolicy } from "@junction/core";
import {
  type AssistantContentPart,
  type Message,
  type ModelStreamEvent,
  ProviderError,
  type ToolDefinition,
} from "@junction/types";
import { collectStream, responsesMessage, responsesStream } from "@junction/wire-fake";
import { wireFakePerTest } from "@junction/wire-fake/per-test";
import {
  closedObjectSchema,
  playProgramConversation,
  programmaticTools,
} from "@junction/wire-fake/programmatic-tools";
import { describe, expect, it } from "vitest";
import { openai } from "./openai-provider.js";
import { prepareOpenAITools } from "./prepare-openai-tools.js";

// OpenAI's wire for Programmatic Tool Calling, through the real `openai` SDK against a local server
// speaking the Responses API's SSE framing. What every vendor that runs programs does the same (who
// may call what, ToolCallPart.program and its source, the program's calls through the Agent's gate
// and a resume, provider code mode refused for a model without programs) is the provider
// contract's (tooling/provider-contract, contract-programmatic-calls.ts); here: the exact tools and
// input items, the program item and the caller in the metadata, the checks on what OpenAI sends,
// the models and the tool preparation.

const fake = wireFakePerTest();

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

/** An Agent whose code mode runs programs on OpenAI: who may call what (three tools, so the minimum is lowered). */
function agent() {
  return new Agent({
    provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }),
    model,
    tools: programmaticTools([]),
    approval: annotationPolicy(),
    codeMode: {
      sandbox: "provider",
      tools: { "sales_*": "code", send_report: "both", lookup: "direct" },
      minTools: 1,
    },
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

describe("OpenAI's wire for Programmatic Tool Calling", () => {
  it("declares allowed_callers and the programmatic tool on every request, and keeps the program item, with its code and fingerprint, and each call's caller in the turn's provider metadata", async () => {
    fake.enqueue(programCallsSalesQuery, textTurn("West is 42."));
    const result = await agent().send("Total the West sales.").final;
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
    expect(second.tools).toEqual(first.tools);
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

  it("sends each turn back as it came: the program unchanged, each call and each output with its caller", async () => {
    const provider = () => openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });
    const streamTurn = async (messages: Message[]) => {
      const { events, error } = await collectStream(provider().stream({ model, messages }));
      expect(error).toBeUndefined();
      return (events.at(-1) as Extract<ModelStreamEvent, { type: "finish" }>).content;
    };
    fake.enqueue(
      programCallsSalesQuery,
      programCallsSendReport,
      programFinishes,
      textTurn("You're welcome."),
    );
    const turns: AssistantContentPart[][] = [];
    await playProgramConversation<AssistantContentPart[]>({
      ask: "Total the West sales and mail them to my boss.",
      callIds: { sales: "call_sales", report: "call_report" },
      stream: async (messages) => {
        turns.push(await streamTurn(messages));
        return turns.at(-1)!;
      },
    });
    // What goes back to OpenAI rides on the part's metadata.
    expect(turns[1]!.find((part) => part.type === "tool-call")?.providerMetadata).toEqual({
      openai: { itemId: "fc_report", caller },
    });

    const [, second, third, fourth] = fake.requests.map((request) => request.body);
    // The program's first call answered: the turn as it came, then the output with the caller.
    expect(second.input).toEqual([
      { role: "user", content: "Total the West sales and mail them to my boss." },
      ...turn1Back,
      { type: "function_call_output", call_id: "call_sales", output: "42", caller },
    ]);
    expect(third.input).toEqual([
      ...second.input,
      turn2Back,
      { type: "function_call_output", call_id: "call_report", output: "mailed", caller },
    ]);
    // The next turn sends the program's output back as it came.
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

  it("takes a call made directly, naming no program", async () => {
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

describe("Programmatic Tool Calling on the request and the model", () => {
  it("declares programmaticToolCalling for the GPT-5.6 family only", () => {
    const capabilities = (id: string) => openai({ apiKey: "sk-test" }).capabilitiesFor?.(id);
    for (const id of ["gpt-5.6", "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "openai/gpt-5.6-luna"])
      expect(capabilities(id)?.programmaticToolCalling, id).toBe(true);
    for (const id of ["gpt-5.5", "gpt-5.4", "gpt-5-mini", "gpt-5.60", "gpt-4.1"])
      expect(capabilities(id)?.programmaticToolCalling, id).toBeUndefined();
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
