import {
  Agent,
  type AgentConfig,
  type AgentEvent,
  type RunState,
  runStateOf,
  type Span,
} from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP, type MCPStdioConfig } from "@junction/mcp-client";
import { type Attributes, context, type Span as OtelSpan, trace } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  eventually,
  otelSdk,
  otlpProcessor,
  type ReceivedSpan,
  startHttpTracedServer,
  startReceiver,
  tracedServer,
  view,
} from "../test/test-support.js";
import { type JunctionTelemetryOptions, junctionTelemetry, SEMCONV_VERSION } from "./index.js";

type Tool = NonNullable<AgentConfig["tools"]>[number];
type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type HttpServer = Awaited<ReturnType<typeof startHttpTracedServer>>;

let receiver: Receiver;
let httpServer: HttpServer;
const open: { close(): Promise<void> | void }[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  httpServer = await startHttpTracedServer(receiver.url);
});

afterAll(async () => {
  await httpServer?.stop();
  await receiver?.close();
});

afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

/** A real SDK, and telemetry reporting to it. */
function tracedSdk(options: Omit<JunctionTelemetryOptions, "tracerProvider" | "meterProvider"> = {}) {
  const sdk = otelSdk();
  return {
    sdk,
    telemetry: junctionTelemetry({
      tracerProvider: sdk.tracerProvider,
      meterProvider: sdk.meterProvider,
      ...options,
    }),
  };
}

/** The traced server over stdio, instrumented (closed after the test), with `extra` settings. */
function tracedStdio(
  telemetry: ReturnType<typeof junctionTelemetry>,
  extra: Pick<MCPStdioConfig, "handlers" | "reconnect"> = {},
): MCP {
  const mcp = new MCP(
    telemetry.instrumentMCP({
      transport: "stdio",
      command: process.execPath,
      args: [tracedServer, "stdio"],
      env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url },
      ...extra,
    }),
  );
  open.push(mcp);
  return mcp;
}

/** The stdio and HTTP traced servers, instrumented and connected, under the prefixes `local` and `remote`. */
async function tracedConnections(telemetry: ReturnType<typeof junctionTelemetry>) {
  const local = tracedStdio(telemetry);
  const remote = new MCP(
    telemetry.instrumentMCP({
      transport: "http",
      url: httpServer.url,
      headers: { authorization: "Bearer secret-header-token" },
    }),
  );
  open.push(remote);
  await Promise.all([local.connect(), remote.connect()]);
  return [
    { mcp: local, prefix: "local" },
    { mcp: remote, prefix: "remote" },
  ];
}

function serverSpan(transport: string, name: string): ReceivedSpan {
  const span = receiver.spans.find(
    (candidate) =>
      candidate.name === `tools/call ${name}` && candidate.attributes["test.transport"] === transport,
  );
  if (!span) throw new Error(`no server span for ${transport} ${name} yet`);
  return span;
}

