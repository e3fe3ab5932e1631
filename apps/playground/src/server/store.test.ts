import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TraceSpan } from "../shared/trace-waterfall.js";
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
