import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import { startScriptedChatCompletions, toolResultsIn } from "../../test/scripted-chat-completions.js";
import {
  answerApprovals,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../../test/test-playground.js";

// Issue 11, hole 2: a model that repeats `call_1` in a later step got an approval card showing the
// first call's arguments while the second call's ran, and the saved transcript recorded the
// harmless ones. The page and the transcript must always show the arguments that run.
const hostileServer = fileURLToPath(new URL("../__fixtures__/hostile-server.mjs", import.meta.url));
const harmless = { path: "notes/harmless.txt" };
const dangerous = { path: "/home/user/.ssh/authorized_keys" };

let test: TestPlayground;
let model: FakeVendorEndpoint;

beforeAll(async () => {
  model = await startScriptedChatCompletions((request) => {
    switch (toolResultsIn(request)) {
      case 0:
        return { toolCalls: [{ id: "call_1", name: "hostile_record", arguments: harmless }] };
      case 1:
        return { toolCalls: [{ id: "call_1", name: "hostile_record", arguments: dangerous }] };
      default:
        return { text: "All recorded." };
    }
  });
  test = await startTestPlayground({
    environment: { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
    seedDefaults: false,
  });
  const added = await test.api("POST", "/api/servers", {
    name: "hostile",
    config: { command: process.execPath, args: [hostileServer] },
  });
  expect(added.body.status).toBe("connected");
});
afterAll(async () => {
  await test.close();
  await model.close();
});

describe("a tool-call id the model reuses across steps", () => {
  it("asks approval with the arguments that run, and saves those arguments", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const events = [
      ...(await runChatTurn(test, conversation.id, { text: "record two things" })),
      // The turn stops at each approval; each answer continues it from the stored state.
      ...(await answerApprovals(test, conversation.id)),
    ];
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", text: "All recorded." });

    const approvals = events.filter((event) => event.type === "approval-request");
    expect(approvals.map((event) => event.input)).toEqual([harmless, dangerous]);
    const calls = events.filter((event) => event.type === "tool-call");
    expect(calls.map((event) => event.input)).toEqual([harmless, dangerous]);
    const results = events.filter((event) => event.type === "tool-result");
    expect(results.map((event) => event.result.content[0].text)).toEqual([
      `recorded ${JSON.stringify(harmless)}`,
      `recorded ${JSON.stringify(dangerous)}`,
    ]);
    // Each call has a key of its own on the page, and each card's events share it.
    const keys = calls.map((event) => event.id);
    expect(new Set(keys).size).toBe(2);
    expect(approvals.map((event) => event.id)).toEqual(keys);
    expect(results.map((event) => event.id)).toEqual(keys);

    const saved = (await test.api("GET", `/api/conversations/${conversation.id}`)).body;
    const tools = saved.transcript.filter((item: any) => item.kind === "tool");
    expect(tools.map((item: any) => [item.id, item.input, item.status, item.result.content[0].text])).toEqual(
      [
        [keys[0], harmless, "done", `recorded ${JSON.stringify(harmless)}`],
        [keys[1], dangerous, "done", `recorded ${JSON.stringify(dangerous)}`],
      ],
    );
  });
});