describe("junctionTelemetry: a run over stdio and HTTP MCP servers", () => {
  it("emits invoke_agent, chat, execute_tool and MCP client spans as the conventions say, and the servers' spans join the trace", async () => {
    const sdk = otelSdk([otlpProcessor(receiver.url)]);
    const telemetry = junctionTelemetry({
      tracerProvider: sdk.tracerProvider,
      meterProvider: sdk.meterProvider,
    });
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "local_lookup", input: { word: "alpha-secret-argument" } }] },
        { toolCalls: [{ id: "c2", name: "remote_lookup", input: { word: "beta" } }] },
        { text: "done" },
      ]),
      model: "test-model",
      mcps: await tracedConnections(telemetry),
      tracer: telemetry.tracer,
    });
    const result = await agent.send("Look two words up").final;
    expect(result.text).toBe("done");

    const spans = sdk.spans().map(view);
    const invoke = spans.find((span) => span.name === "invoke_agent junction")!;
    expect(invoke).toMatchObject({
      kind: "INTERNAL",
      parentSpanId: undefined,
      status: { code: 0 },
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "scripted",
        "gen_ai.agent.name": "junction",
        "gen_ai.request.model": "test-model",
        "gen_ai.response.finish_reasons": ["stop"],
        "gen_ai.usage.input_tokens": 30,
        "gen_ai.usage.output_tokens": 15,
      },
    });
    const chats = spans.filter((span) => span.name === "chat test-model");
    expect(
      chats.map((span) => [span.kind, span.parentSpanId, span.attributes["gen_ai.response.finish_reasons"]]),
    ).toEqual([
      ["CLIENT", invoke.spanId, ["tool_call"]],
      ["CLIENT", invoke.spanId, ["tool_call"]],
      ["CLIENT", invoke.spanId, ["stop"]],
    ]);
    expect(chats[0]!.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "scripted",
      "gen_ai.system": "scripted",
      "gen_ai.request.model": "test-model",
      "gen_ai.response.finish_reasons": ["tool_call"],
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 5,
      "junction.step": 1,
    });

    const localTool = spans.find((span) => span.name === "execute_tool local_lookup")!;
    const remoteTool = spans.find((span) => span.name === "execute_tool remote_lookup")!;
    expect(localTool).toMatchObject({ kind: "INTERNAL", parentSpanId: invoke.spanId, status: { code: 0 } });
    expect(localTool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "local_lookup",
      "gen_ai.tool.call.id": "c1",
      "gen_ai.tool.type": "extension",
      "mcp.method.name": "tools/call",
      "network.transport": "pipe",
      "junction.tool.outcome": "success",
    });
    expect(localTool.attributes["jsonrpc.request.id"]).toMatch(/^\d+$/);
    expect(localTool.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(remoteTool.attributes).toMatchObject({
      "gen_ai.tool.name": "remote_lookup",
      "mcp.method.name": "tools/call",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "server.address": "127.0.0.1",
      "server.port": Number(new URL(httpServer.url).port),
    });
    // MCP's tools/call folded into execute_tool: no separate client span for it.
    expect(spans.filter((span) => span.name.startsWith("tools/call"))).toEqual([]);
    // The other requests are CLIENT spans under the run: the handshake and the listing.
    const listings = spans.filter((span) => span.name === "tools/list");
    expect(listings.length).toBeGreaterThanOrEqual(2);
    for (const span of listings) {
      expect(span).toMatchObject({ kind: "CLIENT", parentSpanId: invoke.spanId, traceId: invoke.traceId });
      expect(span.attributes["mcp.method.name"]).toBe("tools/list");
    }
    // The handshakes ran before the run, outside its trace.
    expect(
      spans.filter((span) => span.name === "initialize").map((span) => [span.kind, span.parentSpanId]),
    ).toEqual([
      ["CLIENT", undefined],
      ["CLIENT", undefined],
    ]);

    // Each server read _meta.traceparent: its span is in the agent's trace, under execute_tool.
    const stdioServer = await eventually(() => serverSpan("stdio", "lookup"));
    const httpServerSpan = await eventually(() => serverSpan("http", "lookup"));
    expect(stdioServer).toMatchObject({ traceId: invoke.traceId, parentSpanId: localTool.spanId, kind: 2 });
    expect(httpServerSpan).toMatchObject({
      traceId: invoke.traceId,
      parentSpanId: remoteTool.spanId,
      kind: 2,
    });
    expect(stdioServer.attributes["test.received_traceparent"]).toBe(
      `00-${invoke.traceId}-${localTool.spanId}-01`,
    );

    // The same spans reached the local OTLP/HTTP receiver.
    await eventually(() =>
      expect(
        receiver.spans
          .filter((span) => span.scope === "@junction/otel" && span.traceId === invoke.traceId)
          .map((span) => span.name),
      ).toEqual(
        expect.arrayContaining(["invoke_agent junction", "chat test-model", "execute_tool remote_lookup"]),
      ),
    );

    // Metrics, with the conventions' attributes.
    expect(await sdk.histogram("gen_ai.client.operation.duration")).toEqual([
      {
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "scripted",
          "gen_ai.request.model": "test-model",
        },
        count: 3,
        sum: expect.any(Number),
      },
    ]);
    const tokens = await sdk.histogram("gen_ai.client.token.usage");
    expect(tokens.map(({ attributes, count, sum }) => [attributes["gen_ai.token.type"], count, sum])).toEqual(
      [
        ["input", 3, 30],
        ["output", 3, 15],
      ],
    );
    const mcpCalls = (await sdk.histogram("mcp.client.operation.duration")).filter(
      (point) => point.attributes["mcp.method.name"] === "tools/call",
    );
    expect(mcpCalls.map((point) => [point.attributes["network.transport"], point.count])).toEqual([
      ["pipe", 1],
      ["tcp", 1],
    ]);
    expect(mcpCalls[0]!.attributes).toMatchObject({
      "gen_ai.tool.name": "lookup",
      "gen_ai.operation.name": "execute_tool",
      "mcp.method.name": "tools/call",
    });

    // Nothing secret, and no content without the opt-in.
    const everything = JSON.stringify([
      spans,
      receiver.spans.filter((span) => span.scope === "@junction/otel"),
    ]);
    for (const secret of [
      "secret-header-token",
      "secret-query-token",
      "alpha-secret-argument",
      "beta found",
    ]) {
      expect(everything).not.toContain(secret);
    }
    await sdk.shutdown();
  });

  it("starts and ends every span on one clock: each lies inside its parent though the wall clock runs 50 ms ahead", async () => {
    const { sdk, telemetry } = tracedSdk();
    // The SDK reads Date.now() for a span's start when it is given none; the process's performance
    // clock and the wall clock can differ (by milliseconds on a busy machine): here by 50 ms.
    const wallClock = Date.now.bind(Date);
    const ahead = vi.spyOn(Date, "now").mockImplementation(() => wallClock() + 50);
    try {
      const agent = new Agent({
        provider: scriptedModel([
          { toolCalls: [{ id: "c1", name: "local_lookup", input: { word: "alpha" } }] },
          { toolCalls: [{ id: "c2", name: "remote_explode", input: {} }] },
          { text: "done" },
        ]),
        model: "test-model",
        mcps: await tracedConnections(telemetry),
        tracer: telemetry.tracer,
      });
      await agent.send("Look alpha up, then explode").final;
    } finally {
      ahead.mockRestore();
    }
    const spans = sdk.spans();
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const outside = spans.flatMap((span) => {
      const parent = byId.get(span.parentSpanContext?.spanId ?? "");
      if (!parent) return [];
      const [start, end] = [ms(span.startTime), ms(span.endTime)];
      const [parentStart, parentEnd] = [ms(parent.startTime), ms(parent.endTime)];
      return start >= parentStart && end <= parentEnd ? [] : [`${span.name} outside ${parent.name}`];
    });
    expect(spans.map((span) => span.name)).toEqual(
      expect.arrayContaining([
        "invoke_agent junction",
        "chat test-model",
        "execute_tool local_lookup",
        "execute_tool remote_explode",
      ]),
    );
    expect(outside).toEqual([]);
    await sdk.shutdown();
  });

  it("marks a failing MCP tool's execute_tool span as an error (tool_error) without its output", async () => {
    const { sdk, telemetry } = tracedSdk();
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "x", name: "remote_explode", input: {} }] },
        { text: "sorry" },
      ]),
      model: "test-model",
      mcps: await tracedConnections(telemetry),
      tracer: telemetry.tracer,
    });
    await agent.send("Explode").final;
    const spans = sdk.spans().map(view);
    const tool = spans.find((span) => span.name === "execute_tool remote_explode")!;
    expect(tool.status).toEqual({ code: 2, message: "tool_error" });
    expect(tool.attributes).toMatchObject({ "error.type": "tool_error", "junction.tool.outcome": "error" });
    expect(JSON.stringify(spans)).not.toContain("it exploded");
    const point = (await sdk.histogram("mcp.client.operation.duration")).find(
      (candidate) => candidate.attributes["mcp.method.name"] === "tools/call",
    );
    expect(point?.attributes["error.type"]).toBe("tool_error");
    await sdk.shutdown();
  });

  it("ends an aborted run's spans with error.type aborted", async () => {
    const { sdk, telemetry } = tracedSdk();
    const controller = new AbortController();
    const agent = new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "w", name: "remote_wait", input: {} }] }]),
      model: "test-model",
      mcps: await tracedConnections(telemetry),
      tracer: telemetry.tracer,
      onEvent: (event) => {
        if (event.type === "tool-call") setTimeout(() => controller.abort(), 200);
      },
    });
    await expect(agent.send("Wait", { signal: controller.signal }).final).rejects.toMatchObject({
      code: "aborted",
    });
    const spans = sdk.spans().map(view);
    const invoke = spans.find((span) => span.name === "invoke_agent junction")!;
    const tool = spans.find((span) => span.name === "execute_tool remote_wait")!;
    expect(invoke.status.code).toBe(2);
    expect(invoke.attributes["error.type"]).toBe("aborted");
    expect(tool.status.code).toBe(2);
    expect(tool.attributes["error.type"]).toBe("aborted");
    expect(tool.parentSpanId).toBe(invoke.spanId);
    await sdk.shutdown();
  });
});

