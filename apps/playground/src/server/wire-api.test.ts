import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import { startScriptedChatCompletions, toolResultsIn } from "../../test/scripted-chat-completions.js";
import { runChatTurn, startTestPlayground, type TestPlayground } from "../../test/test-playground.js";
import type { ChatEvent, ServerStatus, TrafficLog } from "../shared/api-types.js";
import { resolvePackageBin } from "./default-servers.js";

// The API behind the traffic view, stderr, health, template completions and chat progress
// (issue 13), against real servers over stdio.
const wireServer = fileURLToPath(new URL("../__fixtures__/wire-server.mjs", import.meta.url));
const everything = resolvePackageBin("@modelcontextprotocol/server-everything");

let test: TestPlayground;
let endpoint: FakeVendorEndpoint;
let everythingId: string;
let wireId: string;

beforeAll(async () => {
  test = await startTestPlayground({ seedDefaults: false });
  const added = await test.api<ServerStatus>("POST", "/api/servers", {
    name: "everything",
    config: { command: process.execPath, args: [everything, "stdio"] },
  });
  everythingId = added.body.id;
  const wire = await test.api<ServerStatus>("POST", "/api/servers", {
    name: "wire",
    config: { command: process.execPath, args: [wireServer] },
  });
  wireId = wire.body.id;
});

afterAll(async () => {
  await test?.close();
  await endpoint?.close();
});

