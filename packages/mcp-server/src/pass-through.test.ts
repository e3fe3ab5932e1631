import { fileURLToPath } from "node:url";
import { Agent } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP, type MCPHandlers } from "@junction/mcp-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agentTool } from "./agent-tool.js";
import { createMCPServer, gateway } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";
import { createPassThrough, type MCPPassThrough } from "./pass-through.js";

// Pass-through: an upstream server built with the SDK alone (test-servers/asking-server.mjs, over
// stdio) asks for elicitation and sampling during a call; the request must reach the client that
// called this server, and the answer must go back upstream. Every pair of eras: the upstream
// connection's (2026-07-28 input_required answered within the call, 2025-11-25 requests from the
// process's pipe) and the outer client's (input_required rounds, requests within the call).

const askingServer = fileURLToPath(new URL("../test-servers/asking-server.mjs", import.meta.url));

const NAME_REQUEST = {
  mode: "form",
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const MODEL_REQUEST = {
  messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
  maxTokens: 50,
};

const ERAS = ["2026-07-28", "2025-11-25"] as const;
type Era = (typeof ERAS)[number];

function upstream(era: Era, passThrough: MCPPassThrough, stderr: string[] = []): MCP {
  return new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [askingServer],
    protocolVersion: era,
    handlers: passThrough.handlers,
    onStderr: (chunk) => stderr.push(chunk),
  });
}

/** The outer client's handlers, recording what they were asked. */
function answering(asked: { elicitation: unknown[]; sampling: unknown[] }): MCPHandlers {
  return {
    elicitation: async (request) => {
      asked.elicitation.push(request);
      return { action: "accept", content: { name: "Ada" } };
    },
    sampling: async (request) => {
      asked.sampling.push(request);
      return { model: "outer-model", role: "assistant", content: { type: "text", text: "Paris" } };
    },
  };
}

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

describe.each(ERAS)("a gateway whose upstream connection speaks %s", (upstreamEra) => {
  const passThrough = createPassThrough();
  let asking: MCP;
  let front: RunningHTTPServer;
  beforeAll(async () => {
    asking = upstream(upstreamEra, passThrough);
    await asking.connect();
    front = await serveHTTP(gateway({ mcps: [{ mcp: asking, prefix: "up" }], passThrough }));
  });
  afterAll(async () => {
    await front?.close();
    await asking?.close();
  });

  describe.each(ERAS)("called by a %s client", (outerEra) => {
    it("forwards the upstream elicitation to the caller and its answer back", async () => {
      const asked = { elicitation: [] as unknown[], sampling: [] as unknown[] };
      const outer = new MCP({
        transport: "http",
        url: front.url,
        protocolVersion: outerEra,
        handlers: answering(asked),
      });
      closing.push(outer);
      await outer.connect();
      expect(await outer.callTool("up_ask_name")).toEqual({
        content: [{ type: "text", text: "Hello, Ada!" }],
        isError: false,
      });
      expect(asked.elicitation).toEqual([NAME_REQUEST]);
      expect(asked.sampling).toEqual([]);
    });

    it("forwards the upstream sampling request to the caller and its answer back", async () => {
      const asked = { elicitation: [] as unknown[], sampling: [] as unknown[] };
      const outer = new MCP({
        transport: "http",
        url: front.url,
        protocolVersion: outerEra,
        handlers: answering(asked),
      });
      closing.push(outer);
      await outer.connect();
      expect(await outer.callTool("up_ask_model")).toEqual({
        content: [{ type: "text", text: "The model (outer-model) said: Paris" }],
        isError: false,
      });
      expect(asked.sampling).toEqual([MODEL_REQUEST]);
    });

    it("answers upstream with an error naming what a caller without elicitation lacks", async () => {
      const outer = new MCP({ transport: "http", url: front.url, protocolVersion: outerEra });
      closing.push(outer);
      await outer.connect();
      const result = await outer.callTool("up_ask_name");
      expect(result.isError).toBe(true);
      expect(result.content[0]).toMatchObject({
        type: "text",
        text: expect.stringContaining(
          'asked for elicitation/create during the call to "up_ask_name", and the client that made the call declared no elicitation capability',
        ),
      });
    });
  });
});

describe.each(ERAS)("a served agent whose MCP connection speaks %s", (upstreamEra) => {
  it.each(ERAS)("forwards its MCP tool's elicitation to a %s caller", async (outerEra) => {
    const passThrough = createPassThrough();
    const asking = upstream(upstreamEra, passThrough);
    closing.push(asking);
    await asking.connect();
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "ask_name", input: {} }] },
      { text: "They are called Ada." },
    ]);
    const agent = new Agent({ provider, model: "scripted", mcps: [asking] });
    const server = await serveHTTP(
      createMCPServer({
        name: "agents",
        version: "1.0.0",
        passThrough,
        tools: [agentTool(agent, { name: "ask_greeter", description: "Asks the greeter agent" })],
      }),
    );
    closing.push(server);
    const asked = { elicitation: [] as unknown[], sampling: [] as unknown[] };
    const outer = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: outerEra,
      handlers: answering(asked),
    });
    closing.push(outer);
    await outer.connect();
    expect(await outer.callTool("ask_greeter", { request: "Who is there?" })).toEqual({
      content: [{ type: "text", text: "They are called Ada." }],
      isError: false,
    });
    expect(asked.elicitation).toEqual([NAME_REQUEST]);
    // The upstream tool's answer, made from the outer client's, reached the model.
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain("Hello, Ada!");
  });
});

