import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createRequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { rawRequest } from "../test/raw-request.js";
import { spawnHTTPServer } from "../test/spawned-server.js";

// End to end, with the official SDK v2 client over real stdio and Streamable HTTP: a served
// tool() lists the client's roots, asks several questions in one round and keeps its own state
// across rounds; a served prompt asks the client (input_required on 2026-07-28); a resource with
// `subscribe: true` tells its subscribers, and only them, that it changed.

const script = fileURLToPath(new URL("../test-servers/rounds-server.mjs", import.meta.url));
const closing: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

type Transport = "stdio" | "http";
type Era = "2025-11-25" | "2026-07-28";

/** Spawns the fixture over HTTP; resolves with its URL once it prints it. */
const httpServer = () => spawnHTTPServer(script, closing);

const ALL = { sampling: {}, elicitation: { form: {} }, roots: {} };

async function connect(
  era: Era,
  options: { transport?: Transport; url?: string; capabilities?: Record<string, unknown> } = {},
) {
  const capabilities = (options.capabilities ?? ALL) as { sampling?: object; roots?: object };
  const client = new Client(
    { name: "sdk-v2", version: "1.0.0" },
    {
      capabilities: capabilities as never,
      versionNegotiation: era === "2026-07-28" ? { mode: { pin: era } } : { mode: "legacy" },
    },
  );
  const asked: string[] = [];
  if (capabilities.sampling) {
    client.setRequestHandler("sampling/createMessage", async () => {
      asked.push("sampling");
      return { role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" };
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler("roots/list", async () => {
      asked.push("roots");
      return { roots: [{ uri: "file:///work", name: "work" }, { uri: "file:///home" }] };
    });
  }
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { message: string; requestedSchema: { properties: object } };
    asked.push(params.message);
    const field = Object.keys(params.requestedSchema.properties)[0] ?? "name";
    return { action: "accept", content: { [field]: field === "colour" ? "green" : "Ann" } } as never;
  });
  const updated: string[] = [];
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    updated.push(notification.params.uri);
  });
  const transport =
    (options.transport ?? "http") === "stdio"
      ? new StdioClientTransport({ command: process.execPath, args: [script] })
      : new StreamableHTTPClientTransport(new URL(options.url ?? (await httpServer())));
  await client.connect(transport);
  closing.push(() => client.close());
  return { client, transport, asked, updated };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;
const promptText = (result: unknown) =>
  (result as { messages: { content: { text: string } }[] }).messages[0]?.content.text;

describe.each([
  ["stdio", "2025-11-25"],
  ["stdio", "2026-07-28"],
  ["http", "2025-11-25"],
  ["http", "2026-07-28"],
] as const)("servedContext() rounds, %s, %s", (transport, era) => {
  it("lists the client's roots, and names the capability a client without roots lacks", async () => {
    const { client } = await connect(era, { transport });
    expect(textOf(await client.callTool({ name: "list_roots", arguments: {} }))).toBe(
      "roots: file:///work, file:///home",
    );
    const { client: rootless } = await connect(era, {
      transport,
      capabilities: { elicitation: { form: {} } },
    });
    const call = rootless.callTool({ name: "list_roots", arguments: {} });
    if (era === "2026-07-28") {
      // The protocol's -32021, naming the capability the request lacks.
      await expect(call).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { roots: {} } },
      });
    } else {
      const result = await call;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        'Tool "list_roots" asked the client for its roots, but the client did not declare roots',
      );
    }
  });

  it("asks questions made together, then the next one, and completes with every answer", async () => {
    const { client, asked } = await connect(era, { transport });
    expect(textOf(await client.callTool({ name: "ask_all", arguments: {} }))).toBe(
      "Ann (hi, 2 roots) likes green",
    );
    expect(asked.sort()).toEqual(["Your colour?", "Your name?", "roots", "sampling"]);
  });

  it("keeps the tool's own state from one round to the next", async () => {
    const { client } = await connect(era, { transport });
    // 2026-07-28: three runs (two questions, one round each), the state counting the earlier ones;
    // a 2025 session answers within the one run.
    expect(textOf(await client.callTool({ name: "count_rounds", arguments: {} }))).toBe(
      `runs before this one: ${era === "2026-07-28" ? 2 : 0}`,
    );
  });

  it("serves a prompt that asks the person and the client's model first", async () => {
    const { client } = await connect(era, { transport });
    expect(promptText(await client.getPrompt({ name: "with_context" }))).toBe("Use: Ann");
    expect(promptText(await client.getPrompt({ name: "with_model" }))).toBe("Model: hi");
    const { client: modelless } = await connect(era, {
      transport,
      capabilities: { elicitation: { form: {} } },
    });
    const prompt = modelless.getPrompt({ name: "with_model" });
    if (era === "2026-07-28") {
      await expect(prompt).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
    } else {
      await expect(prompt).rejects.toThrow('Prompt "with_model" asked the client for sampling');
    }
  });
});