function writeTool(): Tool {
  return {
    name: "write_file",
    description: "Writes a file",
    inputSchema: { type: "object", properties: { path: { type: "string" }, api_key: { type: "string" } } },
    execute: async (input: { path?: string }) =>
      JSON.stringify({ written: input.path, bytes: "x".repeat(3000) }),
  };
}

describe("junctionTelemetry: requests the server sends", () => {
  it("opens a SERVER span for sampling/createMessage under the context the server put in its _meta", async () => {
    const { sdk, telemetry } = tracedSdk();
    const mcp = tracedStdio(telemetry, {
      handlers: {
        sampling: async () => ({ role: "assistant", content: { type: "text", text: "short" }, model: "m" }),
      },
    });
    await mcp.connect();
    const result = await mcp.callTool("summarize", {});
    expect(result.content).toEqual([{ type: "text", text: "summary: short" }]);
    const serverTool = await eventually(() => serverSpan("stdio", "summarize"));
    const spans = sdk.spans().map(view);
    const client = spans.find((span) => span.name === "tools/call summarize")!;
    expect(client).toMatchObject({ kind: "CLIENT", attributes: { "gen_ai.operation.name": "execute_tool" } });
    expect(serverTool).toMatchObject({ traceId: client.traceId, parentSpanId: client.spanId });
    const sampling = spans.find((span) => span.name === "sampling/createMessage")!;
    expect(sampling).toMatchObject({
      kind: "SERVER",
      traceId: client.traceId,
      parentSpanId: serverTool.spanId,
      attributes: { "mcp.method.name": "sampling/createMessage", "network.transport": "pipe" },
    });
    await sdk.shutdown();
  });
});

