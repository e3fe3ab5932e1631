import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import {
  lastUserText,
  startScriptedChatCompletions,
  toolResultsIn,
} from "../../test/scripted-chat-completions.js";
import {
  answerApprovals,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../../test/test-playground.js";
import type { ChatEvent } from "./chat-service.js";
import { KEPT_LOG_MESSAGES } from "./log-buffer.js";
import { cachedValidatorCount } from "./tool-arguments.js";

// Issue 11, hole 6: one hostile server could make the inspector answer 200 with an empty body
// (structured content thousands of levels deep), leave a conversation stuck on "already running
// a turn", push a 50 MB result to the page whole, flood the page with 20,000 log messages, and
// grow memory with a validator compiled per call.
const hostileServer = fileURLToPath(new URL("../__fixtures__/hostile-server.mjs", import.meta.url));

let test: TestPlayground;
let model: FakeVendorEndpoint;
let hostile: string;
const hubLogs: { entries: unknown[]; skipped: number }[] = [];

beforeAll(async () => {
  // The scripted model calls hostile_deep when asked for "deep", and answers in text otherwise or
  // once the tool result is back.
  model = await startScriptedChatCompletions((request) =>
    lastUserText(request).includes("nested") && toolResultsIn(request) === 0
      ? {
          toolCalls: [
            {
              id: "call_nested",
              name: "hostile_record",
              arguments: `{"path":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`,
            },
          ],
        }
      : lastUserText(request).includes("deep") && toolResultsIn(request) === 0
        ? {
            toolCalls: [
              { id: "call_deep", name: "hostile_deep", arguments: { levels: 5000 } },
              { id: "call_huge", name: "hostile_huge", arguments: { megabytes: 5 } },
            ],
          }
        : { text: "fine" },
  );
  test = await startTestPlayground({
    environment: { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
    seedDefaults: false,
  });
  const added = await test.api("POST", "/api/servers", {
    name: "hostile",
    config: { command: process.execPath, args: [hostileServer] },
  });
  expect(added.body.status).toBe("connected");
  hostile = added.body.id;
  test.playground.hub.listen((event) => {
    if (event.type === "server-log") hubLogs.push(event);
  });
});
afterAll(async () => {
  await test.close();
  await model.close();
});

const callTool = (name: string, args: Record<string, unknown>) =>
  test.api("POST", `/api/servers/${hostile}/tools/call`, { name, arguments: args });

describe("one hostile server cannot take the playground down", () => {
  it("answers a result nested 5,000 levels deep with the structure cut at 64 and a note", async () => {
    const { status, body } = await callTool("deep", { levels: 5000 });
    expect(status).toBe(200);
    expect(body.truncated).toBe(
      "This result was too large or too deep to show whole (limits 2.0 MB, 64 levels): structured content nested deeper than 64 levels was cut.",
    );
    let node = body.result.structuredContent;
    for (let depth = 0; depth < 64; depth++) node = node.a;
    expect(node).toBe("[cut: nested deeper than 64 levels]");
    expect(body.result.content).toEqual([{ type: "text", text: "deep" }]);
  });

  it("passes a 50 MB result to the page cut to 2 MB, saying so", async () => {
    const response = await fetch(`${test.base}/api/servers/${hostile}/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${test.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "huge", arguments: { megabytes: 50 } }),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.length).toBeLessThan(2.1 * 1024 * 1024);
    const body = JSON.parse(text);
    expect(body.result.content[0].text).toHaveLength(2 * 1024 * 1024);
    expect(body.truncated).toBe(
      "This result was too large or too deep to show whole (limits 2.0 MB, 64 levels): a text of 50.0 MB was cut to its first 2.0 MB.",
    );
  });

  it("keeps the last 200 of 20,000 log messages and pushes them to the page in a few batches", async () => {
    expect((await callTool("flood", { count: 20_000 })).body.result.content).toEqual([
      { type: "text", text: "flooded" },
    ]);
    const total = () => hubLogs.reduce((sum, event) => sum + event.entries.length + event.skipped, 0);
    await expect.poll(total).toBe(20_000);
    expect(hubLogs.length).toBeLessThan(40);
    expect(Math.max(...hubLogs.map((event) => event.entries.length))).toBeLessThanOrEqual(50);
    expect(hubLogs.at(-1)!.entries.at(-1)).toMatchObject({ level: "info", data: "flood 19999" });
    const { body } = await test.api("GET", `/api/servers/${hostile}/logs`);
    expect(body.entries).toHaveLength(KEPT_LOG_MESSAGES);
    expect(body.dropped).toBe(20_000 - KEPT_LOG_MESSAGES);
    expect(body.entries[0].data).toBe("flood 19800");
  });

  it("compiles one validator per tool, however many calls", async () => {
    await callTool("record", { path: "first" });
    const compiled = cachedValidatorCount();
    for (let index = 0; index < 300; index++) {
      const { status } = await callTool("record", { path: `call ${index}` });
      expect(status).toBe(200);
    }
    await callTool("leak-env", { name: "HOME" });
    expect(cachedValidatorCount()).toBe(compiled + 1);
    const wrong = await callTool("record", { path: 42 });
    expect(wrong.body.error).toBe(
      "The arguments for record do not match its input schema: path must be string.",
    );
  });
});

describe("a chat turn that fails anywhere releases its conversation", () => {
  it("bounds a deep and a huge result in chat, saves the turn, and the next turn runs", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const events: ChatEvent[] = [];
    await test.playground.chat.runTurn(conversation.id, { text: "show me something deep" }, (event) => {
      events.push(event);
    });
    // The turn stops at the approval; each answer continues it from the stored state.
    events.push(...(await answerApprovals(test, conversation.id)));
    // Core cuts them for the model; the page gets what the model got, never the 5,000 levels or 5 MB.
    const results = events.filter((event) => event.type === "tool-result");
    expect(results.map((event) => event.name)).toEqual(["hostile_deep", "hostile_huge"]);
    expect(results[0]!.result.structuredContent).toBeUndefined();
    expect(results[0]!.result.content[0]).toEqual({ type: "text", text: "deep" });
    for (const event of results) expect(JSON.stringify(event).length).toBeLessThan(2 * 1024 * 1024);
    expect(["finish", "error"]).toContain(events.at(-1)!.type);
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.transcript.filter((item) => item.kind === "tool").map((item) => item.status)).toEqual([
      "done",
      "done",
    ]);

    const next = await runChatTurn(test, conversation.id, { text: "hello" });
    expect(next.filter((event) => event.type === "error")).toEqual([]);
    expect(next.at(-1)).toEqual({ type: "finish", reason: "stop", text: "fine" });
  });

  it("ends a turn whose tool call has arguments 5,000 levels deep, saves it, and the next turn runs", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const events = await runChatTurn(test, conversation.id, { text: "send something nested" });
    expect(events[0].type).toBe("run-start");
    expect(["finish", "error"]).toContain(events.at(-1).type);
    const call = events.find((event) => event.type === "tool-call");
    expect(call.name).toBe("hostile_record");
    // Whatever core made of the arguments, the page never receives a hundred levels of them.
    expect(JSON.stringify(call.input)).not.toContain('{"a":'.repeat(100));
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.transcript[0]).toEqual({ kind: "user", text: "send something nested" });
    const next = await runChatTurn(test, conversation.id, { text: "hello" });
    expect(next.filter((event) => event.type === "error")).toEqual([]);
    expect(next.at(-1)).toEqual({ type: "finish", reason: "stop", text: "fine" });
  });

  it("leaves no tools-changed listener behind on a server after many turns", async () => {
    const { mcp } = test.playground.registry.connected().find((server) => server.name === "hostile")!;
    // The MCP's own listener set: one per Agent still subscribed (private, read for this check).
    const listeners = () =>
      (mcp as unknown as { tools: { changeListeners: Set<unknown> } }).tools.changeListeners.size;
    const before = listeners();
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    for (let turn = 0; turn < 25; turn++) {
      const events = await runChatTurn(test, conversation.id, { text: `turn ${turn}` });
      expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", text: "fine" });
    }
    expect(listeners()).toBe(before);
  });

  it("releases the conversation when the page's event writer throws at the start of a turn", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const failing = test.playground.chat.runTurn(conversation.id, { text: "hello" }, () => {
      throw new RangeError("the writer broke at once");
    });
    await expect(failing).rejects.toThrow("the writer broke at once");
    const next = await runChatTurn(test, conversation.id, { text: "hello again" });
    expect(next.at(-1)).toEqual({ type: "finish", reason: "stop", text: "fine" });
  });

  it("releases the conversation when the page's event writer itself throws", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const failing = test.playground.chat.runTurn(conversation.id, { text: "hello" }, (event) => {
      if (event.type === "text-delta" || event.type === "error") throw new RangeError("the writer broke");
    });
    await expect(failing).rejects.toThrow("the writer broke");
    const next = await runChatTurn(test, conversation.id, { text: "hello again" });
    expect(next.at(-1)).toEqual({ type: "finish", reason: "stop", text: "fine" });
  });
});