describe("a served tool()'s rounds on the wire (2026-07-28)", () => {
  it("asks questions made together in one input_required, and asks again only what went unanswered", async () => {
    const url = await httpServer();
    const capabilities = { sampling: {}, roots: {} };
    const call = (extra: Record<string, unknown> = {}) =>
      rawRequest(
        url,
        { method: "tools/call", params: { name: "ask_all", arguments: {}, ...extra } },
        { tasks: false, capabilities },
      );
    const first = (await call()).result as Record<string, unknown>;
    expect(first).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    expect(first.inputRequests).toEqual({
      name: expect.objectContaining({ method: "elicitation/create" }),
      hi: expect.objectContaining({ method: "sampling/createMessage" }),
      roots: { method: "roots/list", params: {} },
    });
    const name = { action: "accept", content: { name: "Bo" } };
    const hi = { role: "assistant", content: { type: "text", text: "hey" }, model: "m" };
    // The roots left unanswered: asked again, alone, with the other answers kept.
    const partial = (await call({ requestState: first.requestState, inputResponses: { name, hi } }))
      .result as Record<string, unknown>;
    expect(Object.keys(partial.inputRequests as object)).toEqual(["roots"]);
    const rooted = (
      await call({
        requestState: partial.requestState,
        inputResponses: { roots: { roots: [{ uri: "file:///x" }] } },
      })
    ).result as Record<string, unknown>;
    expect(Object.keys(rooted.inputRequests as object)).toEqual(["colour"]);
    // A roots answer that is no roots list is named.
    const bad = (
      await call({ requestState: partial.requestState, inputResponses: { roots: { roots: "all of them" } } })
    ).result;
    expect(JSON.stringify(bad)).toContain('The client\'s answer to \\"roots\\" is not a roots list');
    const done = await call({
      requestState: rooted.requestState,
      inputResponses: { colour: { action: "accept", content: { colour: "red" } } },
    });
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "Bo (hey, 1 roots) likes red" }] });
    // The tool's state is sealed in the requestState: a changed one is refused (-32602).
    const forged = await call({ requestState: `${String(rooted.requestState).slice(0, -2)}xx` });
    expect(forged.error?.code).toBe(-32602);
  });
  it("takes a round's state minted before questions could be asked together (one key)", async () => {
    const url = await httpServer();
    // The fixture's stateKey, and the binding the server's codec uses (method, client id).
    const codec = createRequestStateCodec({
      key: new TextEncoder().encode("rounds-fixture: a state key of 32 bytes or more"),
      ttlSeconds: 60,
      bind: (context) => `${context.mcpReq.method}\0${context.http?.authInfo?.clientId ?? ""}`,
    });
    const requestState = await codec.mint(
      {
        kind: "junction.tool-input",
        tool: "ask_all",
        answers: [{ key: "name", answer: { action: "accept", content: { name: "Eve" } } }],
        asking: "hi",
      },
      { mcpReq: { method: "tools/call" } } as ServerContext,
    );
    const hi = { role: "assistant", content: { type: "text", text: "yo" }, model: "m" };
    const next = await rawRequest(
      url,
      {
        method: "tools/call",
        params: { name: "ask_all", arguments: {}, requestState, inputResponses: { hi } },
      },
      { tasks: false, capabilities: { sampling: {}, roots: {} } },
    );
    expect(Object.keys((next.result?.inputRequests ?? {}) as object)).toEqual(["roots"]);
  });
});

