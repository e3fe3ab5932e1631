import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { agentTool, createMCPServer } from "@junction/mcp-server";
import { type RunningHTTPServer, serveHTTP } from "@junction/mcp-server/node";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { otelSdk, view } from "../test/test-support.js";
import { junctionTelemetry } from "./junction-telemetry.js";

// A served agent called by Junction's own client, both instrumented, one in-memory exporter: the
// client's span, the server's `mcp.server` span (continuing the trace from `_meta.traceparent`)
// and the served agent's spans make one trace.

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

const add = tool({
  name: "add",
  description: "Adds two numbers",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});

describe.each(["2026-07-28", "2025-11-25"] as const)("a served agent called over %s", (protocolVersion) => {
  it("gives one trace: client span → mcp.server span → invoke_agent, chat and execute_tool", async () => {
    const sdk = otelSdk();
    closing.push({ close: () => sdk.shutdown() });
    const providers = { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider };
    const clientTelemetry = junctionTelemetry({ ...providers, agentName: "caller" });
    const serverTelemetry = junctionTelemetry({ ...providers, agentName: "helper" });
    const helper = () =>
      new Agent({
        provider: scriptedModel([
          { toolCalls: [{ id: "c1", name: "add", input: { a: 2, b: 3 } }] },
          { text: "It is 5." },
        ]),
        model: "scripted",
        tools: [add],
        tracer: serverTelemetry.tracer,
      });
    const server: RunningHTTPServer = await serveHTTP(
      createMCPServer(
        serverTelemetry.instrumentMCPServer({
          name: "helpers",
          version: "1.0.0",
          tools: [agentTool(helper, { name: "ask_helper", description: "Asks the helper" })],
        }),
      ),
    );
    closing.push(server);
    const mcp = new MCP(
      clientTelemetry.instrumentMCP({ transport: "http", url: server.url, protocolVersion }),
    );
    closing.push(mcp);
    await mcp.connect();
    expect(await mcp.callTool("ask_helper", { request: "What is 2 + 3?" })).toMatchObject({
      content: [{ type: "text", text: "It is 5." }],
    });

    const spans = sdk.spans().map(view);
    const client = spans.find((span) => span.name === "tools/call ask_helper" && span.kind === "CLIENT");
    const served = spans.find((span) => span.name === "tools/call ask_helper" && span.kind === "SERVER");
    const run = spans.find((span) => span.name === "invoke_agent helper");
    const chats = spans.filter((span) => span.name === "chat scripted");
    const executed = spans.find((span) => span.name === "execute_tool add");
    expect(client).toBeDefined();
    expect(served?.traceId).toBe(client?.traceId);
    expect(served?.parentSpanId).toBe(client?.spanId);
    expect(served?.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": client?.attributes["jsonrpc.request.id"],
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp.protocol.version": protocolVersion,
      ...(protocolVersion === "2025-11-25" ? { "mcp.session.id": client?.attributes["mcp.session.id"] } : {}),
      "gen_ai.tool.name": "ask_helper",
      "gen_ai.operation.name": "execute_tool",
    });
    expect(served?.status).toEqual({ code: 0 });
    expect(run?.kind).toBe("INTERNAL");
    expect(run?.traceId).toBe(client?.traceId);
    expect(run?.parentSpanId).toBe(served?.spanId);
    expect(chats).toHaveLength(2);
    for (const chat of chats) expect(chat.parentSpanId).toBe(run?.spanId);
    expect(executed?.parentSpanId).toBe(run?.spanId);
    const call = [client, served, run, ...chats, executed];
    expect(new Set(call.map((span) => span?.traceId))).toEqual(new Set([client?.traceId]));
    const durations = await sdk.histogram("mcp.server.operation.duration");
    expect(durations.find((point) => point.attributes["gen_ai.tool.name"] === "ask_helper")).toMatchObject({
      count: 1,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.operation.name": "execute_tool",
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "mcp.protocol.version": protocolVersion,
      },
    });
  });
});
