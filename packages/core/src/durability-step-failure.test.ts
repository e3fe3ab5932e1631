import { JunctionError, OutputError, ProviderError, type Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, InMemoryDurability, type JSONValue, parseRunState } from "./index.js";
import { fromStepFailure, journaledStep, toStepFailure } from "./step-failure.js";
import { scriptedModel } from "./testing/index.js";

// A failed step is journaled as data and rebuilt as its own class: a replay of the journal (what
// a durable engine does after a restart) fails the same way the first run did, without calling
// the model or the policy again. An abort is never journaled as the step's failure.

const rateLimited = () =>
  new ProviderError({
    provider: "scripted",
    code: "provider-api-error",
    message: "Rate limited: try again in 20 s.",
    status: 429,
    retryable: true,
    requestId: "req_42",
    cause: new TypeError("upstream said 429"),
  });

/** The fields an app's error handling reads, as plain data, to compare a first run with its replay. */
function describeError(error: unknown) {
  const provider = ProviderError.isInstance(error);
  const junction = JunctionError.isInstance(error);
  const { name, message, code, status, retryable, requestId } = error as ProviderError;
  return { provider, junction, name, message, code, status, retryable, requestId };
}

/**
 * A port that journals a step whose body throws, as DBOS and Restate do (a replay throws the
 * journaled error again, as a plain `Error`): so a test sees whether a step ended at all.
 */
