import { JunctionError, ProviderError, type Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  Agent,
  annotationPolicy,
  memoryResumeClaims,
  type ResumeClaims,
  type RunState,
  runStateOf,
} from "./index.js";
import { type ScriptedTurn, scriptedModel } from "./testing/index.js";

const KEY = { id: "k1", secret: "a secret of at least thirty-two bytes!!" };

function writeTool(effects: string[]): Tool {
  return {
    name: "write_file",
    description: "Writes a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    execute: async (input: { path?: string }) => {
      effects.push(input.path ?? "");
      return `wrote ${input.path}`;
    },
  };
}

function agentWith(effects: string[], turns: ScriptedTurn[], claims: ResumeClaims) {
  return new Agent({
    provider: scriptedModel(turns),
    model: "m",
    tools: [writeTool(effects)],
    approval: annotationPolicy(),
    resumeClaims: claims,
    runStateKey: KEY,
  });
}

const outage = () =>
  new ProviderError({
    provider: "scripted",
    message: "The vendor is down (503).",
    status: 503,
    retryable: false,
  });

/** A run stopped on an approval of `write_file` to /notes, its state as stored. */
async function stoppedState(effects: string[], claims: ResumeClaims): Promise<RunState> {
  const agent = agentWith(
    effects,
    [{ toolCalls: [{ id: "w", name: "write_file", input: { path: "/notes" } }] }],
    claims,
  );
  const result = await agent.send("write").final;
  expect(result.finishReason).toBe("approval-required");
  return JSON.parse(JSON.stringify(result.state)) as RunState;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: Error) => error,
  );
  if (!outcome) throw new Error("expected the run to fail");
  return outcome;
}

