// OpenAI's hosted tool search through the real `openai` SDK and the Responses API's wire shape (a
// local wire fake), with @modelcontextprotocol/server-everything over stdio as the deferred source:
// on a model that declares `nativeToolSearch` (GPT-5.4 and later), the server's deferred tools go
// out as one namespace of `defer_loading` functions beside `{ type: "tool_search" }`; the response's
// `tool_search_call` / `tool_search_output` items and the namespaced `function_call` come back on
// the next request unchanged, also after the run stopped for an approval and was resumed in a new
// Agent. The item shapes follow a hosted search's response as OpenAI returns it (server execution,
// `call_id: null`, ids `tsc_…` / `tso_…`, the loaded definitions in `tools`).

import type { AgentEvent } from "@junction/core";
import { Agent, type ApprovalPolicy, type MCPEntry } from "@junction/core";
import { openai } from "@junction/provider-openai";
import type { WireFake } from "@junction/wire-fake";
import { startWireFake } from "@junction/wire-fake";
import { describe, expect, it } from "vitest";
import { useEverythingWithWireFake } from "./support/everything-with-wire-fake.js";

const context = useEverythingWithWireFake(startWireFake);

const sse = (data: Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const response = (id: string, status: string, output: unknown[] = []) => ({
  id,
  object: "response",
  model: "gpt-5.4-2026-03-05",
  status,
  output,
  usage: status === "in_progress" ? null : { input_tokens: 120, output_tokens: 20, total_tokens: 140 },
});

const NAMESPACE = "mcp-servers_everything";
const searchCall = {
  id: "tsc_0ce980d5c6afd41f016ab61423e6ec81",
  type: "tool_search_call",
  status: "completed",
  arguments: { paths: [`${NAMESPACE}.echo`] },
  call_id: null,
  execution: "server",
  created_by: null,
};
const echoDefinition = {
  type: "function",
  name: "echo",
  description: "Echoes back the input string",
  defer_loading: true,
  strict: false,
  parameters: { type: "object", properties: { message: { type: "string" } } },
};
const searchOutput = {
  id: "tso_0ce980d5c6afd41f016ab61424031481",
  type: "tool_search_output",
  status: "completed",
  call_id: null,
  execution: "server",
  created_by: null,
  tools: [{ type: "namespace", name: NAMESPACE, description: "(as sent)", tools: [echoDefinition] }],
};
const functionCall = {
  id: "fc_0ce980d5c6afd41f016ab614250d",
  type: "function_call",
  status: "completed",
  call_id: "call_echo_1",
  name: "echo",
  namespace: NAMESPACE,
  arguments: '{"message":"hi"}',
};

/** A response that searches (on OpenAI's side), loads echo and calls it. */
const searchAndCall = [
  sse({ type: "response.created", response: response("resp_1", "in_progress") }),
  sse({
    type: "response.output_item.added",
    output_index: 0,
    item: { ...searchCall, status: "in_progress" },
  }),
  sse({ type: "response.output_item.done", output_index: 0, item: searchCall }),
  sse({ type: "response.output_item.added", output_index: 1, item: searchOutput }),
  sse({ type: "response.output_item.done", output_index: 1, item: searchOutput }),
  sse({ type: "response.output_item.added", output_index: 2, item: { ...functionCall, arguments: "" } }),
  sse({ type: "response.function_call_arguments.delta", output_index: 2, delta: '{"message":"hi"}' }),
  sse({ type: "response.output_item.done", output_index: 2, item: functionCall }),
  sse({
    type: "response.completed",
    response: response("resp_1", "completed", [searchCall, searchOutput, functionCall]),
  }),
];
const message = { id: "msg_2", type: "message", role: "assistant", status: "completed" };
const answer = [
  sse({ type: "response.created", response: response("resp_2", "in_progress") }),
  sse({ type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } }),
  sse({ type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "It said hi." }),
  sse({
    type: "response.output_item.done",
    output_index: 0,
    item: { ...message, content: [{ type: "output_text", text: "It said hi.", annotations: [] }] },
  }),
  sse({ type: "response.completed", response: response("resp_2", "completed") }),
];

/** The input items the second request must carry after the user's message: the turn, unchanged, and echo's result. */
const echoedTurn = [
  searchCall,
  searchOutput,
  {
    type: "function_call",
    id: functionCall.id,
    call_id: "call_echo_1",
    name: "echo",
    namespace: NAMESPACE,
    arguments: '{"message":"hi"}',
  },
  {
    type: "function_call_output",
    call_id: "call_echo_1",
    output: [{ type: "input_text", text: "Echo: hi" }],
  },
];

function agentFor(fake: WireFake, mcps: MCPEntry[], extra: { approval?: ApprovalPolicy } = {}) {
  return new Agent({
    provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }),
    model: "gpt-5.4",
    mcps,
    tools: [
      {
        name: "clock",
        description: "Tells the time.",
        inputSchema: { type: "object", properties: {} },
        execute: async () => "noon",
      },
    ],
    ...extra,
  });
}