class ErrorJournalingPort extends InMemoryDurability {
  override async step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T> {
    const journaled = this.journal[key];
    if (isRecord(journaled) && "thrown" in journaled) throw new Error(String(journaled.thrown));
    try {
      return await super.step(key, run);
    } catch (error) {
      this.journal[key] = { thrown: (error as Error).message };
      throw error;
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the run to fail");
}

const noteTool: Tool = {
  name: "save_note",
  description: "Saves a note.",
  inputSchema: { type: "object" },
  execute: async () => "saved",
};

describe("a failed step on a replayed journal", () => {
  it("a model step's ProviderError comes back as a ProviderError with its status, retryable and requestId, without asking the model again", async () => {
    const port = new InMemoryDurability({ runId: "run-failed-model" });
    const model = scriptedModel([{ error: rateLimited() }, { text: "must not be asked" }]);
    const agent = new Agent({ provider: model, model: "m" });
    const first = await rejection(agent.send("hi", { durability: port }).final);
    expect(model.requests).toHaveLength(1);
    // The journal holds the failure as plain JSON.
    expect(JSON.parse(JSON.stringify(port.journal["model:1"]))).toEqual({
      failed: {
        class: "ProviderError",
        name: "ProviderError",
        message: "Rate limited: try again in 20 s.",
        fields: {
          code: "provider-api-error",
          provider: "scripted",
          status: 429,
          retryable: true,
          requestId: "req_42",
        },
        cause: { class: "Error", name: "TypeError", message: "upstream said 429", fields: {} },
      },
    });

    // A new process replays the run from the journal the engine kept.
    const replay = new InMemoryDurability({ runId: "run-failed-model", journal: port.journal });
    const again = await rejection(
      new Agent({ provider: model, model: "m" }).send("hi", { durability: replay }).final,
    );
    expect(model.requests).toHaveLength(1);
    const expected = {
      provider: true,
      junction: true,
      name: "ProviderError",
      message: "Rate limited: try again in 20 s.",
      code: "provider-api-error",
      status: 429,
      retryable: true,
      requestId: "req_42",
    };
    expect(describeError(first)).toEqual(expected);
    expect(describeError(again)).toEqual(expected);
    expect((again as Error).cause).toEqual(
      expect.objectContaining({ name: "TypeError", message: "upstream said 429" }),
    );
  });

  it("an abort during the model step is not journaled, not even by an engine that journals a step's thrown error: a replay runs the step again", async () => {
    const port = new ErrorJournalingPort({ runId: "run-aborted" });
    const controller = new AbortController();
    const model = scriptedModel([
      { text: "a slow answer in many words", delayMs: 50 },
      { text: "the answer after the restart" },
    ]);
    const agent = new Agent({ provider: model, model: "m" });
    const sent = agent.send("hi", { durability: port, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const aborted = await rejection(sent.final);
    expect(aborted).toMatchObject({ code: "aborted" });
    // The tools offered were journaled before the model was asked; the model's step never ended.
    expect(Object.keys(port.journal)).toEqual(["tools:1"]);

    const replay = new ErrorJournalingPort({ runId: "run-aborted", journal: port.journal });
    const result = await new Agent({ provider: model, model: "m" }).send("hi", { durability: replay }).final;
    expect(result.text).toBe("the answer after the restart");
    expect(model.requests).toHaveLength(2);
    expect(Object.keys(replay.journal)).toEqual(["tools:1", "model:1"]);
  });
});

describe("journaledStep", () => {
  it("throws the original error on the first run and a rebuilt copy on a replay; a plain Error stays a plain Error with its name", async () => {
    const port = new InMemoryDurability();
    const original = Object.assign(new RangeError("no such page"), { code: "ERR_PAGE", page: 7 });
    const signal = new AbortController().signal;
    const run = () =>
      journaledStep({ durability: port, key: "model:1", signal, run: () => Promise.reject(original) });
    expect(await rejection(run())).toBe(original);
    const replayed = await rejection(run());
    expect(replayed).not.toBe(original);
    expect(replayed).toBeInstanceOf(Error);
    expect(JunctionError.isInstance(replayed)).toBe(false);
    expect(replayed).toMatchObject({
      name: "RangeError",
      message: "no such page",
      code: "ERR_PAGE",
      page: 7,
    });
  });

  it("rebuilds a JunctionError with its code and JSON-RPC code and data", async () => {
    // A policy's or a tool's failure is a denial or an error result, not a failed step; a step of
    // the run that throws anything else (a tool runner of your own) is journaled the same way.
    const port = new InMemoryDurability();
    const signal = new AbortController().signal;
    const failing = new JunctionError("mcp-request-failed", "The policy service is down.", {
      jsonRPCCode: -32603,
      jsonRPCData: { retryAfter: 5 },
    });
    const run = () =>
      journaledStep({ durability: port, key: "gate:1:c1", signal, run: () => Promise.reject(failing) });
    expect(await rejection(run())).toBe(failing);
    const replayed = await rejection(run());
    expect(JunctionError.isInstance(replayed)).toBe(true);
    expect(ProviderError.isInstance(replayed)).toBe(false);
    expect(replayed).toMatchObject({
      name: "JunctionError",
      code: "mcp-request-failed",
      message: "The policy service is down.",
      jsonRPCCode: -32603,
      jsonRPCData: { retryAfter: 5 },
    });
  });

  it("refuses a journaled failure Junction did not write, with run-state-invalid", async () => {
    const port = new InMemoryDurability({ journal: { "model:1": { failed: { class: "Evil", name: "x" } } } });
    const signal = new AbortController().signal;
    const error = await rejection(
      journaledStep({ durability: port, key: "model:1", signal, run: async () => "not run" }),
    );
    expect(error).toMatchObject({
      code: "run-state-invalid",
      message:
        'The journal entry "model:1" records a failed step, but its class "Evil" is not one of ProviderError, OutputError, JunctionError, Error: Junction\'s run loop did not write it. Start the run again instead of replaying this journal.',
    });
  });

  it("rebuilds an OutputError with its text and issues, and bounds what it journals", () => {
    const failure = toStepFailure(
      new OutputError({ code: "output-invalid", message: "x".repeat(20_000), text: "{", issues: ["a", "b"] }),
    );
    expect(failure.message).toHaveLength(16_384);
    expect(failure.message.endsWith("…")).toBe(true);
    const rebuilt = fromStepFailure(JSON.parse(JSON.stringify(failure)));
    expect(OutputError.isInstance(rebuilt)).toBe(true);
    expect(rebuilt).toMatchObject({ code: "output-invalid", text: "{", issues: ["a", "b"] });
  });
});

describe("a run state with a failed step's entry", () => {
  it("is refused with a clear run-state-invalid message when the failure is malformed", async () => {
    const model = scriptedModel([{ toolCalls: [{ id: "c1", name: "save_note" }] }]);
    const agent = new Agent({ provider: model, model: "m", tools: [noteTool], approval: () => "ask" });
    const stopped = await agent.send("hi").final;
    const state = JSON.parse(JSON.stringify(stopped.state)) as { journal: Record<string, JSONValue> };
    expect(() => parseRunState(state)).not.toThrow();
    state.journal["tool:1:c1"] = {
      failed: { class: "ProviderError", name: "ProviderError", message: "x", fields: {} },
    };
    expect(() => parseRunState(state)).toThrow(
      'This run state cannot be resumed: `journal["tool:1:c1"]` records a failed step, but a ProviderError needs a string `fields.code`.',
    );
  });
});