describe("resources with subscribe: true (2025-11-25 sessions and stdio)", () => {
  it("declares resources.subscribe, and tells subscribers only, over HTTP sessions", async () => {
    const url = await httpServer();
    const watcher = await connect("2025-11-25", { url });
    const other = await connect("2025-11-25", { url });
    expect(watcher.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    await watcher.client.subscribeResource({ uri: "notes://watched" });
    await watcher.client.subscribeResource({ uri: "drafts://7" });
    const received = new Promise<void>((resolve) => {
      watcher.client.setNotificationHandler("notifications/resources/updated", (notification) => {
        watcher.updated.push(notification.params.uri);
        if (watcher.updated.length === 2) resolve();
      });
    });
    expect(
      textOf(await other.client.callTool({ name: "touch", arguments: { uri: "notes://watched" } })),
    ).toBe("told 1");
    expect(textOf(await other.client.callTool({ name: "touch", arguments: { uri: "drafts://7" } }))).toBe(
      "told 1",
    );
    expect(textOf(await other.client.callTool({ name: "touch", arguments: { uri: "drafts://8" } }))).toBe(
      "told 0",
    );
    await received;
    expect(watcher.updated).toEqual(["notes://watched", "drafts://7"]);
    expect(other.updated).toEqual([]);
    await watcher.client.unsubscribeResource({ uri: "notes://watched" });
    expect(
      textOf(await other.client.callTool({ name: "touch", arguments: { uri: "notes://watched" } })),
    ).toBe("told 0");
    // A session that ends (DELETE) takes its subscriptions with it.
    await (watcher.transport as StreamableHTTPClientTransport).terminateSession();
    expect(textOf(await other.client.callTool({ name: "touch", arguments: { uri: "drafts://7" } }))).toBe(
      "told 0",
    );
  });

  it("refuses a subscription to a resource without subscribe: true, naming it", async () => {
    const { client } = await connect("2025-11-25", { transport: "stdio" });
    await expect(client.subscribeResource({ uri: "notes://plain" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        '"notes://plain" is no resource this server lets clients subscribe to',
      ),
    });
    await client.subscribeResource({ uri: "notes://watched" });
    const received = new Promise<string>((resolve) => {
      client.setNotificationHandler("notifications/resources/updated", (notification) =>
        resolve(notification.params.uri),
      );
    });
    expect(textOf(await client.callTool({ name: "touch", arguments: { uri: "notes://watched" } }))).toBe(
      "told 1",
    );
    expect(await received).toBe("notes://watched");
  });

  it("has no resources/subscribe on 2026-07-28, which has no such method", async () => {
    const { client } = await connect("2026-07-28");
    expect(client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
  });
});

/** Opens a 2026-07-28 `subscriptions/listen` stream; yields its JSON-RPC frames as they come. */
async function* listen(url: string, notifications: Record<string, unknown>) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: {
        notifications,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const events = buffered.split("\n\n");
    buffered = events.pop() ?? "";
    for (const event of events) {
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5))
        .join("");
      if (data.trim()) yield JSON.parse(data) as { method?: string; params?: Record<string, unknown> };
    }
  }
}

describe("server.listChanged()", () => {
  it("tells every 2025 session that the tool list changed", async () => {
    const url = await httpServer();
    const sessions = await Promise.all([connect("2025-11-25", { url }), connect("2025-11-25", { url })]);
    const told = sessions.map(
      ({ client }) =>
        new Promise<void>((resolve) =>
          client.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
        ),
    );
    expect(
      textOf(await sessions[0]?.client.callTool({ name: "announce", arguments: { list: "tools" } })),
    ).toBe("announced tools");
    await Promise.all(told);
  });

  it("reaches the 2026-07-28 listen streams that asked for that list, and no other", async () => {
    const url = await httpServer();
    const frames = listen(url, { promptsListChanged: true, toolsListChanged: true });
    expect((await frames.next()).value).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
    const call = (list: string) =>
      rawRequest(
        url,
        { method: "tools/call", params: { name: "announce", arguments: { list } } },
        { tasks: false },
      );
    // Resources were not asked for: the stream's next frame is the prompts change.
    await call("resources");
    await call("prompts");
    expect((await frames.next()).value).toMatchObject({
      method: "notifications/prompts/list_changed",
      // Tagged with the listen request's id.
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 1 } },
    });
    await frames.return(undefined);
  });

  it("names a list it does not know", async () => {
    const { client } = await connect("2025-11-25", { transport: "stdio" });
    const result = await client.callTool({ name: "announce", arguments: { list: "skills" } });
    expect(textOf(result)).toContain('the list is "tools", "prompts" or "resources", not "skills"');
  });
});