/** The run spans (`invoke_agent`) ended so far, in order. */
function invokeSpans(sdk: ReturnType<typeof tracedSdk>["sdk"]) {
  return sdk
    .spans()
    .map(view)
    .filter((span) => span.name === "invoke_agent junction");
}

/** The link a resumed part's run span has to `first`, the first part's. */
function linkTo(first: ReturnType<typeof view>) {
  return { traceId: first.traceId, spanId: first.spanId, traceFlags: 1, isRemote: true };
}

const WRITE_TURN = { toolCalls: [{ id: "w", name: "write_file", input: { path: "/a" } }] };

/** An Agent with the write_file tool, traced by `telemetry`: by default it calls the tool once, then answers. */
function writeAgent(
  telemetry: ReturnType<typeof junctionTelemetry>,
  options: { approval?: AgentConfig["approval"]; turns?: Parameters<typeof scriptedModel>[0] } = {},
) {
  return new Agent({
    provider: scriptedModel(options.turns ?? [WRITE_TURN, { text: "ok" }]),
    model: "test-model",
    tools: [writeTool()],
    ...(options.approval ? { approval: options.approval } : {}),
    tracer: telemetry.tracer,
  });
}

describe("junctionTelemetry: a server that dies mid-request", () => {
  it("ends the request's span with error.type connection_closed when the reconnect starts a new session", async () => {
    const { sdk, telemetry } = tracedSdk();
    const mcp = tracedStdio(telemetry, { reconnect: { initialDelayMs: 10 } });
    await mcp.connect();
    await expect(mcp.callTool("crash", {})).rejects.toThrow();
    const crashed = await eventually(() => {
      const span = sdk
        .spans()
        .map(view)
        .find((candidate) => candidate.name === "tools/call crash");
      if (!span) throw new Error("not ended yet");
      return span;
    }, 15_000);
    expect(crashed).toMatchObject({
      kind: "CLIENT",
      status: { code: 2, message: "connection_closed" },
      attributes: { "error.type": "connection_closed", "mcp.method.name": "tools/call" },
    });
    await sdk.shutdown();
  });
});

