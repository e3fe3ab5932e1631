import { existsSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerApprovals,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../../test/test-playground.js";

const crashingServer = fileURLToPath(new URL("../__fixtures__/crashing-server.mjs", import.meta.url));

function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, path, method: "GET", headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

let test: TestPlayground;
const idOf = (name: string) => test.playground.registry.list().find((server) => server.name === name)!.id;

beforeAll(async () => {
  test = await startTestPlayground();
});
afterAll(async () => {
  await test.close();
});

describe("access control", () => {
  it("connects the three default servers from npm on first start", async () => {
    const { status, body } = await test.api("GET", "/api/servers");
    expect(status).toBe(200);
    expect(body.map((server: any) => [server.name, server.status, server.builtin])).toEqual([
      ["everything", "connected", "everything"],
      ["filesystem", "connected", "filesystem"],
      ["memory", "connected", "memory"],
    ]);
    expect(existsSync(join(test.directory, "sandbox", "README.txt"))).toBe(true);
  });

  it("requires the per-run token for the API and the page", async () => {
    const noToken = await fetch(`${test.base}/api/servers`);
    expect(noToken.status).toBe(401);
    expect((await noToken.json()).error).toContain("missing or wrong token");
    expect(
      (await fetch(`${test.base}/api/servers`, { headers: { authorization: "Bearer nope" } })).status,
    ).toBe(401);
    expect((await fetch(`${test.base}/`)).status).toBe(401);
    const page = await fetch(`${test.base}/?token=${test.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/assets/app.js"></script>');
  });

  it("rejects a foreign Host (DNS rebinding) and a foreign Origin even with the token", async () => {
    const auth = { authorization: `Bearer ${test.token}` };
    const rebinding = await rawRequest(test.port, "/api/servers", {
      ...auth,
      host: `attacker.example:${test.port}`,
    });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error).toBe(
      `Refused: the Host header "attacker.example:${test.port}" is not this server.`,
    );
    const foreignOrigin = await rawRequest(test.port, "/api/servers", {
      ...auth,
      host: `127.0.0.1:${test.port}`,
      origin: "http://attacker.example",
    });
    expect(foreignOrigin.status).toBe(403);
    expect(JSON.parse(foreignOrigin.body).error).toBe(
      'Refused: the Origin "http://attacker.example" is not this server.',
    );
    const ownOrigin = await rawRequest(test.port, "/api/servers", {
      ...auth,
      host: `localhost:${test.port}`,
      origin: `http://localhost:${test.port}`,
    });
    expect(ownOrigin.status).toBe(200);
  });

  it("refuses a POST that is not JSON (no form posts)", async () => {
    const response = await fetch(`${test.base}/api/servers`, {
      method: "POST",
      headers: { authorization: `Bearer ${test.token}`, "content-type": "application/x-www-form-urlencoded" },
      body: "name=x",
    });
    expect(response.status).toBe(415);
  });
});

