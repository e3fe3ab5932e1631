import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TraceSpan } from "../shared/trace-waterfall.js";
import { resumedCodeMode } from "./code-mode-setting.js";
import { Store } from "./store.js";

let directory: string;
let store: Store;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "junction-playground-store-"));
  store = new Store(join(directory, "playground.db"));
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

function span(traceId: string, name: string, note = ""): TraceSpan {
  return {
    traceId,
    spanId: `${name}-span`,
    name,
    kind: "internal",
    startMs: 1,
    endMs: 2,
    attributes: note ? { note } : {},
  };
}

// Issue 26, item 9: a run's spans are kept on disk, bounded, so its trace outlives a restart.
describe("the store's run traces", () => {
  it("keeps a trace across a reopen, and saving it again replaces its spans", () => {
    store.saveTrace("t1", [span("t1", "chat")]);
    store.saveTrace("t1", [span("t1", "chat"), span("t1", "invoke_agent playground")]);
    store.close();
    store = new Store(join(directory, "playground.db"));
    expect(store.getTrace("t1")).toEqual([span("t1", "chat"), span("t1", "invoke_agent playground")]);
    expect(store.getTrace("unknown")).toBeUndefined();
  });

  it("keeps the last 100 traces; a trace saved again keeps its age", () => {
    for (let index = 0; index < 100; index++) store.saveTrace(`t${index}`, [span(`t${index}`, "run")]);
    store.saveTrace("t0", [span("t0", "run"), span("t0", "late")]);
    store.saveTrace("t100", [span("t100", "run")]);
    expect(store.getTrace("t0")).toBeUndefined();
    expect(store.getTrace("t1")).toEqual([span("t1", "run")]);
    expect(store.getTrace("t100")).toEqual([span("t100", "run")]);
  });

  it("keeps at most 16 M characters of spans, older traces first, and always the newest", () => {
    const big = "x".repeat(6 * 1024 * 1024);
    store.saveTrace("a", [span("a", "run", big)]);
    store.saveTrace("b", [span("b", "run", big)]);
    expect(store.getTrace("a")).toHaveLength(1);
    store.saveTrace("c", [span("c", "run", big)]);
    expect([store.getTrace("a"), store.getTrace("b")?.length, store.getTrace("c")?.length]).toEqual([
      undefined,
      1,
      1,
    ]);
    store.saveTrace("huge", [span("huge", "run", "x".repeat(20 * 1024 * 1024))]);
    expect([store.getTrace("b"), store.getTrace("c"), store.getTrace("huge")?.length]).toEqual([
      undefined,
      undefined,
      1,
    ]);
  });

  it("removes a conversation's traces with it", () => {
    const conversation = store.createConversation({ title: "t", provider: "offline", model: "m" });
    conversation.transcript = [
      { kind: "user", text: "hi" },
      { kind: "trace", traceId: "mine" },
    ];
    store.saveConversation(conversation);
    store.saveTrace("mine", [span("mine", "run")]);
    store.saveTrace("other", [span("other", "run")]);
    store.removeConversation(conversation.id);
    expect([store.getTrace("mine"), store.getTrace("other")]).toEqual([undefined, [span("other", "run")]]);
  });
});

describe("tool embeddings", () => {
  it("keeps each model's vectors by digest, exactly, across a reopened store", () => {
    const openAI = store.embeddingCache("openai:text-embedding-3-small");
    openAI.set("digest-a", [0.1, -2.5, 1e-7]);
    store.embeddingCache("gemini:gemini-embedding-001").set("digest-a", [9]);
    openAI.set("digest-a", [0.1, -2.5, 3]);
    expect(openAI.get("digest-a")).toEqual([0.1, -2.5, 3]);
    expect(openAI.get("digest-b")).toBeUndefined();
    store.close();
    store = new Store(join(directory, "playground.db"));
    expect(store.embeddingCache("openai:text-embedding-3-small").get("digest-a")).toEqual([0.1, -2.5, 3]);
    expect(store.embeddingCache("gemini:gemini-embedding-001").get("digest-a")).toEqual([9]);
    expect(store.countEmbeddings("openai:text-embedding-3-small")).toBe(1);
  });
});