describe("junctionTelemetry: approvals, resume and content", () => {
  it("shows a denied approval as an await_approval span with the decision and who decided", async () => {
    const { sdk, telemetry } = tracedSdk();
    const agent = writeAgent(telemetry, { approval: () => "ask" });
    const handle = agent.send("Write");
    for await (const event of handle) if (event.type === "tool-approval-request") event.deny("not today");
    await handle.final;
    const spans = sdk.spans().map(view);
    const invoke = spans.find((span) => span.name === "invoke_agent junction")!;
    const approval = spans.find((span) => span.name === "await_approval write_file")!;
    expect(approval).toMatchObject({
      kind: "INTERNAL",
      parentSpanId: invoke.spanId,
      attributes: {
        "gen_ai.tool.name": "write_file",
        "gen_ai.tool.call.id": "w",
        "junction.approval.decision": "denied",
        "junction.approval.decided_by": "user",
      },
    });
    expect(spans.some((span) => span.name.startsWith("execute_tool"))).toBe(false);
    expect(invoke.status.code).toBe(0);
    await sdk.shutdown();
  });

  it("records a policy's refusal as an event on invoke_agent", async () => {
    const { sdk, telemetry } = tracedSdk();
    const agent = writeAgent(telemetry, { approval: () => "deny" });
    await agent.send("Write").final;
    const invoke = sdk
      .spans()
      .map(view)
      .find((span) => span.name === "invoke_agent junction")!;
    expect(invoke.events).toEqual([
      {
        name: "junction.tool_call.refused",
        attributes: {
          "gen_ai.tool.name": "write_file",
          "gen_ai.tool.call.id": "w",
          "junction.tool.outcome": "denied",
          "junction.approval.decided_by": "policy",
        },
      },
    ]);
    await sdk.shutdown();
  });

  it("links a resumed run's invoke_agent span to its first part, stored in RunState.trace", async () => {
    const { sdk, telemetry } = tracedSdk();
    const make = (turns: Parameters<typeof scriptedModel>[0]) =>
      writeAgent(telemetry, { approval: () => "ask", turns });
    const stopped = await make([WRITE_TURN]).send("Write").final;
    expect(stopped.finishReason).toBe("approval-required");
    const first = invokeSpans(sdk)[0]!;
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
    expect(state.trace).toEqual({ traceparent: `00-${first.traceId}-${first.spanId}-01` });
    expect(
      sdk
        .spans()
        .map(view)
        .find((span) => span.name === "await_approval write_file")?.attributes,
    ).toMatchObject({ "junction.approval.decision": "pending", "junction.approval.decided_by": "none" });

    await make([{ text: "written" }]).resume({ state, decisions: { w: "approve" } }).final;
    const resumed = invokeSpans(sdk)[1]!;
    expect(resumed.links).toEqual([linkTo(first)]);
    expect(resumed.events).toEqual([
      {
        name: "junction.approval",
        attributes: {
          "gen_ai.tool.name": "write_file",
          "gen_ai.tool.call.id": "w",
          "junction.approval.decision": "approved",
          "junction.approval.decided_by": "resume",
        },
      },
    ]);
    expect(
      sdk
        .spans()
        .map(view)
        .find((span) => span.name === "execute_tool write_file")?.parentSpanId,
    ).toBe(resumed.spanId);
    await sdk.shutdown();
  });

  it("keeps the first part's trace in a state made as a call finished: recorded (onRunState) and carried by a failed run's error", async () => {
    const { sdk, telemetry } = tracedSdk();
    const recorded: RunState[] = [];
    const outage = new Error("The vendor is down (503).");
    const failed = await new Agent({
      provider: scriptedModel([WRITE_TURN, { error: outage }]),
      model: "test-model",
      tools: [writeTool()],
      tracer: telemetry.tracer,
      runStateKey: { id: "k1", secret: "a secret of at least thirty-two bytes!!" },
    })
      .send("Write", {
        onRunState: (state) => {
          recorded.push(state);
        },
      })
      .final.then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((failed as Error).message).toContain("The vendor is down (503).");
    const first = invokeSpans(sdk)[0]!;
    const carrier = { traceparent: `00-${first.traceId}-${first.spanId}-01` };
    const state = runStateOf(failed);
    expect(state?.trace).toEqual(carrier);
    expect(recorded.map((one) => one.trace)).toEqual([carrier]);

    await new Agent({
      provider: scriptedModel([{ text: "written" }]),
      model: "test-model",
      tools: [writeTool()],
      tracer: telemetry.tracer,
      runStateKey: { id: "k1", secret: "a secret of at least thirty-two bytes!!" },
    }).resume({ state: JSON.parse(JSON.stringify(state)) as RunState, decisions: {} }).final;
    const resumed = invokeSpans(sdk)[1]!;
    expect(resumed.links).toEqual([linkTo(first)]);
    await sdk.shutdown();
  });

  it("captures content only when asked: bounded, with secret-looking keys redacted", async () => {
    const { sdk, telemetry } = tracedSdk({ captureContent: { maxChars: 600 } });
    const agent = new Agent({
      system: "Be brief.",
      provider: scriptedModel([
        {
          text: "Writing.",
          toolCalls: [{ id: "w", name: "write_file", input: { path: "/a", api_key: "sk-live-123" } }],
        },
        { text: "ok" },
      ]),
      model: "test-model",
      tools: [writeTool()],
      tracer: telemetry.tracer,
    });
    await agent.send("Write").final;
    const spans = sdk.spans().map(view);
    const tool = spans.find((span) => span.name === "execute_tool write_file")!;
    expect(tool.attributes["gen_ai.tool.call.arguments"]).toBe('{"path":"/a","api_key":"[REDACTED]"}');
    const captured = String(tool.attributes["gen_ai.tool.call.result"]);
    expect(captured).toHaveLength(600);
    expect(captured.startsWith('{"content":[{"type":"text","text":"{\\"written\\":\\"/a\\"')).toBe(true);
    expect(captured.endsWith("…[truncated]")).toBe(true);
    const [chat, secondChat] = spans.filter((span) => span.name === "chat test-model");
    expect(JSON.parse(String(chat!.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Write" }] },
    ]);
    expect(JSON.parse(String(chat!.attributes["gen_ai.system_instructions"]))).toEqual([
      { type: "text", content: "Be brief." },
    ]);
    // The second call's input holds the whole first turn: the tool's long result cuts it.
    const secondInput = String(secondChat!.attributes["gen_ai.input.messages"]);
    expect(secondInput).toHaveLength(600);
    expect(
      secondInput.startsWith(
        '[{"role":"user","parts":[{"type":"text","content":"Write"}]},{"role":"assistant","parts":[{"type":"text","content":"Writing."},{"type":"tool_call","id":"w","name":"write_file","arguments":{"path":"/a","api_key":"[REDACTED]"}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"w","response":',
      ),
    ).toBe(true);
    expect(JSON.parse(String(chat!.attributes["gen_ai.output.messages"]))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "text", content: "Writing." },
          {
            type: "tool_call",
            id: "w",
            name: "write_file",
            arguments: { path: "/a", api_key: "[REDACTED]" },
          },
        ],
        finish_reason: "tool_call",
      },
    ]);
    expect(JSON.stringify(spans)).not.toContain("sk-live-123");
    await sdk.shutdown();
  });

  it("records a tool's progress as numbers only; the server's message only with content capture", async () => {
    const progressEvents = async (
      options: Omit<JunctionTelemetryOptions, "tracerProvider" | "meterProvider">,
    ) => {
      const { sdk, telemetry } = tracedSdk(options);
      const local = tracedStdio(telemetry);
      await local.connect();
      const agent = new Agent({
        provider: scriptedModel([
          { toolCalls: [{ id: "p", name: "local_progress", input: {} }] },
          { text: "ok" },
        ]),
        model: "test-model",
        mcps: [{ mcp: local, prefix: "local" }],
        tracer: telemetry.tracer,
      });
      await agent.send("Work").final;
      const spans = sdk.spans().map(view);
      await sdk.shutdown();
      const tool = spans.find((span) => span.name === "execute_tool local_progress");
      return { events: tool?.events, all: JSON.stringify(spans) };
    };

    const off = await progressEvents({});
    expect(off.events).toEqual([
      {
        name: "junction.tool.progress",
        attributes: { "junction.progress": 1, "junction.progress.total": 2 },
      },
    ]);
    expect(off.all).not.toContain("diary.txt");

    const on = await progressEvents({ captureContent: true });
    expect(on.events).toEqual([
      {
        name: "junction.tool.progress",
        attributes: {
          "junction.progress": 1,
          "junction.progress.total": 2,
          "junction.progress.message": "reading /home/ada/diary.txt",
        },
      },
    ]);
  });

  it("leaves the deprecated gen_ai.system out under OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental", async () => {
    const { sdk, telemetry } = tracedSdk({ semconvStabilityOptIn: "http,gen_ai_latest_experimental" });
    const answer = {
      type: "finish" as const,
      reason: "stop" as const,
      usage: {
        inputTokens: 4,
        outputTokens: 2,
        totalTokens: 6,
        cachedInputTokens: 3,
        cacheWriteInputTokens: 1,
      },
      content: [{ type: "text" as const, text: "hi" }],
      responseId: "resp_42",
    };
    await new Agent({
      provider: scriptedModel([{ events: [{ type: "text-delta", text: "hi" }, answer] }]),
      model: "m",
      tracer: telemetry.tracer,
    }).send("x").final;
    const spans = sdk.spans().map(view);
    expect(spans.map((span) => span.name)).toEqual(["chat m", "invoke_agent junction"]);
    expect(spans[0]!.attributes).toMatchObject({
      "gen_ai.response.id": "resp_42",
      "gen_ai.usage.input_tokens": 4,
      "gen_ai.usage.cache_read.input_tokens": 3,
      "gen_ai.usage.cache_creation.input_tokens": 1,
    });
    for (const span of spans) {
      expect(span.attributes["gen_ai.provider.name"]).toBe("scripted");
      expect(span.attributes["gen_ai.system"]).toBeUndefined();
    }
    expect(SEMCONV_VERSION).toBe("1.41.0");
    await sdk.shutdown();
  });

  it("nests under the caller's current span", async () => {
    const { sdk, telemetry } = tracedSdk();
    const outer = sdk.tracerProvider.getTracer("app");
    const events: AgentEvent["type"][] = [];
    await outer.startActiveSpan("handle request", async (span) => {
      const agent = new Agent({
        provider: scriptedModel([{ text: "hi" }]),
        model: "m",
        tracer: telemetry.tracer,
        onEvent: (event) => events.push(event.type),
      });
      await agent.send("x").final;
      span.end();
    });
    const spans = sdk.spans().map(view);
    const request = spans.find((span) => span.name === "handle request")!;
    expect(spans.find((span) => span.name === "invoke_agent junction")?.parentSpanId).toBe(request.spanId);
    expect(events).toEqual(["text-delta", "step-end", "finish"]);
    await sdk.shutdown();
  });
});