describe("servers", () => {
  it("explains a broken server config and adds nothing", async () => {
    const noCommand = await test.api("POST", "/api/servers", { name: "broken", config: { args: ["x"] } });
    expect(noCommand.status).toBe(400);
    expect(noCommand.body.error).toMatch(/broken/);
    const badName = await test.api("POST", "/api/servers", {
      name: "bad name!",
      config: { command: "node" },
    });
    expect(badName.status).toBe(400);
    expect(badName.body.error).toContain('A server name must be 1–40 letters, digits or "-"');
    const notJson = await test.api("POST", "/api/servers/import", { document: "{ nope" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/^The imported file is not JSON/);
    const noServers = await test.api("POST", "/api/servers/import", { document: '{"other": {}}' });
    expect(noServers.body.error).toBe('The imported file has no "mcpServers" (or VS Code "servers") object.');
    const list = await test.api("GET", "/api/servers");
    expect(list.body.map((server: any) => server.name)).toEqual(["everything", "filesystem", "memory"]);
  });

  it("shows why a server failed to start, with its stderr", async () => {
    const { status, body } = await test.api("POST", "/api/servers", {
      name: "dies-at-start",
      config: {
        command: process.execPath,
        args: ["-e", "console.error('missing config file /nowhere'); process.exit(3)"],
      },
    });
    expect(status).toBe(200);
    expect(body.status).toBe("error");
    expect(body.error).toContain("dies-at-start");
    expect(body.error).toContain("missing config file /nowhere");
    const call = await test.api("GET", `/api/servers/${body.id}/tools`);
    expect(call.status).toBe(503);
    expect(call.body.error).toContain("Server dies-at-start is not connected");
    expect((await test.api("DELETE", `/api/servers/${body.id}`)).status).toBe(200);
  });

  it("imports an mcpServers file, edits and removes a server, keeping secrets out of the API", async () => {
    const document = JSON.stringify({
      mcpServers: {
        crashy: { command: process.execPath, args: [crashingServer], env: { API_TOKEN: "s3cret-value" } },
      },
    });
    const imported = await test.api("POST", "/api/servers/import", { document });
    expect(imported.body).toEqual({ added: ["crashy"], skipped: [], warnings: [] });
    const again = await test.api("POST", "/api/servers/import", { document });
    expect(again.body).toEqual({
      added: [],
      skipped: [{ name: "crashy", reason: "a server with this name already exists" }],
      warnings: [],
    });
    const listed = (await test.api("GET", "/api/servers")).body.find(
      (server: any) => server.name === "crashy",
    );
    expect(listed.status).toBe("connected");
    expect(listed.config.env).toEqual({ API_TOKEN: "••••••" });
    expect(JSON.stringify((await test.api("GET", "/api/servers")).body)).not.toContain("s3cret-value");
    // Saving the redacted view back keeps the real secret.
    const edited = await test.api("PUT", `/api/servers/${listed.id}`, {
      name: "crashy",
      config: listed.config,
      enabled: true,
    });
    expect(edited.body.status).toBe("connected");
    const stored = test.playground.store.getServer(listed.id)!;
    expect(stored.config.env).toEqual({ API_TOKEN: "s3cret-value" });
  });

  it("survives a server that crashes mid-call: a clear error, then the server is back", async () => {
    const id = idOf("crashy");
    const crash = await test.api("POST", `/api/servers/${id}/tools/call`, { name: "crash", arguments: {} });
    expect(crash.status).toBeGreaterThanOrEqual(500);
    expect(crash.body.error).toMatch(/crashy|closed|exit/i);
    // The client restarts it; a new call waits for the reconnection.
    const hello = await test.api("POST", `/api/servers/${id}/tools/call`, { name: "hello", arguments: {} });
    expect(hello.status).toBe(200);
    expect(hello.body.result).toEqual({
      content: [{ type: "text", text: "hello from the test server" }],
      isError: false,
    });
    expect((await test.api("GET", "/api/servers")).body.find((server: any) => server.id === id).status).toBe(
      "connected",
    );
  });
});

describe("inspector", () => {
  it("calls a tool and returns its full result with timing", async () => {
    const { status, body } = await test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "get-sum",
      arguments: { a: 2, b: 40 },
    });
    expect(status).toBe(200);
    expect(body.result).toEqual({
      content: [{ type: "text", text: "The sum of 2 and 40 is 42." }],
      isError: false,
    });
    expect(typeof body.durationMs).toBe("number");
  });

  it("explains arguments that fail the tool's schema before calling it", async () => {
    const wrongType = await test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "get-sum",
      arguments: { a: "two", b: 2 },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toBe(
      "The arguments for get-sum do not match its input schema: a must be number.",
    );
    const missing = await test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "get-sum",
      arguments: { b: 2 },
    });
    expect(missing.body.error).toBe(
      "The arguments for get-sum do not match its input schema: a is required.",
    );
    const unknown = await test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "no-such-tool",
      arguments: {},
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("Server everything has no tool named no-such-tool.");
  });

  it("reads a resource and gets a prompt with arguments", async () => {
    const everything = idOf("everything");
    const { body: resources } = await test.api("GET", `/api/servers/${everything}/resources`);
    expect(resources.resources.length + resources.templates.length).toBeGreaterThan(0);
    const filesystemTools = await test.api("GET", `/api/servers/${idOf("filesystem")}/tools`);
    expect(filesystemTools.body.map((tool: any) => tool.name)).toContain("read_text_file");
    const { body: prompts } = await test.api("GET", `/api/servers/${everything}/prompts`);
    const withArguments = prompts.find((prompt: any) =>
      prompt.arguments?.some((argument: any) => argument.required),
    );
    expect(withArguments).toBeDefined();
    const args = Object.fromEntries(
      withArguments.arguments.map((argument: any) => [argument.name, "test-value"]),
    );
    const got = await test.api("POST", `/api/servers/${everything}/prompts/get`, {
      name: withArguments.name,
      arguments: args,
    });
    expect(got.status).toBe(200);
    expect(got.body.messages.length).toBeGreaterThan(0);
  });

  it("keeps a server's log messages for the servers view", async () => {
    const everything = idOf("everything");
    const toggle = () =>
      test.api("POST", `/api/servers/${everything}/tools/call`, {
        name: "toggle-simulated-logging",
        arguments: {},
      });
    expect((await toggle()).status).toBe(200);
    await expect
      .poll(async () => (await test.api("GET", `/api/servers/${everything}/logs`)).body.entries.length)
      .toBeGreaterThan(0);
    const [first] = (await test.api("GET", `/api/servers/${everything}/logs`)).body.entries;
    expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(
      first.level,
    );
    expect(JSON.stringify(first.data).length).toBeGreaterThan(2);
    expect((await toggle()).status).toBe(200);
  });

  it("lets a server ask the model (sampling) only once the person agrees", async () => {
    const seen: any[] = [];
    const unlisten = test.playground.hub.listen((event) => {
      if (event.type === "elicitation-request") seen.push(event);
    });
    const call = test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "trigger-sampling-request",
      arguments: { prompt: "name a colour", maxTokens: 20 },
    });
    await expect.poll(() => seen.length).toBe(1);
    // Everything the model receives, the system prompt the server adds included (issue 17, hole 2).
    expect(seen[0]).toMatchObject({ kind: "sampling", server: "everything" });
    expect(seen[0].message).toBe(
      [
        "everything wants to ask the model (Offline scripted model (not an LLM), offline-scripted). Accepting sends it everything below.",
        "Input: 1 message, 86 characters of text (about 22 tokens); the answer may use up to 20 tokens; temperature 0.7.",
        "--- System prompt (30 characters):",
        "You are a helpful test server.",
        "--- Message 1 of 1, user (text, 56 characters):",
        "Resource trigger-sampling-request context: name a colour",
      ].join("\n"),
    );
    await test.api("POST", `/api/elicitations/${seen[0].id}`, { action: "accept", content: {} });
    const result = await call;
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body.result)).toContain(
      "I am the offline scripted model, not an LLM, and I have no tools here.",
    );

    const refused = test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "trigger-sampling-request",
      arguments: { prompt: "spend my tokens", maxTokens: 20 },
    });
    await expect.poll(() => seen.length).toBe(2);
    await test.api("POST", `/api/elicitations/${seen[1].id}`, { action: "decline" });
    const declined = await refused;
    unlisten();
    expect(declined.body.result).toEqual({
      content: [{ type: "text", text: "MCP error -32603: The user declined the server's sampling request." }],
      isError: true,
    });
  });

  it("carries an elicitation request to the page and the answer back to the server", async () => {
    const seen: any[] = [];
    const unlisten = test.playground.hub.listen((event) => {
      if (event.type === "elicitation-request") seen.push(event);
    });
    const call = test.api("POST", `/api/servers/${idOf("everything")}/tools/call`, {
      name: "trigger-elicitation-request",
      arguments: {},
    });
    await expect.poll(() => seen.length, { timeout: 20_000 }).toBe(1);
    expect(seen[0].server).toBe("everything");
    expect((await test.api("GET", "/api/state")).body.elicitations.map((e: any) => e.id)).toEqual([
      seen[0].id,
    ]);
    const bad = await test.api("POST", `/api/elicitations/${seen[0].id}`, { action: "maybe" });
    expect(bad.status).toBe(400);
    const answered = await test.api("POST", `/api/elicitations/${seen[0].id}`, {
      action: "accept",
      content: { name: "Ada Lovelace", check: true },
    });
    expect(answered.status).toBe(200);
    const result = await call;
    unlisten();
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body.result)).toContain("Ada Lovelace");
  });
});

