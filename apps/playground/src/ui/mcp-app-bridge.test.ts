import { describe, expect, it } from "vitest";
import { BridgeError, type BridgeHandlers, McpAppBridge, RPC_ERROR } from "./mcp-app-bridge.js";

function setup(overrides: Partial<BridgeHandlers> = {}, limits = {}) {
  const posted: any[] = [];
  const calls: unknown[] = [];
  let time = 0;
  const handlers: BridgeHandlers = {
    initialize: (params) => ({ protocolVersion: "2026-01-26", echo: params.appInfo }),
    initialized: () => calls.push("initialized"),
    callTool: async (name, args, progressToken) => {
      calls.push(["tools/call", name, args, ...(progressToken === undefined ? [] : [progressToken])]);
      return { content: [{ type: "text", text: "ok" }] };
    },
    openLink: async (url) => {
      calls.push(["open", url]);
      return {};
    },
    sizeChanged: (size) => calls.push(["size", size]),
    message: async (params) => {
      calls.push(["message", params]);
      return {};
    },
    log: (entry) => calls.push(["log", entry]),
    requestTeardown: () => calls.push("request-teardown"),
    ...overrides,
  };
  const bridge = new McpAppBridge({
    post: (message) => posted.push(message),
    handlers,
    limits,
    now: () => time,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { bridge, posted, calls, settle, advance: (ms: number) => (time += ms) };
}

describe("the MCP Apps bridge (host side)", () => {
  it("sends ui/resource-teardown, waits for the app's answer, then closes", async () => {
    const { bridge, posted, settle } = setup();
    const done = bridge.teardown("You closed this app.", 60_000);
    expect(posted).toEqual([
      {
        jsonrpc: "2.0",
        id: "host-1",
        method: "ui/resource-teardown",
        params: { reason: "You closed this app." },
      },
    ]);
    expect(bridge.closed).toBe(false);
    // An answer to an id the host never sent is dropped, not taken for the teardown's.
    bridge.receive({ jsonrpc: "2.0", id: "host-9", result: {} });
    expect(bridge.drops.invalid).toBe(1);
    expect(bridge.closed).toBe(false);
    bridge.receive({ jsonrpc: "2.0", id: "host-1", result: {} });
    expect(await done).toBe("answered");
    expect(bridge.closed).toBe(true);
    // Closed: the app's later requests get nothing.
    bridge.receive({ jsonrpc: "2.0", id: 5, method: "ping" });
    await settle();
    expect(posted).toHaveLength(1);
  });

  it("tears down all the same when the app answers with an error or not at all", async () => {
    const erring = setup();
    const refused = erring.bridge.teardown("closed", 60_000);
    erring.bridge.receive({ jsonrpc: "2.0", id: "host-1", error: { code: -32603, message: "no" } });
    expect(await refused).toBe("no answer");
    expect(erring.bridge.closed).toBe(true);
    const silent = setup();
    expect(await silent.bridge.teardown("closed", 1)).toBe("no answer");
    expect(silent.bridge.closed).toBe(true);
  });

  it("passes a tools/call's progress token to the host only when it is a short string or an integer", async () => {
    const { bridge, calls, settle } = setup();
    const call = (id: number, progressToken: unknown) =>
      bridge.receive({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "count", arguments: {}, _meta: { progressToken } },
      });
    call(1, "t-1");
    call(2, 7);
    call(3, { nested: true });
    call(4, "x".repeat(101));
    await settle();
    expect(calls).toEqual([
      ["tools/call", "count", {}, "t-1"],
      ["tools/call", "count", {}, 7],
      ["tools/call", "count", {}],
      ["tools/call", "count", {}],
    ]);
  });

  it("passes the app's log lines and teardown requests to the host", () => {
    const { bridge, calls } = setup();
    bridge.receive({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "warning", logger: "view", data: { note: "hi" } },
    });
    bridge.receive({ jsonrpc: "2.0", method: "notifications/message", params: { level: "loud", data: "x" } });
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/request-teardown" });
    expect(calls).toEqual([
      ["log", { level: "warning", logger: "view", data: { note: "hi" } }],
      ["log", { level: "info", data: "x" }],
      "request-teardown",
    ]);
  });

  it("answers ui/initialize and ping, and passes tools/call, open-link and size-changed to the host", async () => {
    const { bridge, posted, calls, settle } = setup();
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: { appInfo: { name: "a" } } });
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    bridge.receive({ jsonrpc: "2.0", id: "p", method: "ping" });
    bridge.receive({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "increment", arguments: { count: 1 } },
    });
    bridge.receive({
      jsonrpc: "2.0",
      id: 3,
      method: "ui/open-link",
      params: { url: "https://example.com/" },
    });
    bridge.receive({
      jsonrpc: "2.0",
      method: "ui/notifications/size-changed",
      params: { height: 240, width: -1 },
    });
    bridge.receive({
      jsonrpc: "2.0",
      id: 4,
      method: "ui/request-display-mode",
      params: { mode: "fullscreen" },
    });
    await settle();
    // Answers come as each request settles; compare them in id order.
    expect(posted.sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual([
      { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2026-01-26", echo: { name: "a" } } },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "ok" }] } },
      { jsonrpc: "2.0", id: 3, result: {} },
      { jsonrpc: "2.0", id: 4, result: { mode: "inline" } },
      { jsonrpc: "2.0", id: "p", result: {} },
    ]);
    expect(calls).toEqual([
      "initialized",
      ["tools/call", "increment", { count: 1 }],
      ["open", "https://example.com/"],
      ["size", { height: 240 }],
    ]);
  });

  it("answers unknown methods, ui/update-model-context, bad params and a host refusal with JSON-RPC errors", async () => {
    const { bridge, posted, settle } = setup({
      callTool: async () => {
        throw new BridgeError(RPC_ERROR.refused, "The person denied the call of apps_wipe.");
      },
    });
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "evil/escalate" });
    bridge.receive({ jsonrpc: "2.0", id: 2, method: "ui/update-model-context", params: { content: [] } });
    bridge.receive({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { arguments: {} } });
    bridge.receive({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "wipe", arguments: [1] } });
    bridge.receive({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "wipe" } });
    bridge.receive({ jsonrpc: "2.0", id: 6, method: "ui/open-link", params: { url: 42 } });
    await settle();
    // Answers come as each request settles; compare them in id order.
    expect(posted.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "The host does not support evil/escalate." } },
      {
        jsonrpc: "2.0",
        id: 2,
        error: {
          code: -32000,
          message:
            "ui/update-model-context is refused: the playground adds nothing from an app to the model's context unseen. Send a ui/message instead, which the person reads and approves.",
        },
      },
      {
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32602, message: "tools/call needs params.name, a tool name." },
      },
      {
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32602, message: "tools/call params.arguments must be an object." },
      },
      { jsonrpc: "2.0", id: 5, error: { code: -32000, message: "The person denied the call of apps_wipe." } },
      { jsonrpc: "2.0", id: 6, error: { code: -32602, message: "ui/open-link needs params.url, a URL." } },
    ]);
  });

  it("refuses what is not JSON-RPC 2.0, answering when the id is usable and dropping the rest", async () => {
    const { bridge, posted, calls, settle } = setup();
    bridge.receive({ jsonrpc: "1.0", id: 7, method: "ping" });
    bridge.receive({ jsonrpc: "2.0", id: 8, method: "ping", params: "x" });
    bridge.receive({ jsonrpc: "2.0", id: 9, method: 12 });
    bridge.receive("ping");
    bridge.receive(null);
    bridge.receive({ jsonrpc: "2.0", id: { nested: true }, method: "tools/call", params: { name: "wipe" } });
    // An answer to no request of the host's is dropped: JSON-RPC never answers an answer.
    bridge.receive({ jsonrpc: "2.0", id: 10, result: {} });
    const cyclic: Record<string, unknown> = { jsonrpc: "2.0", id: 11, method: "ping" };
    cyclic.params = { self: cyclic };
    bridge.receive(cyclic);
    await settle();
    expect(posted).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32600, message: 'Not a JSON-RPC 2.0 request: jsonrpc is not "2.0".' },
      },
      {
        jsonrpc: "2.0",
        id: 8,
        error: { code: -32600, message: "Not a JSON-RPC 2.0 request: params is not an object." },
      },
      {
        jsonrpc: "2.0",
        id: 9,
        error: {
          code: -32600,
          message: "Not a JSON-RPC 2.0 request: method is not a string of 1–100 characters.",
        },
      },
    ]);
    expect(calls).toEqual([]);
    expect(bridge.drops).toEqual({ rate: 0, size: 0, invalid: 8 });
  });

  it("refuses a message over the size limit without handling it", async () => {
    const { bridge, posted, calls, settle } = setup({}, { maximumMessageBytes: 1000 });
    bridge.receive({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "wipe", arguments: { pad: "x".repeat(1000) } },
    });
    await settle();
    expect(calls).toEqual([]);
    expect(posted).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32600, message: "The message is larger than the host's limit of 1000 bytes." },
      },
    ]);
    expect(bridge.drops.size).toBe(1);
  });

  it("drops messages past the rate limit and lets the app go on once it slows down", async () => {
    const { bridge, posted, settle, advance } = setup({}, { burst: 5, perSecond: 10 });
    for (let id = 0; id < 100; id++) bridge.receive({ jsonrpc: "2.0", id, method: "ping" });
    await settle();
    expect(posted.map((message) => message.id)).toEqual([0, 1, 2, 3, 4]);
    expect(bridge.drops.rate).toBe(95);
    advance(300);
    for (let id = 100; id < 110; id++) bridge.receive({ jsonrpc: "2.0", id, method: "ping" });
    await settle();
    expect(posted.map((message) => message.id)).toEqual([0, 1, 2, 3, 4, 100, 101, 102]);
  });

  it("sends notifications to the app, and nothing once closed", async () => {
    const { bridge, posted, settle } = setup();
    bridge.notify("ui/notifications/tool-input", { arguments: { start: 3 } });
    bridge.close();
    bridge.notify("ui/notifications/tool-result", { content: [] });
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "ping" });
    await settle();
    expect(posted).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { start: 3 } } },
    ]);
  });
});