describe("a resume that fails gives a state to go on from (its own was spent by the claim)", () => {
  it("the model fails after the approved call ran: the error's state goes on without running the call again, once", async () => {
    const effects: string[] = [];
    const claims = memoryResumeClaims();
    const state = await stoppedState(effects, claims);
    const error = await failure(
      agentWith(effects, [{ error: outage() }], claims).resume({ state, decisions: { w: "approve" } }).final,
    );
    expect(ProviderError.isInstance(error) && error.status).toBe(503);
    expect(effects).toEqual(["/notes"]);
    const next = runStateOf(error);
    expect(next).toMatchObject({ runId: state.runId, step: 1, pending: [], resumes: 1 });
    expect(next?.signature?.keyId).toBe("k1");
    // Not in the error's message or its own keys: a logged error does not print the run.
    expect(Object.keys(error)).not.toContain("state");
    expect(JSON.stringify(error)).not.toContain(state.runId);

    const stored = JSON.parse(JSON.stringify(next)) as RunState;
    const model = scriptedModel([{ text: "written" }]);
    const result = await new Agent({
      provider: model,
      model: "m",
      tools: [writeTool(effects)],
      approval: annotationPolicy(),
      resumeClaims: claims,
      runStateKey: KEY,
    }).resume({ state: stored, decisions: {} }).final;
    expect(result.text).toBe("written");
    expect(effects).toEqual(["/notes"]);
    // The model reads the call's result from the journal, as if nothing had failed.
    expect(JSON.stringify(model.requests[0]!.messages)).toContain("wrote /notes");

    for (const spent of [state, stored]) {
      const again = await failure(
        agentWith(effects, [{ text: "x" }], claims).resume({ state: spent, decisions: {} }).final,
      );
      expect(JunctionError.isInstance(again) && again.code).toBe("run-state-resumed");
    }
    expect(effects).toEqual(["/notes"]);
  });

  it("the resume fails before the decided call ran (aborted): the error's state waits on the same call, and a decision on it runs it once", async () => {
    const effects: string[] = [];
    const claims = memoryResumeClaims();
    const state = await stoppedState(effects, claims);
    const error = await failure(
      agentWith(effects, [{ text: "never" }], claims).resume(
        { state, decisions: { w: "approve" } },
        { signal: AbortSignal.abort(new Error("the user left")) },
      ).final,
    );
    expect(effects).toEqual([]);
    const next = runStateOf(error)!;
    expect(next.pending.map((call) => [call.id, call.name, call.input])).toEqual([
      ["w", "write_file", { path: "/notes" }],
    ]);
    expect(next.pending[0]?.argumentsDigest).toBe(state.pending[0]?.argumentsDigest);
    expect(next.resumes).toBe(1);
    // The approval given to the failed resume is not carried: the state asks again.
    const asked = await agentWith(effects, [{ text: "x" }], memoryResumeClaims()).resume({
      state: next,
      decisions: {},
    }).final;
    expect(asked.finishReason).toBe("approval-required");
    expect(effects).toEqual([]);

    const result = await agentWith(effects, [{ text: "done" }], claims).resume({
      state: next,
      decisions: { w: "approve" },
    }).final;
    expect(result.text).toBe("done");
    expect(effects).toEqual(["/notes"]);
  });

  it("two workers racing to resume the error's state (50 times): the call runs once, one of them is refused", async () => {
    for (let round = 0; round < 50; round++) {
      const effects: string[] = [];
      const claims = memoryResumeClaims();
      const state = await stoppedState(effects, claims);
      const error = await failure(
        agentWith(effects, [{ text: "x" }], claims).resume(
          { state, decisions: { w: "approve" } },
          { signal: AbortSignal.abort() },
        ).final,
      );
      const next = runStateOf(error)!;
      const outcomes = await Promise.allSettled(
        [0, 1].map(
          () =>
            agentWith(effects, [{ text: "done" }], claims).resume({
              state: next,
              decisions: { w: "approve" },
            }).final,
        ),
      );
      expect(effects).toEqual(["/notes"]);
      const refused = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(refused.map((outcome) => (outcome as PromiseRejectedResult).reason.code)).toEqual([
        "run-state-resumed",
      ]);
    }
  }, 60_000);

  it("a state the failed resume recorded (onRunState) and the error's are one part of the run: whichever resumes first, the other is refused", async () => {
    const effects: string[] = [];
    const claims = memoryResumeClaims();
    const state = await stoppedState(effects, claims);
    const recorded: RunState[] = [];
    const error = await failure(
      agentWith(effects, [{ error: outage() }], claims).resume(
        { state, decisions: { w: "approve" } },
        { onRunState: (saved) => void recorded.push(saved) },
      ).final,
    );
    expect(recorded).toHaveLength(1);
    const next = runStateOf(error)!;
    expect(next.journal).toEqual(recorded[0]!.journal);
    await agentWith(effects, [{ text: "done" }], claims).resume({ state: recorded[0]!, decisions: {} }).final;
    const refused = await failure(
      agentWith(effects, [{ text: "x" }], claims).resume({ state: next, decisions: {} }).final,
    );
    expect(JunctionError.isInstance(refused) && refused.code).toBe("run-state-resumed");
    expect(effects).toEqual(["/notes"]);
  });

  it("a state that does not verify or was resumed already spends nothing and carries no state", async () => {
    const effects: string[] = [];
    const claims = memoryResumeClaims();
    const state = await stoppedState(effects, claims);
    const forged = { ...state, pending: [{ ...state.pending[0]!, input: { path: "/etc/passwd" } }] };
    const invalid = await failure(
      agentWith(effects, [{ text: "x" }], claims).resume({ state: forged, decisions: { w: "approve" } })
        .final,
    );
    expect(JunctionError.isInstance(invalid) && invalid.code).toBe("run-state-invalid");
    expect(runStateOf(invalid)).toBeUndefined();
    await agentWith(effects, [{ text: "done" }], claims).resume({ state, decisions: { w: "approve" } }).final;
    const twice = await failure(
      agentWith(effects, [{ text: "x" }], claims).resume({ state, decisions: { w: "approve" } }).final,
    );
    expect(runStateOf(twice)).toBeUndefined();
    expect(effects).toEqual(["/notes"]);
  });
});

describe("a new run that fails after a call finished gives a state to go on from", () => {
  it("the second model turn fails: the state holds the finished call, and resuming it does not run it again", async () => {
    const effects: string[] = [];
    const claims = memoryResumeClaims();
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "w", name: "write_file", input: { path: "/log" } }] },
        { error: outage() },
      ]),
      model: "m",
      tools: [writeTool(effects)],
      resumeClaims: claims,
    });
    const error = await failure(agent.send("write the log").final);
    expect(effects).toEqual(["/log"]);
    const next = runStateOf(error)!;
    expect(next).toMatchObject({ step: 1, pending: [] });
    expect(next.resumes).toBeUndefined();
    const result = await new Agent({
      provider: scriptedModel([{ text: "logged" }]),
      model: "m",
      tools: [writeTool(effects)],
      resumeClaims: claims,
    }).resume({ state: next, decisions: {} }).final;
    expect(result.text).toBe("logged");
    expect(effects).toEqual(["/log"]);
  });

  it("the first model turn fails: no state (nothing ran; the caller has all it started from)", async () => {
    const agent = new Agent({ provider: scriptedModel([{ error: outage() }]), model: "m" });
    const error = await failure(agent.send("hello").final);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(runStateOf(error)).toBeUndefined();
  });
});