describe("the wire API", () => {
  it("answers only what is new after a seq, and names an unknown server", async () => {
    const all = (await test.api<TrafficLog>("GET", `/api/servers/${everythingId}/traffic`)).body;
    // The client's server/discover probe (MCP 2026-07-28) comes first; this 2025 server refuses it.
    expect(all.entries[0]).toMatchObject({ seq: 1, direction: "out", method: "server/discover" });
    expect(all.entries.find((entry) => entry.method === "initialize")).toMatchObject({ direction: "out" });
    const last = all.entries.at(-1)!.seq;
    await test.api("POST", `/api/servers/${everythingId}/tools/call`, {
      name: "echo",
      arguments: { message: "hi" },
    });
    const fresh = (await test.api<TrafficLog>("GET", `/api/servers/${everythingId}/traffic?since=${last}`))
      .body;
    expect(fresh.entries.every((entry) => entry.seq > last)).toBe(true);
    const call = fresh.entries.filter((entry) => entry.method === "tools/call");
    expect(call.map(({ direction, kind }) => `${direction} ${kind}`)).toEqual(["out request", "in response"]);
    expect(JSON.parse(call[1]!.text).result.content).toEqual([{ type: "text", text: "Echo: hi" }]);

    const unknown = await test.api("GET", "/api/servers/nope/traffic");
    expect(unknown).toEqual({ status: 400, body: { error: "No server with id nope." } });
  });

  it("completes a resource template variable, and refuses a malformed reference", async () => {
    const completion = await test.api("POST", `/api/servers/${everythingId}/complete`, {
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "12" },
    });
    expect(completion).toEqual({ status: 200, body: { values: ["12"] } });
    const bad = await test.api("POST", `/api/servers/${everythingId}/complete`, {
      ref: { type: "ref/tool", name: "x" },
      argument: { name: "a", value: "" },
    });
    expect(bad).toEqual({
      status: 400,
      body: { error: 'ref must be { type: "ref/resource", uri } or { type: "ref/prompt", name }.' },
    });
    const noName = await test.api("POST", `/api/servers/${everythingId}/complete`, {
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { value: "1" },
    });
    expect(noName).toEqual({ status: 400, body: { error: "argument.name must be a non-empty string." } });
    // A server without the completions capability is not asked.
    const none = await test.api("POST", `/api/servers/${wireId}/complete`, {
      ref: { type: "ref/prompt", name: "p" },
      argument: { name: "a", value: "" },
    });
    expect(none).toEqual({ status: 200, body: { values: [], unsupported: true } });
  });

  it("keeps a server's health and shows it in its status", async () => {
    const ok = await test.api("POST", `/api/servers/${everythingId}/ping`, {});
    expect(ok.body).toMatchObject({ state: "ok" });
    const unsupported = await test.api("POST", `/api/servers/${wireId}/ping`, {});
    expect(unsupported.body).toMatchObject({
      state: "unsupported",
      error: "This server does not answer ping (method not found).",
    });
    const servers = (await test.api<ServerStatus[]>("GET", "/api/servers")).body;
    expect(servers.map((server) => [server.name, server.status, server.health?.state])).toEqual([
      ["everything", "connected", "ok"],
      ["wire", "connected", "unsupported"],
    ]);
  });

  it("serves a stdio server's stderr, written at start and later", async () => {
    await test.api("POST", `/api/servers/${wireId}/tools/call`, {
      name: "say-on-stderr",
      arguments: { line: "later" },
    });
    const stderr = await test.api("GET", `/api/servers/${wireId}/stderr`);
    expect(stderr.body).toEqual({ text: "wire fixture ready on stdio\nlater\n", dropped: 0 });
  });

  it("streams a running tool's progress to the chat, and stores the call without it once done", async () => {
    endpoint = await startScriptedChatCompletions((request) =>
      toolResultsIn(request) === 0
        ? {
            toolCalls: [
              {
                id: "call_long",
                name: "everything_trigger-long-running-operation",
                // Reports 300 ms apart: each reaches the page.
                arguments: { duration: 0.9, steps: 3 },
              },
            ],
          }
        : { text: "Done." },
    );
    await test.api("POST", "/api/settings", {
      openaiCompatibleBaseURL: `${endpoint.url}/v1`,
      openaiCompatibleModel: "fake-model",
    });
    const created = await test.api("POST", "/api/conversations", { provider: "openai-compatible" });
    const events: ChatEvent[] = await runChatTurn(test, created.body.id, { text: "run it" });
    expect(events.filter((event) => event.type === "tool-progress")).toEqual([
      { type: "tool-progress", id: "call_long", progress: 1, total: 3 },
      { type: "tool-progress", id: "call_long", progress: 2, total: 3 },
      { type: "tool-progress", id: "call_long", progress: 3, total: 3 },
    ]);
    const order = events.map((event) => event.type).filter((type) => type.startsWith("tool-"));
    expect(order).toEqual(["tool-call", "tool-progress", "tool-progress", "tool-progress", "tool-result"]);
    const stored = await test.api("GET", `/api/conversations/${created.body.id}`);
    const tool = stored.body.transcript.find((item: { kind: string }) => item.kind === "tool");
    expect(tool).toMatchObject({ id: "call_long", status: "done" });
    expect(tool).not.toHaveProperty("progress");
  });

  it("gives two identical calls running at once each its own progress (no longer matched by name and arguments)", async () => {
    await endpoint.close();
    const call = {
      name: "everything_trigger-long-running-operation",
      // Reports 300 ms apart: each reaches the page.
      arguments: { duration: 0.9, steps: 3 },
    };
    endpoint = await startScriptedChatCompletions((request) =>
      toolResultsIn(request) === 0
        ? {
            toolCalls: [
              { id: "call_one", ...call },
              { id: "call_two", ...call },
            ],
          }
        : { text: "Done." },
    );
    await test.api("POST", "/api/settings", { openaiCompatibleBaseURL: `${endpoint.url}/v1` });
    const created = await test.api("POST", "/api/conversations", { provider: "openai-compatible" });
    const events: ChatEvent[] = await runChatTurn(test, created.body.id, { text: "run two" });
    for (const id of ["call_one", "call_two"]) {
      const mine = events.filter((event) => "id" in event && event.id === id);
      expect(mine.filter((event) => event.type === "tool-progress")).toEqual([
        { type: "tool-progress", id, progress: 1, total: 3 },
        { type: "tool-progress", id, progress: 2, total: 3 },
        { type: "tool-progress", id, progress: 3, total: 3 },
      ]);
      expect(mine.map((event) => event.type)).toEqual([
        "tool-call",
        "tool-progress",
        "tool-progress",
        "tool-progress",
        "tool-result",
      ]);
    }
  });

  it("passes at most one progress report per call every 100 ms to the page, the latest", async () => {
    await endpoint.close();
    endpoint = await startScriptedChatCompletions((request) =>
      toolResultsIn(request) === 0
        ? { toolCalls: [{ id: "call_flood", name: "wire_flood-progress", arguments: { count: 5000 } }] }
        : { text: "Done." },
    );
    await test.api("POST", "/api/settings", { openaiCompatibleBaseURL: `${endpoint.url}/v1` });
    const created = await test.api("POST", "/api/conversations", { provider: "openai-compatible" });
    const started = performance.now();
    const events: ChatEvent[] = await runChatTurn(test, created.body.id, { text: "flood" });
    const elapsed = performance.now() - started;
    const progress = events.filter((event) => event.type === "tool-progress");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    // One at once, then at most one per 100 ms while the flood lasts.
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    expect(progress.length).toBeLessThan(100);
    const result = events.find((event) => event.type === "tool-result");
    expect(result).toMatchObject({ result: { content: [{ type: "text", text: "sent 5000" }] } });
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ type: "tool-progress", id: "call_flood", total: 5000 });
  });
});