describe("OpenAI native tool search (hosted, with namespaces)", () => {
  it("sends the server's deferred tools as one namespace with defer_loading and tool_search, and echoes the search and the namespaced call back", async () => {
    const { fake, everything } = context;
    fake.enqueue({ chunks: searchAndCall }, { chunks: answer });
    const agent = agentFor(fake, [{ mcp: everything, defer: true }]);
    const events: AgentEvent[] = [];
    const handle = agent.send("Echo hi");
    for await (const event of handle) events.push(event);
    const result = await handle.final;
    agent.close();

    expect(result.text).toBe("It said hi.");
    expect(result.warnings).toEqual([]);
    const first = fake.requests.at(-2)!.body;
    const definitions = await everything.listToolDefinitions();
    const names = definitions.map((definition) => definition.name);
    expect(first.tools).toEqual([
      {
        type: "function",
        name: "clock",
        description: "Tells the time.",
        parameters: { type: "object", properties: {} },
        strict: false,
      },
      {
        type: "namespace",
        name: NAMESPACE,
        description: `Tools of "mcp-servers/everything": Everything Reference Server. Search to load them: ${names.join(", ")}.`,
        tools: definitions.map((definition) => ({
          type: "function",
          name: definition.name,
          description: definition.description,
          parameters: definition.inputSchema,
          strict: false,
          defer_loading: true,
        })),
      },
      { type: "tool_search" },
    ]);

    const second = fake.requests.at(-1)!.body;
    expect(second.tools).toEqual(first.tools);
    expect(second.input).toEqual([{ role: "user", content: "Echo hi" }, ...echoedTurn]);
    const toolResult = events.find((event) => event.type === "tool-result");
    expect(toolResult).toMatchObject({
      name: "echo",
      result: { content: [{ type: "text", text: "Echo: hi" }] },
    });

    // What the model saw up front: the namespace's name and description, not the schemas.
    const stepEnd = events.find((event) => event.type === "step-end");
    const size = (stepEnd as { request?: { tools: number } }).request!;
    expect(size.tools).toBeLessThan(JSON.stringify(first.tools).length / 3 / 4);
  });

  it("keeps the search's items and the namespaced call across an approval stop and a resume in a new Agent", async () => {
    const { fake, everything } = context;
    fake.enqueue({ chunks: searchAndCall }, { chunks: answer });
    const mcps: MCPEntry[] = [{ mcp: everything, defer: true }];
    const approval: ApprovalPolicy = { allow: ["clock"] };
    const stopped = await agentFor(fake, mcps, { approval }).send("Echo hi").final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.pending?.map((call) => [call.id, call.name])).toEqual([["call_echo_1", "echo"]]);
    const before = fake.requests.length;

    const resumed = agentFor(fake, mcps, { approval });
    const result = await resumed.resume({
      state: JSON.parse(JSON.stringify(stopped.state)),
      decisions: { call_echo_1: "approve" },
    }).final;
    resumed.close();

    expect(result.text).toBe("It said hi.");
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests.at(-1)!.body.input).toEqual([{ role: "user", content: "Echo hi" }, ...echoedTurn]);
  });

  it("is declared for GPT-5.4 and later (not -mini / -nano), and no others", () => {
    const provider = openai({ apiKey: "sk-test" });
    const native = (model: string) => provider.capabilitiesFor!(model).nativeToolSearch === true;
    for (const model of [
      "gpt-5.4",
      "gpt-5.4-2026-03-05",
      "gpt-5.4-pro",
      "gpt-5.5",
      "gpt-6",
      "ft:gpt-5.4:acme::x1",
    ])
      expect([model, native(model)]).toEqual([model, true]);
    for (const model of [
      "gpt-5",
      "gpt-5.1",
      "gpt-5.2",
      "gpt-5.3-codex",
      "gpt-5.4-mini",
      "gpt-5.4-nano",
      "gpt-4o",
      "o3",
    ])
      expect([model, native(model)]).toEqual([model, false]);
  });

  it("a model without it (gpt-5.1), or toolSearch.native false, uses Junction's search_tools instead", async () => {
    const { fake, everything } = context;
    for (const [model, native] of [
      ["gpt-5.1", true],
      ["gpt-5.4-mini", true],
      ["gpt-5.4", false],
    ] as const) {
      fake.enqueue({ chunks: answer });
      const before = fake.requests.length;
      const agent = new Agent({
        provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }),
        model,
        mcps: [{ mcp: everything, defer: true }],
        toolSearch: { native },
      });
      await agent.send("hi").final;
      agent.close();
      const sent = fake.requests[before]!.body.tools as { type: string; name?: string }[];
      expect(sent.map((tool) => tool.name ?? tool.type)).toEqual(["search_tools"]);
    }
  });
});