describe("a hand-written Tracer over OpenTelemetry (core's hook, without this package)", () => {
  it("nests model and tool spans under the run span when the parent is passed on", async () => {
    const sdk = otelSdk();
    const otel = sdk.tracerProvider.getTracer("my-app");
    const tracer: AgentConfig["tracer"] = {
      startSpan: (name, { attributes, parent }) =>
        otel.startSpan(
          name,
          { attributes: attributes as Attributes },
          parent ? trace.setSpan(context.active(), parent as unknown as OtelSpan) : undefined,
        ) as unknown as Span,
    };
    await new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "w", name: "write_file", input: { path: "/a" } }] },
        { text: "ok" },
      ]),
      model: "m",
      tools: [writeTool()],
      tracer,
    }).send("x").final;
    const spans = sdk.spans().map(view);
    const run = spans.find((span) => span.name === "junction.agent.send")!;
    expect(spans.map((span) => [span.name, span.parentSpanId === run.spanId])).toEqual([
      ["junction.model.call", true],
      ["junction.tool.call", true],
      ["junction.model.call", true],
      ["junction.agent.send", false],
    ]);
    expect(spans[1]!.attributes).toMatchObject({
      "junction.tool.name": "write_file",
      "junction.tool.outcome": "success",
    });
    await sdk.shutdown();
  });
});
