import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// The playground serving itself over MCP: switched on through the API, called with Junction's own
// MCP client over Streamable HTTP with the token shown on the page, and the calls listed back.
let test: TestPlayground;
const open: MCP[] = [];

beforeAll(async () => {
  test = await startTestPlayground();
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
  await test.close();
});

async function connect(
  url: string,
  token: string,
  {
    protocolVersion,
    handlers,
  }: {
    protocolVersion?: "2025-11-25" | "2026-07-28";
    handlers?: ConstructorParameters<typeof MCP>[0]["handlers"];
  } = {},
) {
  const mcp = new MCP({
    name: "served",
    transport: "http",
    url,
    headers: { authorization: `Bearer ${token}` },
    reconnect: false,
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(handlers ? { handlers } : {}),
  });
  open.push(mcp);
  await mcp.connect();
  return mcp;
}

describe("the playground's MCP endpoint", () => {
  it("is off until switched on, then serves on loopback with a token", async () => {
    const before = await test.api("GET", "/api/serve");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      enabled: false,
      url: null,
      token: null,
      error: null,
      clients: [],
      calls: [],
    });
    const refused = await test.api("PUT", "/api/serve", { enabled: "yes" });
    expect(refused).toEqual({ status: 400, body: { error: "`enabled` must be true or false." } });
    const on = await test.api("PUT", "/api/serve", { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
    expect(on.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(on.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(on.body.approvals).toContain("gets an error result naming the tool, and nothing runs");
    const status = await test.api("GET", "/api/serve");
    expect(status.body.tools.slice(0, 1)).toEqual(["ask_playground"]);
    expect(status.body.tools).toEqual(expect.arrayContaining(["everything_echo", "memory_read_graph"]));
  });

  it("answers 401 without the token, and with a wrong one", async () => {
    const { url } = (await test.api("GET", "/api/serve")).body;
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "intruder", version: "1" },
      },
    };
    for (const headers of [{}, { authorization: "Bearer not-the-token" }] as Record<string, string>[]) {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
    await expect(connect(url, "not-the-token")).rejects.toThrow();
    // Nothing an unauthenticated request said is recorded.
    const { clients } = (await test.api("GET", "/api/serve")).body;
    expect(clients).toEqual([]);
  });

  it("serves the agent and the gateway to Junction's client, and lists the client and its calls", async () => {
    const { url, token } = (await test.api("GET", "/api/serve")).body;
    const mcp = await connect(url, token, { protocolVersion: "2025-11-25" });
    const tools = await mcp.listServerTools();
    const ask = tools.find((tool) => tool.name === "ask_playground");
    expect(ask?.inputSchema).toMatchObject({ type: "object", required: ["request"] });
    const echo = tools.find((tool) => tool.name === "everything_echo");
    expect(echo).toBeDefined();

    expect(await mcp.callTool("everything_echo", { message: "hi from a client" })).toEqual({
      content: [{ type: "text", text: "Echo: hi from a client" }],
      isError: false,
    });
    // The offline model picks the everything server's sum tool (read-only: no approval needed).
    expect(await mcp.callTool("ask_playground", { request: "add 2 and 3" })).toEqual({
      content: [{ type: "text", text: 'Done. everything_get-sum returned: "The sum of 2 and 3 is 5".' }],
      isError: false,
    });
    const invalid = await mcp.callTool("ask_playground", {});
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]).toMatchObject({ type: "text" });

    const status = (await test.api("GET", "/api/serve")).body;
    expect(status.clients).toHaveLength(1);
    expect(status.clients[0]).toMatchObject({
      name: "junction-mcp-client",
      protocolVersion: "2025-11-25",
    });
    expect(status.clients[0].session).toMatch(/^[0-9a-f-]{36}$/);
    expect(status.calls.map((call: any) => [call.tool, call.outcome, call.session])).toEqual([
      ["ask_playground", "error", status.clients[0].session],
      ["ask_playground", "ok", status.clients[0].session],
      ["everything_echo", "ok", status.clients[0].session],
    ]);
    for (const call of status.calls) expect(call.durationMs).toBeGreaterThanOrEqual(0);
    expect(status.calls[0].detail).toBe('Invalid input for tool "ask_playground":');
  });

  it("a served agent's call that needs approval asks the client; without a way to ask, it is not run and the result says so", async () => {
    const { url, token } = (await test.api("GET", "/api/serve")).body;
    const { readdirSync, readFileSync } = await import("node:fs");
    const silent = await connect(url, token);
    const refused = await silent.callTool("ask_playground", { request: 'write a file served.txt with "hi"' });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      {
        type: "text",
        text:
          'The agent behind "ask_playground" needs a person to approve its call to "filesystem_write_file", and ' +
          "this client declared no elicitation capability, so the server cannot ask it (input_required). Nothing " +
          "was run for that call. Use a client that supports elicitation (or the tasks extension), ask the server's " +
          "operator to allow the tool without approval, or run the agent directly.",
      },
    ]);
    expect(readdirSync(test.playground.dataDir.sandbox)).not.toContain("served.txt");

    // A client that can ask its person: the question names the tool and its arguments; approved, it runs.
    const asked: string[] = [];
    const asking = await connect(url, token, {
      protocolVersion: "2025-11-25",
      handlers: {
        elicitation: async (request) => {
          asked.push(request.message);
          return { action: "accept", content: {} };
        },
      },
    });
    const done = await asking.callTool("ask_playground", { request: 'write a file served.txt with "hi"' });
    expect(done.isError).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"filesystem_write_file"');
    expect(readFileSync(`${test.playground.dataDir.sandbox}/served.txt`, "utf8")).toBe("hi");
  });

  it("lists a 2026-07-28 client as stateless, and a client's name only as inert text", async () => {
    const { url, token } = (await test.api("GET", "/api/serve")).body;
    const modern = await connect(url, token, { protocolVersion: "2026-07-28" });
    expect(modern.protocolVersion).toBe("2026-07-28");
    await modern.callTool("everything_echo", { message: "modern" });
    // A hand-made 2025 client whose name carries markup, an escape sequence and a bidi override.
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: {
            name: '<img src=x onerror="alert(1)">\u001b[31m\u202eevil',
            version: "x".repeat(500),
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    const { clients, calls } = (await test.api("GET", "/api/serve")).body;
    const stateless = clients.find((client: any) => client.session === "stateless");
    expect(stateless).toMatchObject({ name: "junction-mcp-client", protocolVersion: "2026-07-28" });
    expect(calls[0]).toMatchObject({ tool: "everything_echo", outcome: "ok", session: "stateless" });
    const hostile = clients.find((client: any) => client.name.startsWith("<img"));
    expect(hostile.name).toBe('<img src=x onerror="alert(1)">[31mevil');
    expect(hostile.version).toBe(`${"x".repeat(199)}…`);
    expect(hostile.session).toBe(response.headers.get("mcp-session-id"));
  });

  it("keeps the switch, port and token across a restart, and stops serving when switched off", async () => {
    const before = (await test.api("GET", "/api/serve")).body;
    await test.close({ keepDirectory: true });
    test = await startTestPlayground({ directory: test.directory });
    const after = (await test.api("GET", "/api/serve")).body;
    expect(after).toMatchObject({
      enabled: true,
      url: before.url,
      token: before.token,
      clients: [],
      calls: [],
    });
    const mcp = await connect(after.url, after.token, {});
    expect((await mcp.listServerTools()).map((tool) => tool.name)).toContain("ask_playground");
    await mcp.close();
    const off = (await test.api("PUT", "/api/serve", { enabled: false })).body;
    expect(off).toMatchObject({ enabled: false, url: null, token: null });
    await expect(fetch(before.url, { method: "POST" })).rejects.toThrow();
  });
});
