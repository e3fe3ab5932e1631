import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedChunks, toolResultsIn } from "../../test/scripted-chat-completions.js";
import {
  answerApproval,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../../test/test-playground.js";
import { Store } from "./store.js";

// Issue 27, problem 3: an approved destructive call ran; the model's next request failed (an HTTP
// 400); the stored state still listed the call as pending, the card stayed, and answering again
// ran the tool a second time. A crash of the playground during the resumed run left the same
// stale state. The playground now records the run's state as each call finishes, and signs every
// state it stores with a key kept in its data folder, so a state edited in the store is refused.

const countingServer = fileURLToPath(new URL("../__fixtures__/counting-server.mjs", import.meta.url));
const cli = fileURLToPath(new URL("../../dist/server/cli.js", import.meta.url));

const deleteCall = { id: "call_delete", name: "notes_delete_note", arguments: { name: "groceries" } };
const badRequest = {
  status: 400,
  json: {
    error: {
      message: "This model's maximum context length was exceeded.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  },
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A data folder with the counting server (no defaults) and the file its calls are counted in:
 * what a person has after adding the server on the page.
 */
function folderWithCountingServer(): { directory: string; log: string; calls: () => unknown[] } {
  const directory = mkdtempSync(join(tmpdir(), "junction-playground-run-recording-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const log = join(directory, "deleted.log");
  const store = new Store(join(directory, "playground.db"));
  store.addServer({
    name: "notes",
    config: { command: process.execPath, args: [countingServer, "--log", log] },
  });
  store.markSeeded();
  store.close();
  return {
    directory,
    log,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line))
        : [],
  };
}

async function modelEndpoint(): Promise<WireFake> {
  const model = await startWireFake();
  cleanups.push(() => model.close());
  return model;
}

async function playgroundOn(directory: string, model: WireFake): Promise<TestPlayground> {
  const test = await startTestPlayground({
    directory,
    environment: { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
    seedDefaults: false,
  });
  // Closed once, by the test (a restart) or after it.
  const close = test.close;
  let closing: Promise<void> | undefined;
  test.close = (options) => {
    closing ??= close(options);
    return closing;
  };
  cleanups.push(() => test.close({ keepDirectory: true }));
  return test;
}

const toolCallReply = (request: { body: any }) => ({
  chunks: scriptedChunks({ toolCalls: [deleteCall] }, request.body.model),
});
const textReply = (text: string) => (request: { body: any }) => ({
  chunks: scriptedChunks({ text }, request.body.model),
});

/** The tool messages of a Chat Completions request: what the model is told each call returned. */
function toolMessagesOf(request: { body: any }): { tool_call_id: string; content: unknown }[] {
  return request.body.messages
    .filter((message: { role: string }) => message.role === "tool")
    .map((message: { tool_call_id: string; content: unknown }) => ({
      tool_call_id: message.tool_call_id,
      content: message.content,
    }));
}

/** Starts a turn that stops for the delete call's approval; returns the conversation's id and the call's id. */
async function stoppedForApproval(test: TestPlayground): Promise<{ conversationId: string; callId: string }> {
  const { body: conversation } = await test.api("POST", "/api/conversations", {
    provider: "openai-compatible",
  });
  const events = await runChatTurn(test, conversation.id, { text: "delete my groceries note" });
  const request = events.find((event) => event.type === "approval-request");
  expect(request).toMatchObject({ name: "notes_delete_note", input: { name: "groceries" } });
  const state = test.playground.store.getConversation(conversation.id)!.runState!;
  expect(state.pending.map((call) => [call.id, call.input])).toEqual([[request.id, { name: "groceries" }]]);
  return { conversationId: conversation.id, callId: request.id };
}

describe("an approved destructive call, then a failed model request", () => {
  it("runs the call once: the stored state no longer lists it, answering again is refused, the card is gone", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, badRequest, textReply("Deleted, and noted."));
    const test = await playgroundOn(directory, model);
    const { conversationId, callId } = await stoppedForApproval(test);

    const approved = await answerApproval(test, { conversationId, callId }, { approve: true });
    // The run's events, as the page read them: the call ran, then the model's request failed.
    expect(approved.filter((event) => event.type !== "context").map((event) => event.type)).toEqual([
      "approval-answered",
      "run-start",
      "tool-result",
      "error",
    ]);
    expect(calls()).toEqual([{ name: "groceries" }]);
    expect(model.requests).toHaveLength(2);
    expect(toolMessagesOf(model.requests[1]!)).toEqual([
      { tool_call_id: "call_delete", content: "deleted groceries" },
    ]);

    const stored = test.playground.store.getConversation(conversationId)!;
    // The state recorded as the call finished: nothing waits, the call's result is kept.
    expect(stored.runState?.pending ?? []).toEqual([]);
    const card = stored.transcript.find((item) => item.kind === "tool" && item.id === callId);
    expect(card).toMatchObject({
      status: "done",
      result: { content: [{ type: "text", text: "deleted groceries" }] },
    });
    expect(
      stored.transcript.filter((item) => item.kind === "tool" && item.status === "awaiting-approval"),
    ).toEqual([]);
    expect(stored.transcript.at(-1)).toMatchObject({ kind: "notice", level: "error" });
    expect((stored.transcript.at(-1) as { text: string }).text).toContain("400");

    // Answering again (a second click, a retried request) is refused, and nothing runs.
    await expect(answerApproval(test, { conversationId, callId }, { approve: true })).rejects.toThrow(
      `answered 400: {"error":"No approval is pending for call ${callId} of conversation ${conversationId}."}`,
    );
    expect(calls()).toHaveLength(1);

    // The conversation goes on with the call's one result in the history.
    const next = await runChatTurn(test, conversationId, { text: "did it work?" });
    expect(next.at(-1)).toEqual({ type: "finish", reason: "stop", text: "Deleted, and noted." });
    expect(toolMessagesOf(model.requests[2]!)).toEqual([
      { tool_call_id: "call_delete", content: "deleted groceries" },
    ]);
    expect(calls()).toHaveLength(1);
    expect(test.playground.store.getConversation(conversationId)!.runState).toBeNull();
  });
});

describe("an approved call whose run is stopped before the call ran", () => {
  it("brings the card back with a state that can be answered (the one it resumed was spent), and the call runs once", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, textReply("Deleted."));
    const test = await playgroundOn(directory, model);
    const { conversationId, callId } = await stoppedForApproval(test);
    const spent = test.playground.store.getConversation(conversationId)!.runState!;

    // Stopped as the resumed run starts (the Stop button at once): the state was claimed, nothing ran.
    const stop = new AbortController();
    const events: { type: string }[] = [];
    await test.playground.chat.answerApproval(
      conversationId,
      { callId, approve: true, signal: stop.signal },
      (event) => {
        events.push(event);
        if (event.type === "run-start") stop.abort();
      },
    );
    expect(events.map((event) => event.type)).toEqual([
      "approval-answered",
      "run-start",
      "error",
      "approval-request",
    ]);
    expect(calls()).toEqual([]);
    const stored = test.playground.store.getConversation(conversationId)!.runState!;
    expect(stored.pending.map((call) => [call.id, call.input])).toEqual([[callId, { name: "groceries" }]]);
    expect(stored.resumes).toBe(1);
    expect(stored.runId).toBe(spent.runId);

    // The card is answered again: the call runs once and the run finishes.
    const approved = await answerApproval(test, { conversationId, callId }, { approve: true });
    expect(approved.at(-1)).toEqual({ type: "finish", reason: "stop", text: "Deleted." });
    expect(calls()).toEqual([{ name: "groceries" }]);
    expect(test.playground.store.getConversation(conversationId)!.runState).toBeNull();
  });
});

/** Posts one answer to the call's approval as the page does; resolves with the status and the whole body. */
async function postAnswer(
  test: TestPlayground,
  { conversationId, callId }: { conversationId: string; callId: string },
  approve: boolean,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${test.base}/api/conversations/${conversationId}/approvals/${callId}`, {
    method: "POST",
    headers: { authorization: `Bearer ${test.token}`, "content-type": "application/json" },
    body: JSON.stringify({ approve }),
  });
  return { status: response.status, text: await response.text() };
}

describe("eight answers to one approval at once (a double click, two tabs, a retried request)", () => {
  const busy = '{"error":"This conversation is already running a turn; stop it first."}';
  const refusals = (pending: { conversationId: string; callId: string }) => [
    busy,
    `{"error":"No approval is pending for call ${pending.callId} of conversation ${pending.conversationId}."}`,
  ];

  it("counts one: the call runs once, and every other answer is refused with a 400 saying why", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, textReply("Deleted."));
    const test = await playgroundOn(directory, model);
    const pending = await stoppedForApproval(test);

    const answers = await Promise.all(Array.from({ length: 8 }, () => postAnswer(test, pending, true)));
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.text).toContain('"type":"approval-answered","id":"call_delete","approved":true');
    expect(won[0]!.text).toContain('"type":"finish","reason":"stop","text":"Deleted."');
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => answer.status)).toEqual(Array(7).fill(400));
    for (const answer of refused) expect(refusals(pending)).toContain(answer.text);
    expect(calls()).toEqual([{ name: "groceries" }]);
    expect(model.requests).toHaveLength(2);
    expect(toolResultsIn(model.requests[1]!)).toBe(1);
    expect(test.playground.store.getConversation(pending.conversationId)!.runState).toBeNull();
  });

  it("approvals and denials mixed: the one answer that counts decides, and no other is applied", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, textReply("Done."));
    const test = await playgroundOn(directory, model);
    const pending = await stoppedForApproval(test);

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => postAnswer(test, pending, index % 2 === 0)),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    const answered = /"type":"approval-answered","id":"call_delete","approved":(true|false)/.exec(
      won[0]!.text,
    );
    expect(answered).not.toBeNull();
    const approved = answered![1] === "true";
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => answer.status)).toEqual(Array(7).fill(400));
    for (const answer of refused) expect(refusals(pending)).toContain(answer.text);
    expect(calls()).toEqual(approved ? [{ name: "groceries" }] : []);
    expect(model.requests).toHaveLength(2);
    expect(toolMessagesOf(model.requests[1]!)).toHaveLength(1);
    expect(test.playground.store.getConversation(pending.conversationId)!.runState).toBeNull();
  });
});

/** Starts the built playground (`pnpm playground`) as a process of its own; resolves with its API. */
async function startPlaygroundProcess(
  directory: string,
  model: WireFake,
): Promise<{ child: ChildProcess; base: string; token: string }> {
  const child = spawn(process.execPath, [cli, "--dir", directory], {
    env: { PATH: process.env.PATH, HOME: directory, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const match = /Junction playground: (\S+)\n/.exec(stdout);
      if (match) resolve(new URL(match[1]!));
    });
    child.on("exit", (code) => reject(new Error(`the playground exited with ${code}: ${stderr}`)));
  });
  return { child, base: url.origin, token: url.searchParams.get("token")! };
}

describe("a crash of the playground while the approved call's run goes on", () => {
  it("leaves a state that does not run the call again after a restart", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    let modelAsked!: () => void;
    const secondRequest = new Promise<void>((resolve) => {
      modelAsked = resolve;
    });
    model.enqueue(toolCallReply, () => {
      modelAsked();
      // The model's answer never comes: the playground dies while it waits for it.
      return new Promise<never>(() => undefined);
    });
    const running = await startPlaygroundProcess(directory, model);
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${running.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${running.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    };
    const conversation = JSON.parse(
      (await api("POST", "/api/conversations", { provider: "openai-compatible" })).text,
    );
    const turn = await api("POST", `/api/conversations/${conversation.id}/messages`, {
      text: "delete my groceries note",
    });
    const callId = /"type":"approval-request","id":"([^"]+)"/.exec(turn.text)![1]!;

    // The person approves; the call runs; the model is asked again, and the playground is killed.
    const answering = fetch(`${running.base}/api/conversations/${conversation.id}/approvals/${callId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${running.token}`, "content-type": "application/json" },
      body: JSON.stringify({ approve: true }),
    }).then((response) => response.text().catch(() => "(cut)"));
    await secondRequest;
    // Listened for before the kill: the child may be gone before the answer's stream is read to its end.
    const exited = new Promise((resolve) => running.child.once("exit", resolve));
    running.child.kill("SIGKILL");
    await answering.catch(() => "(cut)");
    await exited;
    expect(calls()).toEqual([{ name: "groceries" }]);

    // The playground comes back on the same data folder.
    model.enqueue(textReply("It is gone."));
    const test = await playgroundOn(directory, model);
    const stored = test.playground.store.getConversation(conversation.id)!;
    expect(stored.runState?.pending ?? []).toEqual([]);
    expect(
      stored.transcript.filter((item) => item.kind === "tool" && item.status === "awaiting-approval"),
    ).toEqual([]);
    await expect(
      answerApproval(test, { conversationId: conversation.id, callId }, { approve: true }),
    ).rejects.toThrow(
      `answered 400: {"error":"No approval is pending for call ${callId} of conversation ${conversation.id}."}`,
    );
    expect(calls()).toHaveLength(1);

    const next = await runChatTurn(test, conversation.id, { text: "did it work?" });
    expect(next.at(-1)).toEqual({ type: "finish", reason: "stop", text: "It is gone." });
    expect(toolMessagesOf(model.requests.at(-1)!)).toEqual([
      { tool_call_id: "call_delete", content: "deleted groceries" },
    ]);
    expect(toolResultsIn(model.requests.at(-1)!)).toBe(1);
    expect(calls()).toHaveLength(1);
  });
});

/** Rewrites the stored run state of a conversation in the SQLite file, as someone with the file could. */
function editStoredState(directory: string, conversationId: string, edit: (state: any) => void): void {
  const database = new DatabaseSync(join(directory, "playground.db"));
  try {
    const row = database.prepare("SELECT run_state FROM conversations WHERE id = ?").get(conversationId) as {
      run_state: string;
    };
    const state = JSON.parse(row.run_state);
    edit(state);
    database
      .prepare("UPDATE conversations SET run_state = ? WHERE id = ?")
      .run(JSON.stringify(state), conversationId);
  } finally {
    database.close();
  }
}

/** Runs the built CLI on a data folder; resolves with how it ended and what it wrote. */
function runCLI(
  args: string[],
  directory: string,
  model: WireFake,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args, "--dir", directory], {
    env: { PATH: process.env.PATH, HOME: directory, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const keyFileOf = (directory: string) =>
  JSON.parse(readFileSync(join(directory, "run-state-key.json"), "utf8")) as {
    version: number;
    keys: { id: string; secret: string; createdAt: string }[];
  };

describe("the stored run states are signed with a key kept in the data folder", () => {
  it("makes a 32-byte key on first start (file mode 0600) and signs every stored state with it", async () => {
    const { directory } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply);
    const test = await playgroundOn(directory, model);
    const file = join(directory, "run-state-key.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { version, keys } = keyFileOf(directory);
    expect(version).toBe(1);
    expect(keys).toHaveLength(1);
    expect(Buffer.from(keys[0]!.secret, "base64url")).toHaveLength(32);

    const { conversationId } = await stoppedForApproval(test);
    const state = test.playground.store.getConversation(conversationId)!.runState!;
    expect(state.signature).toMatchObject({ keyId: keys[0]!.id, alg: "HS256" });
    // A restart keeps the key: the file is read, never replaced.
    await test.close({ keepDirectory: true });
    await playgroundOn(directory, model);
    expect(keyFileOf(directory).keys).toEqual(keys);
  });

  it("refuses a pending call whose arguments were changed in the SQLite file, with a clear message, and runs nothing", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, textReply("Went on without it."));
    const test = await playgroundOn(directory, model);
    const { conversationId, callId } = await stoppedForApproval(test);

    // The arguments rewritten in all three places the state keeps them: what was shown, what the
    // policy saw, and what the model asked for.
    editStoredState(directory, conversationId, (state) => {
      const everything = { name: "everything" };
      state.pending[0].input = everything;
      state.journal[`gate:${state.step}:${callId}`].input = everything;
      state.journal[`gate:${state.step}:${callId}`].callInput = everything;
      const answer = state.journal[`model:${state.step}`].content.find((part: any) => part.id === callId);
      answer.input = everything;
    });

    const refused = await test.api("POST", `/api/conversations/${conversationId}/approvals/${callId}`, {
      approve: true,
    });
    expect(refused.status).toBe(409);
    const keyId = keyFileOf(directory).keys[0]!.id;
    expect(refused.body).toEqual({
      error:
        "The run stored for this conversation was refused: This run state cannot be resumed: " +
        `\`signature.value\` does not match the state (key "${keyId}"): the state was changed after it was signed; ` +
        "do not resume it, start the run again. Nothing was run. Send a new message to go on without that run.",
    });
    expect(calls()).toEqual([]);
    expect(model.requests).toHaveLength(1);

    // The CLI refuses it the same way.
    await test.close({ keepDirectory: true });
    const cliAnswer = await runCLI(
      ["chat", "--conversation", conversationId, "--approve", callId],
      directory,
      model,
    );
    expect(cliAnswer.code).toBe(1);
    expect(cliAnswer.stderr).toContain(
      `✗ The run stored for this conversation was refused: This run state cannot be resumed: \`signature.value\` does not match the state (key "${keyId}")`,
    );
    expect(cliAnswer.stderr).not.toContain("No call");
    expect(calls()).toEqual([]);

    // A new message goes on without that run: nothing of it reaches the model, and nothing runs.
    const again = await playgroundOn(directory, model);
    const events = await runChatTurn(again, conversationId, { text: "never mind" });
    expect(events.find((event) => event.type === "warning")).toMatchObject({
      code: "run-state-refused",
      message: expect.stringContaining("does not match the state"),
    });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", text: "Went on without it." });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.body.messages.map((message: any) => [message.role, message.content])).toEqual([
      ["system", expect.any(String)],
      ["user", "delete my groceries note"],
      ["user", "never mind"],
    ]);
    expect(calls()).toEqual([]);
    const stored = again.playground.store.getConversation(conversationId)!;
    expect(stored.runState).toBeNull();
    expect(stored.transcript.find((item) => item.kind === "tool")).toMatchObject({ status: "denied" });
  });

  it("refuses an unsigned state (an older playground's) and one signed with a key it does not have", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, toolCallReply);
    const test = await playgroundOn(directory, model);

    const unsigned = await stoppedForApproval(test);
    editStoredState(directory, unsigned.conversationId, (state) => {
      delete state.signature;
    });
    const first = await test.api(
      "POST",
      `/api/conversations/${unsigned.conversationId}/approvals/${unsigned.callId}`,
      { approve: true },
    );
    expect(first.status).toBe(409);
    expect(first.body.error).toContain(
      "it is not signed (`signature` is missing) and a `runStateKey` is set",
    );

    const foreign = await stoppedForApproval(test);
    editStoredState(directory, foreign.conversationId, (state) => {
      state.signature.keyId = "someone-else";
    });
    const second = await test.api(
      "POST",
      `/api/conversations/${foreign.conversationId}/approvals/${foreign.callId}`,
      { approve: true },
    );
    expect(second.status).toBe(409);
    expect(second.body.error).toContain(
      '`signature.keyId` is "someone-else", which is none of the configured keys',
    );
    expect(calls()).toEqual([]);
  });

  it("rotates: a new key signs, the old one still verifies the states it signed", async () => {
    const { directory, calls } = folderWithCountingServer();
    const model = await modelEndpoint();
    model.enqueue(toolCallReply, textReply("Deleted."));
    const test = await playgroundOn(directory, model);
    const { conversationId, callId } = await stoppedForApproval(test);
    const [oldKey] = keyFileOf(directory).keys;
    await test.close({ keepDirectory: true });

    const rotated = await runCLI(["rotate-key"], directory, model);
    expect(rotated.code).toBe(0);
    const { keys } = keyFileOf(directory);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toEqual(oldKey);
    expect(keys[0]!.id).not.toBe(oldKey!.id);
    expect(rotated.stdout).toContain(
      `New run-state key ${keys[0]!.id} in ${join(directory, "run-state-key.json")}; 1 older key kept`,
    );
    expect(statSync(join(directory, "run-state-key.json")).mode & 0o777).toBe(0o600);

    // The state the old key signed still resumes, and what the run stores now is signed with the new key.
    const restarted = await playgroundOn(directory, model);
    const events = await answerApproval(restarted, { conversationId, callId }, { approve: true });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", text: "Deleted." });
    expect(calls()).toEqual([{ name: "groceries" }]);
    model.enqueue(toolCallReply);
    const next = await stoppedForApproval(restarted);
    expect(restarted.playground.store.getConversation(next.conversationId)!.runState!.signature?.keyId).toBe(
      keys[0]!.id,
    );
  });
});
