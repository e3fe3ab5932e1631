import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import { connectLedger, type LedgerPost } from "../../test/ledger-server.js";
import {
  lastUserText,
  startScriptedChatCompletions,
  toolResultsIn,
} from "../../test/scripted-chat-completions.js";
import {
  answerApproval,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../../test/test-playground.js";
import type { TranscriptItem } from "../shared/api-types.js";

// Issue 35: code mode is a setting of each conversation, off by default. With it on, the model's
// program runs in the QuickJS sandbox; its calls stream with their program as parent, and one
// that needs approval stops the run with the program's source in the stored state and transcript.

const programs: Record<string, { id: string; code: string }> = {
  "post 5 to a": {
    id: "call_post",
    code: [
      'const balance = await tools.ledger.read_balance({ account: "a" });',
      'console.log("balance", balance);',
      'const posted = await tools.ledger.post_entry({ account: "a", amount: 5 });',
      "return { balance: Number(balance), posted };",
    ].join("\n"),
  },
  "export the ledger": {
    id: "call_export",
    code: "const all = await tools.ledger.export_ledger({});\nreturn all.length;",
  },
  "post 7 to b": {
    id: "call_skipped",
    code: 'await tools.ledger.read_owner({ account: "b" });\nreturn await tools.ledger.post_entry({ account: "b", amount: 7 });',
  },
};

let test: TestPlayground;
let model: FakeVendorEndpoint;
let posted: () => LedgerPost[];
beforeAll(async () => {
  model = await startScriptedChatCompletions((request) => {
    const program = programs[lastUserText(request)];
    if (program && toolResultsIn(request) === 0)
      return { toolCalls: [{ id: program.id, name: "run_program", arguments: { code: program.code } }] };
    return { text: `answered ${lastUserText(request)}` };
  });
  test = await startTestPlayground({
    seedDefaults: false,
    environment: { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
  });
  posted = await connectLedger(test);
});
afterAll(async () => {
  await test?.close();
  await model?.close();
});

const offered = (request: { body: { tools?: { function: { name: string } }[] } }) =>
  (request.body.tools ?? []).map((tool) => tool.function.name);
const programItem = (conversationId: string) =>
  test.playground.store
    .getConversation(conversationId)!
    .transcript.find(
      (item): item is Extract<TranscriptItem, { kind: "tool" }> => item.kind === "tool" && !!item.program,
    );

describe("code mode in the playground's chat", () => {
  it("is off by default and set per conversation: only then is run_program offered", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    expect(conversation.codeMode).toBe("off");
    await runChatTurn(test, conversation.id, { text: "hello" });
    expect(offered(model.requests.at(-1)!)).toEqual([
      "ledger_list_accounts",
      "ledger_read_balance",
      "ledger_read_owner",
      "ledger_export_ledger",
      "ledger_post_entry",
    ]);

    expect(
      await test.api("PUT", `/api/conversations/${conversation.id}/code-mode`, { mode: "sandbox" }),
    ).toEqual({
      status: 200,
      body: { codeMode: "sandbox", provider: "openai-compatible", model: "llama3.2" },
    });
    expect((await test.api("GET", `/api/conversations/${conversation.id}`)).body.codeMode).toBe("sandbox");
    await runChatTurn(test, conversation.id, { text: "hello again" });
    expect(offered(model.requests.at(-1)!)).toContain("run_program");

    const created = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
      codeMode: "sandbox",
    });
    expect(created.body.codeMode).toBe("sandbox");
    expect(await test.api("PUT", "/api/conversations/nope/code-mode", { mode: "sandbox" })).toEqual({
      status: 400,
      body: { error: "No conversation with id nope." },
    });
  });

  it("streams the program's calls with their parent, stops at the gated one with the source, and an answer finishes it even with code mode turned off since", async () => {
    const { code } = programs["post 5 to a"]!;
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
      codeMode: "sandbox",
    });
    const events = await runChatTurn(test, conversation.id, { text: "post 5 to a" });
    const tools = events.filter(
      (event) => event.type.startsWith("tool-") || event.type === "approval-request",
    );
    expect(tools.map(({ type, id, parent }) => ({ type, id, ...(parent ? { parent } : {}) }))).toEqual([
      { type: "tool-call", id: "call_post" },
      { type: "tool-call", id: "call_post.1", parent: { id: "call_post", sequence: 1 } },
      { type: "tool-result", id: "call_post.1", parent: { id: "call_post", sequence: 1 } },
      { type: "tool-call", id: "call_post.2", parent: { id: "call_post", sequence: 2 } },
      { type: "approval-request", id: "call_post.2" },
    ]);
    expect(tools[0]).toMatchObject({ name: "run_program", server: null, program: code });
    expect(tools[2]).toMatchObject({ name: "ledger_read_balance", server: "ledger", outcome: "success" });
    expect(tools[4]).toMatchObject({
      name: "ledger_post_entry",
      server: "ledger",
      input: { account: "a", amount: 5 },
      item: { parent: { id: "call_post", name: "run_program", sequence: 2, program: code } },
    });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "approval-required" });
    expect(posted()).toEqual([]);
    expect(programItem(conversation.id)).toMatchObject({
      id: "call_post",
      status: "running",
      program: {
        source: code,
        calls: [
          { id: "call_post.1", sequence: 1, status: "done", outcome: "success" },
          { id: "call_post.2", sequence: 2, status: "awaiting-approval", program: code },
        ],
      },
    });

    // Turned off while the call waits: the stopped program still resumes in the sandbox it ran in.
    await test.api("PUT", `/api/conversations/${conversation.id}/code-mode`, { mode: "off" });
    expect(test.playground.store.getConversation(conversation.id)).toMatchObject({
      codeMode: "off",
      runStateCodeMode: "sandbox",
    });
    const continued = await answerApproval(
      test,
      { conversationId: conversation.id, callId: "call_post.2" },
      { approve: true },
    );
    expect(
      continued.find((event) => event.type === "tool-result" && event.id === "call_post.2"),
    ).toMatchObject({
      outcome: "success",
      parent: { id: "call_post", sequence: 2 },
    });
    const result = continued.find((event) => event.type === "tool-result" && event.id === "call_post");
    expect(result.result.isError).toBe(false);
    expect(result.result.content[0].text).toMatch(
      /^Returned: \{"balance":10,"posted":"posted 5 to a"\}\n\nConsole:\nbalance 10\n+Calls \(2\): 1 ledger_read_balance, 1 ledger_post_entry, all succeeded$/,
    );
    expect(continued.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(posted()).toEqual([{ account: "a", amount: 5 }]);
    expect(programItem(conversation.id)).toMatchObject({
      status: "done",
      outcome: "success",
      program: { calls: [{ status: "done" }, { status: "done", outcome: "success" }] },
    });
    expect(test.playground.store.getConversation(conversation.id)!.runState).toBeNull();
  });

  it("a run stored by an older playground (no mode beside its state) whose program's call waits resumes in the sandbox", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
      codeMode: "sandbox",
    });
    const stopped = await runChatTurn(test, conversation.id, { text: "post 5 to a" });
    expect(stopped.at(-1)).toMatchObject({ type: "finish", reason: "approval-required" });
    const before = posted().length;
    // As an older playground left it: the boolean off, no mode beside the (still signed) state.
    const database = new DatabaseSync(join(test.directory, "playground.db"));
    database
      .prepare(
        "UPDATE conversations SET code_mode = 0, code_mode_setting = 'off', run_state_code_mode = NULL WHERE id = ?",
      )
      .run(conversation.id);
    database.close();
    expect(test.playground.store.getConversation(conversation.id)).toMatchObject({
      codeMode: "off",
      runStateCodeMode: null,
    });
    const continued = await answerApproval(
      test,
      { conversationId: conversation.id, callId: "call_post.2" },
      { approve: true },
    );
    const result = continued.find((event) => event.type === "tool-result" && event.id === "call_post");
    expect(result.result.content[0].text).toMatch(/^Returned: \{"balance":10,"posted":"posted 5 to a"\}/);
    expect(offered(model.requests.at(-1)!)).toContain("run_program");
    expect(posted().length).toBe(before + 1);
  });

  it("a new message instead of an answer denies the program's waiting call and the program: nothing runs", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
      codeMode: "sandbox",
    });
    const stopped = await runChatTurn(test, conversation.id, { text: "post 7 to b" });
    expect(stopped.at(-1)).toMatchObject({ type: "finish", reason: "approval-required" });
    const next = await runChatTurn(test, conversation.id, { text: "never mind" });
    expect(next.filter((event) => event.type === "approval-answered")).toEqual([
      { type: "approval-answered", id: "call_skipped.2", approved: false },
      { type: "approval-answered", id: "call_skipped", approved: false },
    ]);
    expect(next.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(programItem(conversation.id)).toMatchObject({
      status: "denied",
      program: { calls: [{ status: "done" }, { status: "denied" }] },
    });
    expect(posted().filter((entry) => entry.account === "b")).toEqual([]);
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).toContain(
      "the user went on without answering",
    );
  });

  it("shortens the result of a program's call for the page, while the program gets it whole", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
      codeMode: "sandbox",
    });
    const events = await runChatTurn(test, conversation.id, { text: "export the ledger" });
    const nested = events.find((event) => event.type === "tool-result" && event.id === "call_export.1");
    expect(nested.result.content[0].text).toHaveLength(64 * 1024);
    expect(nested.truncated).toContain("a text of 0.3 MB was cut");
    const program = events.find((event) => event.type === "tool-result" && event.id === "call_export");
    expect(program.result.content[0].text).toMatch(/^Returned: 300000\n/);
  });
});
