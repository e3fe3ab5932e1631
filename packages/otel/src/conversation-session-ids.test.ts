import { Agent, type AgentConfig } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otelSdk, startHttpTracedServer, startReceiver, tracedServer, view } from "../test/test-support.js";
import { junctionTelemetry, withConversation } from "./index.js";

type Tool = NonNullable<AgentConfig["tools"]>[number];

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sessionServer: Awaited<ReturnType<typeof startHttpTracedServer>>;

beforeAll(async () => {
  receiver = await startReceiver();
  sessionServer = await startHttpTracedServer(receiver.url, "sessions");
});
afterAll(async () => {
  await sessionServer?.stop();
  await receiver?.close();
});

function tracedSdk() {
  const sdk = otelSdk();
  const telemetry = junctionTelemetry({
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
  });
  return { sdk, telemetry };
}

const echo: Tool = {
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object", properties: {} },
  execute: async () => "echoed",
};

describe("gen_ai.conversation.id", () => {
  it("is set on the invoke_agent and chat spans of a run started inside withConversation, and only there", async () => {
    const { sdk, telemetry } = tracedSdk();
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "echo", input: {} }] },
        { text: "first" },
        { text: "second" },
      ]),
      model: "m",
      tools: [echo],
      tracer: telemetry.tracer,
    });
    const first = await withConversation("thread-42", () => agent.send("one").final);
    expect(first.text).toBe("first");
    const second = await agent.send("two").final;
    expect(second.text).toBe("second");

    const spans = sdk.spans().map(view);
    expect(spans.map((span) => [span.name, span.attributes["gen_ai.conversation.id"]])).toEqual([
      ["chat m", "thread-42"],
      ["execute_tool echo", undefined],
      ["chat m", "thread-42"],
      ["invoke_agent junction", "thread-42"],
      // The second send ran outside withConversation: no id, never a made-up one.
      ["chat m", undefined],
      ["invoke_agent junction", undefined],
    ]);
    // Metrics stay low-cardinality: no conversation id on them.
    for (const point of await sdk.histogram("gen_ai.client.operation.duration"))
      expect(point.attributes).not.toHaveProperty("gen_ai.conversation.id");
    await sdk.shutdown();
  });
});

describe("mcp.session.id", () => {
  it("is the Streamable HTTP session id on every MCP client span of the session, the handshake's included", async () => {
    const { sdk, telemetry } = tracedSdk();
    const remote = new MCP(telemetry.instrumentMCP({ transport: "http", url: sessionServer.url }));
    const local = new MCP(
      telemetry.instrumentMCP({
        transport: "stdio",
        command: process.execPath,
        args: [tracedServer, "stdio"],
        env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url },
      }),
    );
    try {
      await Promise.all([remote.connect(), local.connect()]);
      // The server's own word for its session: what its handler saw as `extra.sessionId`.
      const answer = await remote.callTool("session");
      const sessionId = (answer.content[0] as { text: string }).text;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      await local.listTools();

      const spans = sdk.spans().map(view);
      const remoteSpans = spans.filter((span) => span.attributes["network.transport"] === "tcp");
      const localSpans = spans.filter((span) => span.attributes["network.transport"] === "pipe");
      // The server/discover probe the stateful server refused had no session yet.
      expect(remoteSpans.map((span) => [span.name, span.attributes["mcp.session.id"]])).toEqual([
        ["server/discover", undefined],
        ["initialize", sessionId],
        ["tools/list", sessionId],
        ["tools/call session", sessionId],
      ]);
      // stdio has no session.
      expect(localSpans.length).toBeGreaterThan(0);
      for (const span of localSpans) expect(span.attributes).not.toHaveProperty("mcp.session.id");
      for (const point of await sdk.histogram("mcp.client.operation.duration"))
        expect(point.attributes).not.toHaveProperty("mcp.session.id");
    } finally {
      await Promise.all([remote.close(), local.close()]);
      await sdk.shutdown();
    }
  });
});