describe("chat and persistence", () => {
  it("runs a turn with the offline model: a tool call, its result and a summary, saved to SQLite", async () => {
    const state = await test.api("GET", "/api/state");
    expect(state.body.providers.map((provider: any) => provider.id)).toEqual(["offline"]);
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const events = await runChatTurn(test, conversation.id, { text: "please add 19 and 23" });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("finish");
    const call = events.find((event) => event.type === "tool-call");
    expect(call).toMatchObject({ name: "everything_get-sum", server: "everything", input: { a: 19, b: 23 } });
    const result = events.find((event) => event.type === "tool-result");
    expect(result.result).toEqual({
      content: [{ type: "text", text: "The sum of 19 and 23 is 42." }],
      isError: false,
    });
    expect(events.at(-1).text).toBe('Done. everything_get-sum returned: "The sum of 19 and 23 is 42".');
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.title).toBe("please add 19 and 23");
    // The turn ends with its context bar (the last request's size against the model's window)
    // and its trace.
    expect(saved.transcript.map((item) => item.kind)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "context",
      "trace",
    ]);
    const context = saved.transcript.at(-2) as Extract<
      (typeof saved.transcript)[number],
      { kind: "context" }
    >;
    expect(context.size.contextWindow).toBe(128_000);
    expect(context.size.toolResults).toBeGreaterThan(0);
    expect(context.size.tools).toBeGreaterThan(context.size.toolResults);
    expect(events.filter((event) => event.type === "context")).toHaveLength(2);
    expect(saved.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("a server whose tools load only when searched: the model searches, then calls the tool it found, on smaller requests", async () => {
    const everything = idOf("everything");
    const refused = await test.api("PUT", `/api/servers/${everything}/defer-tools`, { deferTools: "yes" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Send {"deferTools": true} or {"deferTools": false}.');
    const turn = async (text: string) => {
      const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
      return runChatTurn(test, conversation.id, { text });
    };
    try {
      const deferred = await test.api("PUT", `/api/servers/${everything}/defer-tools`, { deferTools: true });
      expect(deferred.status).toBe(200);
      expect(deferred.body).toMatchObject({ name: "everything", status: "connected", deferTools: true });
      const listed = await test.api("GET", "/api/servers");
      expect(
        listed.body.filter((server: any) => server.deferTools).map((server: any) => server.name),
      ).toEqual(["everything"]);

      const searching = await turn("please add 19 and 23");
      const calls = searching.filter((event) => event.type === "tool-call");
      expect(calls.map((event) => [event.name, event.input])).toEqual([
        ["search_tools", { query: "sum of two numbers" }],
        ["everything_get-sum", { a: 19, b: 23 }],
      ]);
      const found = searching.find((event) => event.type === "tool-result" && event.id === calls[0].id);
      expect(found.result.content[0].text).toContain("- everything_get-sum: Returns the sum of two numbers");
      expect(searching.at(-1).text).toBe('Done. everything_get-sum returned: "The sum of 19 and 23 is 42".');

      await test.api("PUT", `/api/servers/${everything}/defer-tools`, { deferTools: false });
      const direct = await turn("please add 19 and 23");
      expect(direct.filter((event) => event.type === "tool-call").map((event) => event.name)).toEqual([
        "everything_get-sum",
      ]);
      // The first request of each turn: everything's 13 definitions left out, search_tools in.
      const firstTools = (events: any[]) => events.find((event) => event.type === "context").size.tools;
      expect(firstTools(searching)).toBeLessThan(firstTools(direct));
    } finally {
      await test.api("PUT", `/api/servers/${everything}/defer-tools`, { deferTools: false });
    }
  });

  it("asks for approval of a destructive tool: the turn stops with the call waiting, and the answer continues it", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const events = await runChatTurn(test, conversation.id, { text: 'write a file approved.txt with "yes"' });
    expect(events.find((event) => event.type === "approval-request")).toMatchObject({
      name: "filesystem_write_file",
      server: "filesystem",
    });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "approval-required" });
    expect(existsSync(join(test.directory, "sandbox", "approved.txt"))).toBe(false);
    const waiting = test.playground.store.getConversation(conversation.id)!;
    expect(waiting.runState?.pending.map((call) => call.name)).toEqual(["filesystem_write_file"]);
    // The card gets the same item the stopped run lists, digests and all.
    const card = events.find((event) => event.type === "approval-request");
    expect(card?.type === "approval-request" ? card.item : undefined).toEqual(waiting.runState?.pending[0]);
    expect(waiting.transcript.find((item) => item.kind === "tool")).toMatchObject({
      status: "awaiting-approval",
    });

    const continued = await answerApprovals(test, conversation.id);
    expect(continued.find((event) => event.type === "approval-answered")).toMatchObject({ approved: true });
    expect(continued.find((event) => event.type === "tool-result").result.isError).toBe(false);
    expect(continued.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(readFileSync(join(test.directory, "sandbox", "approved.txt"), "utf8")).toBe("yes");
    expect(test.playground.store.getConversation(conversation.id)!.runState).toBeNull();

    await runChatTurn(test, conversation.id, { text: 'write a file denied.txt with "no"' });
    const denied = await answerApprovals(test, conversation.id, () => false);
    expect(denied.find((event) => event.type === "tool-result").result.isError).toBe(true);
    expect(existsSync(join(test.directory, "sandbox", "denied.txt"))).toBe(false);
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(
      saved.transcript.filter((item) => item.kind === "tool").map((item) => (item as any).status),
    ).toEqual(["done", "denied"]);
    // An answer for a call that does not wait is refused with what is wrong.
    const stale = await test.api("POST", `/api/conversations/${conversation.id}/approvals/nope`, {
      approve: true,
    });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe(`No approval is pending for call nope of conversation ${conversation.id}.`);
  });

  it("keeps a pending approval across a restart of the playground; approving after it finishes the run once", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const first = await runChatTurn(test, conversation.id, {
      text: 'write a file restarted.txt with "after"',
    });
    expect(first.at(-1)).toMatchObject({ type: "finish", reason: "approval-required" });
    const directory = test.directory;
    await test.close({ keepDirectory: true });
    test = await startTestPlayground({ directory });
    const restored = (await test.api("GET", `/api/conversations/${conversation.id}`)).body;
    expect(restored.transcript.find((item: any) => item.kind === "tool")).toMatchObject({
      name: "filesystem_write_file",
      status: "awaiting-approval",
    });
    const continued = await answerApprovals(test, conversation.id);
    expect(continued.filter((event) => event.type === "tool-result")).toHaveLength(1);
    expect(continued.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(readFileSync(join(directory, "sandbox", "restarted.txt"), "utf8")).toBe("after");
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.runState).toBeNull();
    expect(
      saved.transcript.filter((item) => item.kind === "tool").map((item) => (item as any).status),
    ).toEqual(["done"]);
  });

  it("a new message instead of an answer closes the waiting run: the call is denied and never runs", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    await runChatTurn(test, conversation.id, { text: 'write a file skipped.txt with "never"' });
    const next = await runChatTurn(test, conversation.id, { text: "echo moving on" });
    expect(next.find((event) => event.type === "approval-answered")).toMatchObject({ approved: false });
    expect(next.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(existsSync(join(test.directory, "sandbox", "skipped.txt"))).toBe(false);
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.runState).toBeNull();
    expect(JSON.stringify(saved.messages)).toContain("the user went on without answering");
  });

  it("a conversation with an output schema ends each turn with a validated object beside the text; a bad schema is refused", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const notObject = await test.api("PUT", `/api/conversations/${conversation.id}/output-schema`, {
      schema: { type: "string" },
    });
    expect(notObject.status).toBe(400);
    expect(notObject.body.error).toBe(
      'The output schema must describe an object: give it "type": "object" and its "properties".',
    );
    const schema = {
      type: "object",
      properties: { summary: { type: "string" }, result: { type: "number" } },
      required: ["summary", "result"],
    };
    const set = await test.api("PUT", `/api/conversations/${conversation.id}/output-schema`, { schema });
    expect(set.body).toEqual({ outputSchema: schema });
    const events = await runChatTurn(test, conversation.id, { text: "please add 20 and 22" });
    // Tools stay usable before the answer: the sum tool runs, then the answer comes as an object.
    expect(events.find((event) => event.type === "tool-result")).toMatchObject({
      name: "everything_get-sum",
    });
    const output = events.find((event) => event.type === "output");
    expect(output.output).toEqual({
      summary: 'Done. everything_get-sum returned: "The sum of 20 and 22 is 42".',
      result: 42,
    });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.outputSchema).toEqual(schema);
    expect(saved.transcript.find((item) => item.kind === "output")).toEqual({
      kind: "output",
      value: output.output,
    });
    // Cleared, the next turn answers in prose only.
    await test.api("PUT", `/api/conversations/${conversation.id}/output-schema`, { schema: null });
    const prose = await runChatTurn(test, conversation.id, { text: "echo plain" });
    expect(prose.some((event) => event.type === "output")).toBe(false);
  });

  it("stops a run in the middle of a tool call: the turn ends as stopped and the call never completes", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const events: any[] = [];
    await test.playground.chat.runTurn(
      conversation.id,
      { text: "trigger the long running operation" },
      (event) => {
        events.push(event);
        if (event.type === "tool-call") void test.api("POST", `/api/runs/${events[0].runId}/stop`, {});
      },
    );
    expect(events.find((event) => event.type === "tool-call").name).toBe(
      "everything_trigger-long-running-operation",
    );
    expect(events.at(-1)).toEqual({ type: "error", message: "Stopped.", aborted: true });
    expect(events.some((event) => event.type === "finish")).toBe(false);
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.transcript.at(-1)).toEqual({ kind: "notice", level: "info", text: "Stopped." });
    expect(saved.transcript.find((item) => item.kind === "tool")).toMatchObject({ status: "stopped" });
    expect(events.some((event) => event.type === "tool-result")).toBe(false);
  });

  // Issue 26, item 9: the trace id went to the page live only, so a reload or a restart lost the
  // turn's "Trace of this run", and the spans were kept in memory only.
  it("keeps each turn's trace with the conversation, and its spans across a restart", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const events = await runChatTurn(test, conversation.id, { text: "please add 2 and 3" });
    const traceId = events.find((event) => event.type === "trace")?.traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const stored = (await test.api("GET", `/api/conversations/${conversation.id}`)).body;
    expect(stored.transcript.at(-1)).toEqual({ kind: "trace", traceId });
    const spans = (await test.api("GET", `/api/traces/${traceId}`)).body;
    const names = spans.map((span: any) => span.name);
    expect(names).toContain("invoke_agent playground");
    expect(names).toContain("execute_tool everything_get-sum");
    expect(spans.every((span: any) => span.traceId === traceId)).toBe(true);

    const directory = test.directory;
    await test.close({ keepDirectory: true });
    test = await startTestPlayground({ directory });
    const restored = (await test.api("GET", `/api/conversations/${conversation.id}`)).body;
    expect(restored.transcript).toEqual(stored.transcript);
    const kept = await test.api("GET", `/api/traces/${traceId}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual(spans);
  });

  it("keeps servers and conversations across a restart", async () => {
    const directory = test.directory;
    const conversations = (await test.api("GET", "/api/conversations")).body.length;
    await test.close({ keepDirectory: true });
    test = await startTestPlayground({ directory });
    const servers = (await test.api("GET", "/api/servers")).body.map((server: any) => server.name);
    expect(servers).toEqual(["everything", "filesystem", "memory", "crashy"]);
    const listed = (await test.api("GET", "/api/conversations")).body;
    expect(listed.length).toBe(conversations);
    const first = listed.find((conversation: any) => conversation.title === "please add 19 and 23");
    const restored = (await test.api("GET", `/api/conversations/${first.id}`)).body;
    expect(restored.transcript[0]).toEqual({ kind: "user", text: "please add 19 and 23" });
    // The restored conversation continues with its history.
    const events = await runChatTurn(test, first.id, { text: "echo still here" });
    expect(events.find((event) => event.type === "tool-call")).toMatchObject({
      name: "everything_echo",
      input: { message: "still here" },
    });
    expect(test.playground.store.getConversation(first.id)!.messages.length).toBe(8);
  });
});
