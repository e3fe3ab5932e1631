import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedChunks, toolResultsIn } from "../testing/scripted-chat-completions.js";
import {
  answerApproval,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../testing/test-playground.js";
import { Store } from "./store.js";

// Issue 27, problem 3: an approved destructive call ran; the model's next request failed (an HTTP
// 400); the stored state still listed the call as pending, the card stayed, and answering again
// ran the tool a second time. A crash of the playground during the resumed run left the same
// stale state. The playground now records the run's state as each call finishes.

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

    const approved = await answerApproval(test, conversationId, callId, { approve: true });
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
    await expect(answerApproval(test, conversationId, callId, { approve: true })).rejects.toThrow(
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
    running.child.kill("SIGKILL");
    await answering.catch(() => "(cut)");
    await new Promise((resolve) => running.child.once("exit", resolve));
    expect(calls()).toEqual([{ name: "groceries" }]);

    // The playground comes back on the same data folder.
    model.enqueue(textReply("It is gone."));
    const test = await playgroundOn(directory, model);
    const stored = test.playground.store.getConversation(conversation.id)!;
    expect(stored.runState?.pending ?? []).toEqual([]);
    expect(
      stored.transcript.filter((item) => item.kind === "tool" && item.status === "awaiting-approval"),
    ).toEqual([]);
    await expect(answerApproval(test, conversation.id, callId, { approve: true })).rejects.toThrow(
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
