import { JunctionError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { signalKey } from "./durability.js";
import { Agent, annotationPolicy, parseRunState, type RunState } from "./index.js";
import {
  approvalSignal,
  gateKey,
  journalKey,
  modelKey,
  parseJournalKey,
  toolKey,
  toolsKey,
} from "./run-journal.js";
import { scriptedModel } from "./testing/index.js";

async function stoppedState(): Promise<RunState> {
  const agent = new Agent({
    provider: scriptedModel([{ toolCalls: [{ id: "write", name: "write_file", input: { path: "/a" } }] }]),
    model: "m",
    tools: [
      {
        name: "write_file",
        description: "Writes",
        inputSchema: { type: "object", properties: { path: { type: "string" } } },
        execute: async () => "ok",
      },
    ],
    approval: annotationPolicy(),
  });
  return JSON.parse(JSON.stringify((await agent.send("go").final).state)) as RunState;
}

function refusal(value: unknown): string {
  try {
    parseRunState(value);
  } catch (error) {
    expect(JunctionError.isInstance(error) && error.code).toBe("run-state-invalid");
    return (error as Error).message;
  }
  throw new Error("the state was accepted");
}

describe("the journal's keys", () => {
  it("are read back to what built them, and keys no run writes are not", () => {
    expect(parseJournalKey(modelKey(3))).toEqual({ kind: "model", step: 3 });
    expect(parseJournalKey(toolsKey(3))).toEqual({ kind: "tools", step: 3 });
    expect(parseJournalKey(toolKey(2, "call:1"))).toEqual({ kind: "tool", step: 2, callId: "call:1" });
    expect(parseJournalKey(gateKey(2, "c"))).toEqual({ kind: "gate", step: 2, callId: "c" });
    expect(parseJournalKey(signalKey(approvalSignal(4, "c")))).toEqual({
      kind: "approval",
      step: 4,
      callId: "c",
    });
    for (const key of ["model:1", "tools:7", "tool:2:a:b", "gate:9:x", "signal:approval:1:y"]) {
      expect(journalKey(parseJournalKey(key)!)).toBe(key);
    }
    for (const key of ["model:0", "model:1:x", "tool:1", "signal:other:1:x", "gate:01:x", "extra:1"]) {
      expect(parseJournalKey(key)).toBeUndefined();
    }
  });
});

describe("a run state that fails its schema", () => {
  it("is refused with the field's path", async () => {
    const state = await stoppedState();
    expect(refusal({ ...state, pending: [{ ...state.pending[0], id: 7 }] })).toBe(
      "This run state cannot be resumed: `pending[0].id` must be a string.",
    );
    expect(refusal({ ...state, step: 0 })).toBe(
      "This run state cannot be resumed: `step` must be a positive integer.",
    );
    expect(refusal({ ...state, ledger: { notRun: [1], readPrivate: [] } })).toBe(
      "This run state cannot be resumed: `ledger.notRun[0]` must be a string.",
    );
    expect(refusal({ ...state, signature: { keyId: "k", alg: "none", value: "" } })).toBe(
      'This run state cannot be resumed: `signature.alg` must be "HS256".',
    );
  });

  it("names a malformed journal entry by its key and field", async () => {
    const state = await stoppedState();
    expect(refusal({ ...state, journal: { ...state.journal, "gate:1:write": { kind: "maybe" } } })).toBe(
      'This run state cannot be resumed: `journal["gate:1:write"].kind` matches none of the shapes it may have.',
    );
    expect(refusal({ ...state, journal: { ...state.journal, "tool:1:write": { output: "x" } } })).toBe(
      'This run state cannot be resumed: `journal["tool:1:write"].durationMs` must be a number.',
    );
    expect(refusal({ ...state, journal: { ...state.journal, "model:2": {} } })).toBe(
      'This run state cannot be resumed: `journal["model:2"]` is not an entry of step 1 this Junction writes.',
    );
  });
});