describe.each(ERAS)("a served agent run as a task, its MCP connection speaking %s", (upstreamEra) => {
  it.each(ERAS)(
    "forwards its MCP tool's elicitation to the task's %s client and the answer back upstream",
    async (outerEra) => {
      const passThrough = createPassThrough();
      const asking = upstream(upstreamEra, passThrough);
      closing.push(asking);
      await asking.connect();
      const provider = scriptedModel([
        { toolCalls: [{ id: "c1", name: "ask_name", input: {} }] },
        { text: "They are called Ada." },
      ]);
      const agent = new Agent({ provider, model: "scripted", mcps: [asking] });
      const server = await serveHTTP(
        createMCPServer({
          name: "agents",
          version: "1.0.0",
          passThrough,
          tasks: { pollIntervalMs: 20 },
          tools: [agentTool(agent, { name: "ask_greeter", description: "Asks the greeter agent" })],
        }),
      );
      closing.push(server);
      const asked = { elicitation: [] as unknown[], sampling: [] as unknown[] };
      const seen: string[] = [];
      const outer = new MCP({
        transport: "http",
        url: server.url,
        protocolVersion: outerEra,
        handlers: answering(asked),
        onMessage: ({ direction, message }) => {
          if ("method" in message) seen.push(`${direction} ${message.method}`);
        },
      });
      closing.push(outer);
      await outer.connect();
      // 2026-07-28 clients declare the tasks extension; a 2025-11-25 one asks for a task.
      expect(
        await outer.callTool(
          "ask_greeter",
          { request: "Who is there?" },
          { task: outerEra === "2025-11-25" },
        ),
      ).toEqual({
        content: [{ type: "text", text: "They are called Ada." }],
        isError: false,
      });
      if (outerEra === "2026-07-28") {
        // The upstream request was the task's input request, answered with tasks/update.
        expect(asked.elicitation).toEqual([NAME_REQUEST]);
        expect(seen).toContain("out tasks/update");
      } else {
        // Sent while the client waited on tasks/result, related to the task.
        expect(asked.elicitation).toEqual([
          {
            ...NAME_REQUEST,
            _meta: { "io.modelcontextprotocol/related-task": { taskId: expect.any(String) } },
          },
        ]);
        expect(seen.indexOf("in elicitation/create")).toBeGreaterThan(seen.indexOf("out tasks/result"));
      }
      // The upstream tool's answer, made from the outer client's, reached the model.
      expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain("Hello, Ada!");
    },
  );
});

describe.each(ERAS)("a served agent run as a task for a %s client", (outerEra) => {
  it("forwards its MCP tool's sampling request to the task's client and the answer back upstream", async () => {
    const passThrough = createPassThrough();
    const asking = upstream("2026-07-28", passThrough);
    closing.push(asking);
    await asking.connect();
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "ask_model", input: {} }] },
      { text: "The capital is Paris." },
    ]);
    const agent = new Agent({ provider, model: "scripted", mcps: [asking] });
    const server = await serveHTTP(
      createMCPServer({
        name: "agents",
        version: "1.0.0",
        passThrough,
        tasks: { pollIntervalMs: 20 },
        tools: [agentTool(agent, { name: "ask_greeter", description: "Asks the greeter agent" })],
      }),
    );
    closing.push(server);
    const asked = { elicitation: [] as unknown[], sampling: [] as unknown[] };
    const outer = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: outerEra,
      handlers: answering(asked),
    });
    closing.push(outer);
    await outer.connect();
    expect(
      await outer.callTool(
        "ask_greeter",
        { request: "Capital of France?" },
        { task: outerEra === "2025-11-25" },
      ),
    ).toEqual({ content: [{ type: "text", text: "The capital is Paris." }], isError: false });
    expect(asked.sampling).toEqual([
      outerEra === "2026-07-28"
        ? MODEL_REQUEST
        : {
            ...MODEL_REQUEST,
            _meta: { "io.modelcontextprotocol/related-task": { taskId: expect.any(String) } },
          },
    ]);
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain(
      "The model (outer-model) said: Paris",
    );
  });
});

describe("a served agent run as a task for a 2026-07-28 client without elicitation", () => {
  it("answers its MCP tool's elicitation with an error naming what the client lacks", async () => {
    const passThrough = createPassThrough();
    const asking = upstream("2026-07-28", passThrough);
    closing.push(asking);
    await asking.connect();
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "ask_name", input: {} }] },
      { text: "Nobody could be asked." },
    ]);
    const agent = new Agent({ provider, model: "scripted", mcps: [asking] });
    const server = await serveHTTP(
      createMCPServer({
        name: "agents",
        version: "1.0.0",
        passThrough,
        tasks: { pollIntervalMs: 20 },
        tools: [agentTool(agent, { name: "ask_greeter", description: "Asks the greeter agent" })],
      }),
    );
    closing.push(server);
    const seen: string[] = [];
    const outer = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: "2026-07-28",
      onMessage: ({ direction, message }) => {
        if ("result" in message)
          seen.push(`${direction} ${(message.result as { resultType?: string }).resultType}`);
      },
    });
    closing.push(outer);
    await outer.connect();
    expect(await outer.callTool("ask_greeter", { request: "Who is there?" })).toEqual({
      content: [{ type: "text", text: "Nobody could be asked." }],
      isError: false,
    });
    expect(seen).toContain("in task");
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain(
      'asked for elicitation/create during the call to \\"ask_greeter\\", and the client that made the call declared no elicitation capability',
    );
  });
});