// A playground from before programs could run on the vendor kept code mode as a boolean column.
describe("a database written with the boolean code mode", () => {
  it("opens with its conversations, on → sandbox and off → off, and keeps the boolean written", () => {
    store.close();
    const file = join(directory, "old.db");
    const old = new DatabaseSync(file);
    old.exec(`
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, messages TEXT NOT NULL, transcript TEXT NOT NULL,
        run_state TEXT, output_schema TEXT, code_mode INTEGER NOT NULL DEFAULT 0
      );
    `);
    const insert = old.prepare(
      "INSERT INTO conversations (id, title, provider, model, created_at, updated_at, messages, transcript, code_mode) VALUES (?, ?, 'offline', 'offline-scripted', ?, ?, ?, '[]', ?)",
    );
    insert.run(
      "with-programs",
      "programs",
      "2026-11-01T00:00:00.000Z",
      "2026-11-02T00:00:00.000Z",
      '[{"role":"user","content":"hi"}]',
      1,
    );
    insert.run("plain", "plain", "2026-11-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z", "[]", 0);
    old.close();

    store = new Store(file);
    expect(store.listConversations().map(({ id, title }) => [id, title])).toEqual([
      ["with-programs", "programs"],
      ["plain", "plain"],
    ]);
    const migrated = store.getConversation("with-programs")!;
    expect(migrated).toMatchObject({
      codeMode: "sandbox",
      runStateCodeMode: null,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(store.getConversation("plain")!.codeMode).toBe("off");

    migrated.codeMode = "provider";
    store.saveConversation(migrated);
    store.close();
    // Opened again (the migration runs once): the mode stays, and the boolean says "on" for an older playground.
    store = new Store(file);
    expect(store.getConversation("with-programs")!.codeMode).toBe("provider");
    const check = new DatabaseSync(file);
    expect(check.prepare("SELECT id, code_mode FROM conversations ORDER BY id").all()).toEqual([
      { id: "plain", code_mode: 0 },
      { id: "with-programs", code_mode: 1 },
    ]);
    check.close();
  });

  it("reads a mode it does not know as the boolean says", () => {
    const conversation = store.createConversation({
      title: "t",
      provider: "offline",
      model: "m",
      codeMode: "sandbox",
    });
    store.close();
    const file = join(directory, "playground.db");
    const changed = new DatabaseSync(file);
    changed
      .prepare("UPDATE conversations SET code_mode_setting = 'everywhere', run_state_code_mode = 'nowhere'")
      .run();
    changed.close();
    store = new Store(file);
    expect(store.getConversation(conversation.id)).toMatchObject({
      codeMode: "sandbox",
      runStateCodeMode: null,
    });
  });
});

describe("the code mode a stopped run resumes in", () => {
  const programCall = {
    id: "p.1",
    name: "post",
    input: {},
    step: 1,
    parent: { id: "p", name: "run_program", sequence: 1, program: "x" },
  };
  const directCall = { id: "d", name: "post", input: {}, step: 1 };
  it("is the mode the run ran in, kept beside its state, whatever the conversation's mode is now", () => {
    expect(
      resumedCodeMode({
        codeMode: "off",
        runState: { pending: [programCall] },
        runStateCodeMode: "provider",
      }),
    ).toBe("provider");
    expect(
      resumedCodeMode({
        codeMode: "provider",
        runState: { pending: [programCall] },
        runStateCodeMode: "sandbox",
      }),
    ).toBe("sandbox");
  });
  it("for a state stored before the mode was kept: the sandbox when a program's call waits, else the conversation's mode", () => {
    expect(
      resumedCodeMode({ codeMode: "off", runState: { pending: [programCall] }, runStateCodeMode: null }),
    ).toBe("sandbox");
    expect(
      resumedCodeMode({ codeMode: "provider", runState: { pending: [directCall] }, runStateCodeMode: null }),
    ).toBe("provider");
  });
});
