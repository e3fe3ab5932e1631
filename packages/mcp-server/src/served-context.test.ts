import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { rawRequest } from "../test/raw-request.js";
import { spawnHTTPServer } from "../test/spawned-server.js";

// End to end: served tool()s that log, report progress, sample, elicit (form and URL), are
// cancelled and read the client's capabilities through `servedContext()`, against the official
// SDK v2 client over real stdio and Streamable HTTP, in both protocol eras.

const script = fileURLToPath(new URL("../test-servers/context-server.mjs", import.meta.url));
const closing: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

type Transport = "stdio" | "http";
type Era = "2025-11-25" | "2026-07-28";

/** Spawns the fixture over HTTP; resolves with its URL once it prints it. */
const httpServer = () => spawnHTTPServer(script, closing);

const ALL = { sampling: {}, elicitation: { form: {}, url: {} } };

async function connect(
  transport: Transport,
  era: Era,
  options: { capabilities?: Record<string, unknown>; asked?: Record<string, unknown>[] } = {},
) {
  const client = new Client(
    { name: "sdk-v2", version: "1.0.0" },
    {
      capabilities: (options.capabilities ?? ALL) as never,
      versionNegotiation: era === "2026-07-28" ? { mode: { pin: era } } : { mode: "legacy" },
    },
  );
  const asked = options.asked ?? [];
  const capabilities = (options.capabilities ?? ALL) as { sampling?: object };
  if (capabilities.sampling) {
    client.setRequestHandler("sampling/createMessage", async (request) => {
      asked.push(request.params as never);
      return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" };
    });
  }
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { mode?: string; message: string };
    asked.push(params as never);
    if (params.mode === "url") return { action: "accept" } as never;
    if (params.message === "Your name?") return { action: "accept", content: { name: "Ann" } } as never;
    return { action: "accept", content: { colour: "green" } } as never;
  });
  const logs: unknown[] = [];
  client.setNotificationHandler("notifications/message", (notification) => {
    logs.push(notification.params);
  });
  await client.connect(
    transport === "stdio"
      ? new StdioClientTransport({ command: process.execPath, args: [script] })
      : new StreamableHTTPClientTransport(new URL(await httpServer())),
  );
  closing.push(() => client.close());
  return { client, logs, asked };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe.each([
  ["stdio", "2025-11-25"],
  ["stdio", "2026-07-28"],
  ["http", "2025-11-25"],
  ["http", "2026-07-28"],
] as const)("a served tool() with servedContext(), %s, %s", (transport, era) => {
  it("logs at the level the client set, and declares logging", async () => {
    const { client, logs } = await connect(transport, era);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const levelMeta = { "io.modelcontextprotocol/logLevel": "info" };
    if (era === "2025-11-25") await client.setLoggingLevel("info");
    const result = await client.callTool({
      name: "report",
      arguments: {},
      ...(era === "2026-07-28" ? { _meta: levelMeta } : {}),
    });
    expect(textOf(result)).toBe("reported");
    expect(logs).toEqual([
      { level: "info", data: "a info line", logger: "report" },
      { level: "warning", data: "a warning line", logger: "report" },
    ]);
  });

  it("asks the client's model, and the person in a form twice and by URL", async () => {
    const asked: Record<string, unknown>[] = [];
    const { client } = await connect(transport, era, { asked });
    expect(textOf(await client.callTool({ name: "ask_model", arguments: {} }))).toBe("The model said: Paris");
    expect(asked[0]).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
      maxTokens: 20,
    });
    expect(textOf(await client.callTool({ name: "ask_person", arguments: {} }))).toBe("Ann likes green");
    expect(asked.slice(1).map((params) => params.message)).toEqual([
      "Your name?",
      "What colour does Ann like?",
    ]);
    expect(textOf(await client.callTool({ name: "open_link", arguments: {} }))).toBe(
      "url elicitation: accept",
    );
    // 2026-07-28 has no `elicitationId` (the input request's key names the question).
    expect(asked[3]).toMatchObject({
      mode: "url",
      url: "https://example.com/sign-in",
      ...(era === "2025-11-25" ? { elicitationId: "sign-in-1" } : {}),
    });
  });

  it("tells the tool the client's capabilities, and names what the client lacks", async () => {
    const { client } = await connect(transport, era, { capabilities: { elicitation: { form: {} } } });
    const seen = JSON.parse(textOf(await client.callTool({ name: "capabilities", arguments: {} })) ?? "{}");
    expect(seen).toMatchObject({
      era: era === "2026-07-28" ? "modern" : "legacy",
      capabilities: { elicitation: { form: {} } },
    });
    expect(seen.capabilities.sampling).toBeUndefined();
    if (era === "2026-07-28") {
      // What the tool did not catch answers the request with the protocol's -32021, naming the
      // capability the request lacks.
      await expect(client.callTool({ name: "ask_model", arguments: {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
      await expect(client.callTool({ name: "open_link", arguments: {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { url: {} } } },
      });
      return;
    }
    const sampling = await client.callTool({ name: "ask_model", arguments: {} });
    expect(sampling.isError).toBe(true);
    expect(textOf(sampling)).toBe(
      'Tool "ask_model" failed: Tool "ask_model" asked the client for sampling, but the client did not declare sampling in its capabilities: it cannot be asked. Check `clientCapabilities` first and do without.',
    );
    const url = await client.callTool({ name: "open_link", arguments: {} });
    expect(url.isError).toBe(true);
    expect(textOf(url)).toContain("the client did not declare elicitation.url");
  });

  // Progress is checked here, where the tool waits after reporting it: the SDK client hands a
  // progress notification to its handler a microtask late, so one written just before the result
  // (as the raw wire shows it is) can lose to the result and be dropped on the client's side.
  it("reports progress, and aborts the tool's signal when the client cancels the call", async () => {
    const { client } = await connect(transport, era);
    const controller = new AbortController();
    const progress: unknown[] = [];
    const call = client.callTool(
      { name: "wait_for_cancel", arguments: {} },
      {
        signal: controller.signal,
        onprogress: (report) => {
          progress.push(report);
          controller.abort(new Error("the user stopped it"));
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(progress).toEqual([{ progress: 0, message: "waiting" }]);
    expect(textOf(await client.callTool({ name: "cancellations", arguments: {} }))).toMatch(
      /^the tool saw: aborted/,
    );
  });
});

describe("a served tool()'s input_required rounds (2026-07-28), on the wire", () => {
  it("asks one question per round, carries the answers in a signed state bound to the tool", async () => {
    const url = await httpServer();
    const call = (name: string, extra: Record<string, unknown> = {}) =>
      rawRequest(url, { method: "tools/call", params: { name, arguments: {}, ...extra } }, { tasks: false });
    const first = (await call("ask_person")).result as Record<string, unknown>;
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        "junction.input.1": { method: "elicitation/create", params: { message: "Your name?" } },
      },
      requestState: expect.any(String),
    });
    const second = (
      await call("ask_person", {
        requestState: first.requestState,
        inputResponses: { "junction.input.1": { action: "accept", content: { name: "Ann" } } },
      })
    ).result as Record<string, unknown>;
    expect(second).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        "junction.input.2": { params: { message: "What colour does Ann like?" } },
      },
    });
    expect(
      (
        await call("ask_person", {
          requestState: second.requestState,
          inputResponses: { "junction.input.2": { action: "accept", content: { colour: "red" } } },
        })
      ).result,
    ).toMatchObject({ content: [{ type: "text", text: "Ann likes red" }] });
    // The state of one tool's questions is refused by another.
    const elsewhere = (await call("confirm", { requestState: second.requestState })).result;
    expect(elsewhere).toMatchObject({ isError: true });
    expect(JSON.stringify(elsewhere)).toContain("was not made for this tool's questions");
    // An answer that is no elicitation result is named.
    const bad = (
      await call("ask_person", {
        requestState: first.requestState,
        inputResponses: { "junction.input.1": { action: "maybe" } },
      })
    ).result;
    expect(bad).toMatchObject({ isError: true });
    expect(JSON.stringify(bad)).toContain(
      'The client\'s answer to \\"junction.input.1\\" is not an elicitation result',
    );
    // A question asked under its own key: first asked, then answered on the retry.
    const keyed = (await call("ask_keyed")).result as Record<string, unknown>;
    expect(keyed).toMatchObject({
      resultType: "input_required",
      inputRequests: { user_name: { method: "elicitation/create" } },
    });
    expect(
      (
        await call("ask_keyed", {
          requestState: keyed.requestState,
          inputResponses: { user_name: { action: "accept", content: { name: "Bo" } } },
        })
      ).result,
    ).toMatchObject({ content: [{ type: "text", text: "Hello, Bo!" }] });
    // The first question's answer may come without state (an ephemeral round); a later one's may not.
    const ephemeral = await call("ask_keyed", {
      inputResponses: { user_name: { action: "accept", content: { name: "Cy" } } },
    });
    expect(ephemeral.result).toMatchObject({ content: [{ type: "text", text: "Hello, Cy!" }] });
    const early = await call("ask_person", {
      inputResponses: {
        "junction.input.1": { action: "accept", content: { name: "Di" } },
        "junction.input.2": { action: "accept", content: { colour: "blue" } },
      },
    });
    expect(early.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "junction.input.2": {} },
    });
    // A changed state is refused by the server's codec (-32602).
    const forged = await call("ask_person", { requestState: `${String(first.requestState)}x` });
    expect(forged.error?.code).toBe(-32602);
  });
});

describe("servedContext() outside a server", () => {
  it("is undefined for a tool called directly", async () => {
    const { servedContext } = await import("./served-context.js");
    expect(servedContext(undefined)).toBeUndefined();
    expect(servedContext({ signal: new AbortController().signal })).toBeUndefined();
  });
});
