import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import { JunctionError, type Tool } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, annotationPolicy, memoryResumeClaims, type ResumeClaims, type RunState } from "./index.js";
import { fileResumeClaims } from "./node/index.js";
import { scriptedModel } from "./testing/index.js";

function writeTool(effects: string[]): Tool {
  return {
    name: "write_file",
    description: "Writes a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    execute: async (input: { path?: string }) => {
      effects.push(input.path ?? "");
      return "written";
    },
  };
}

async function stoppedState(effects: string[], path = "/notes"): Promise<RunState> {
  const agent = new Agent({
    provider: scriptedModel([{ toolCalls: [{ id: "w", name: "write_file", input: { path } }] }]),
    model: "m",
    tools: [writeTool(effects)],
    approval: annotationPolicy(),
  });
  const result = await agent.send("write").final;
  expect(result.finishReason).toBe("approval-required");
  return JSON.parse(JSON.stringify(result.state)) as RunState;
}

function resumingAgent(effects: string[], claims = memoryResumeClaims()) {
  return new Agent({
    provider: scriptedModel([{ text: "done" }]),
    model: "m",
    tools: [writeTool(effects)],
    approval: annotationPolicy(),
    resumeClaims: claims,
  });
}

describe("a stopped state resumes once", () => {
  it("resumed twice at once in one process (two Agents sharing claims, 100 times): the approved call runs once, the second resume is refused naming the state", async () => {
    for (let round = 0; round < 100; round++) {
      const effects: string[] = [];
      const state = await stoppedState(effects);
      const claims = memoryResumeClaims();
      const outcomes = await Promise.allSettled(
        [resumingAgent(effects, claims), resumingAgent(effects, claims)].map(
          (agent) => agent.resume({ state, decisions: { w: "approve" } }).final,
        ),
      );
      expect(effects).toEqual(["/notes"]);
      const refused = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(refused).toHaveLength(1);
      const error = (refused[0] as PromiseRejectedResult).reason;
      expect(JunctionError.isInstance(error) && error.code).toBe("run-state-resumed");
      expect(String(error.message)).toContain(`run "${state.runId}", step 1, waiting on "w"`);
    }
  }, 120_000);

  it("a process's Agents share its claims without being told to", async () => {
    const effects: string[] = [];
    const state = await stoppedState(effects);
    const first = new Agent({
      provider: scriptedModel([{ text: "done" }]),
      model: "m",
      tools: [writeTool(effects)],
    });
    const second = new Agent({
      provider: scriptedModel([{ text: "done" }]),
      model: "m",
      tools: [writeTool(effects)],
    });
    await first.resume({ state, decisions: { w: "approve" } }).final;
    await expect(second.resume({ state, decisions: { w: "approve" } }).final).rejects.toMatchObject({
      code: "run-state-resumed",
    });
    expect(effects).toEqual(["/notes"]);
  });

  it("a resume that decides nothing stops again on the same call: that state resumes (once), the one it came from is spent", async () => {
    const effects: string[] = [];
    const state = await stoppedState(effects);
    const claims = memoryResumeClaims();
    const undecided = await resumingAgent(effects, claims).resume({ state, decisions: {} }).final;
    expect(undecided.finishReason).toBe("approval-required");
    if (undecided.finishReason !== "approval-required") return;
    const again = JSON.parse(JSON.stringify(undecided.state)) as RunState;
    expect([again.runId, again.step, again.pending.map((call) => call.id)]).toEqual([state.runId, 1, ["w"]]);
    expect([state.resumes, again.resumes]).toEqual([undefined, 1]);
    expect(effects).toEqual([]);
    const outcomes = await Promise.allSettled(
      [again, again, state].map(
        (stopped) =>
          resumingAgent(effects, claims).resume({ state: stopped, decisions: { w: "approve" } }).final,
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    for (const outcome of outcomes.slice(1))
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: "run-state-resumed" });
    expect(effects).toEqual(["/notes"]);
  });

  it("the states a run recorded (onRunState) and the state it stopped with resume once between them, even when a recorded one waits on fewer calls: an approved call runs once", async () => {
    for (const recordedFirst of [false, true]) {
      const effects: string[] = [];
      const policy = annotationPolicy();
      // The second write is decided only once a state was recorded (an async policy, a lookup say):
      // that state waits on the first write alone, the stopped one on both.
      let recordedOnce!: () => void;
      const recording = new Promise<void>((resolve) => {
        recordedOnce = resolve;
      });
      const recorded: RunState[] = [];
      const agent = new Agent({
        provider: scriptedModel([
          {
            toolCalls: [
              { id: "w1", name: "write_file", input: { path: "/one" } },
              { id: "r", name: "read_file", input: {} },
              { id: "w2", name: "write_file", input: { path: "/two" } },
            ],
          },
        ]),
        model: "m",
        tools: [
          writeTool(effects),
          {
            name: "read_file",
            description: "Reads a file",
            inputSchema: { type: "object" },
            annotations: { readOnlyHint: true, openWorldHint: false },
            execute: async () => "read",
          },
        ],
        approval: async (request) => {
          if (request.id === "w2") await recording;
          return policy(request);
        },
      });
      const stopped = await agent.send("write", {
        onRunState: (state) => {
          recorded.push(JSON.parse(JSON.stringify(state)) as RunState);
          recordedOnce();
        },
      }).final;
      expect(stopped.finishReason).toBe("approval-required");
      if (stopped.finishReason !== "approval-required") return;
      const saved = recorded[0]!;
      expect(saved.pending.map((call) => call.id)).toEqual(["w1"]);
      expect(stopped.pending.map((call) => call.id)).toEqual(["w1", "w2"]);

      const claims = memoryResumeClaims();
      const resumeOf = (state: RunState, decisions: Record<string, "approve">) =>
        resumingAgent(effects, claims).resume({ state, decisions }).final;
      const both = { w1: "approve", w2: "approve" } as const;
      const [first, second] = recordedFirst
        ? [() => resumeOf(saved, { w1: "approve" }), () => resumeOf(stopped.state, both)]
        : [() => resumeOf(stopped.state, both), () => resumeOf(saved, { w1: "approve" })];
      expect((await first()).finishReason).toBe("stop");
      await expect(second()).rejects.toMatchObject({ code: "run-state-resumed" });
      expect(effects.filter((path) => path === "/one")).toEqual(["/one"]);
    }
  });

  it("a state's resumes must be a positive integer: 0 is refused naming the field, before anything runs", async () => {
    const effects: string[] = [];
    const state = { ...(await stoppedState(effects)), resumes: 0 };
    await expect(
      resumingAgent(effects).resume({ state, decisions: { w: "approve" } }).final,
    ).rejects.toMatchObject({ code: "run-state-invalid", message: expect.stringContaining("resumes") });
    expect(effects).toEqual([]);
  });

  it("a state that does not verify claims nothing: the real one still resumes", async () => {
    const effects: string[] = [];
    const state = await stoppedState(effects);
    const claims = memoryResumeClaims();
    const forged = { ...state, step: 0 };
    await expect(
      resumingAgent(effects, claims).resume({ state: forged, decisions: { w: "approve" } }).final,
    ).rejects.toMatchObject({
      code: "run-state-invalid",
    });
    const result = await resumingAgent(effects, claims).resume({ state, decisions: { w: "approve" } }).final;
    expect(result.finishReason).toBe("stop");
    expect(effects).toEqual(["/notes"]);
  });

  describe("two worker processes racing to resume the same states, sharing file claims", () => {
    const folder = mkdtempSync(join(tmpdir(), "junction-resume-claims-"));
    const workers: ChildProcess[] = [];
    const replies = new Map<string, ((outcome: string) => void)[]>();

    beforeAll(async () => {
      const script = new URL("./__fixtures__/resume-worker.mjs", import.meta.url);
      for (let index = 0; index < 2; index++) {
        const worker = fork(script, [join(folder, "claims")], {
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        });
        await new Promise<void>((resolve, reject) => {
          worker.once("error", reject);
          worker.once("message", () => resolve());
        });
        worker.on("message", (message: { id?: string; outcome?: string }) => {
          if (message.id === undefined) return;
          replies.get(message.id)?.shift()?.(message.outcome ?? "");
        });
        workers.push(worker);
      }
    });
    afterAll(() => {
      for (const worker of workers) worker.kill();
      rmSync(folder, { recursive: true, force: true });
    });

    it("100 states, each sent to both workers at once: every approved call ran once, and each state was refused once", async () => {
      const effects = join(folder, "effects.log");
      writeFileSync(effects, "");
      for (let round = 0; round < 100; round++) {
        const state = await stoppedState([], `/notes/${round}`);
        const id = String(round);
        const outcomes = await Promise.all(
          workers.map(
            (worker) =>
              new Promise<string>((resolve) => {
                replies.set(id, [...(replies.get(id) ?? []), resolve]);
                worker.send({ id, state, decisions: { w: "approve" }, effects });
              }),
          ),
        );
        expect(outcomes.sort()).toEqual(["run-state-resumed", "stop"]);
      }
      const lines = readFileSync(effects, "utf8").trim().split("\n");
      expect(lines).toHaveLength(100);
      expect(new Set(lines).size).toBe(100);
    }, 120_000);
  });

  describe("two worker processes racing to resume the same re-stopped state, through a real MCP server", () => {
    const folder = mkdtempSync(join(tmpdir(), "junction-resume-again-"));
    const serverLog = join(folder, "server.log");
    const claimsDir = join(folder, "claims");
    const server = fileURLToPath(new URL("./__fixtures__/counting-server.mjs", import.meta.url));
    const workers: ChildProcess[] = [];
    const replies = new Map<string, ((outcome: string) => void)[]>();
    let tracker: MCP;
    let claims: ResumeClaims;

    beforeAll(async () => {
      writeFileSync(serverLog, "");
      claims = fileResumeClaims(claimsDir);
      tracker = new MCP({ transport: "stdio", command: process.execPath, args: [server, serverLog] });
      await tracker.connect();
      const script = new URL("./__fixtures__/resume-mcp-worker.mjs", import.meta.url);
      for (let index = 0; index < 2; index++) {
        const worker = fork(script, [claimsDir, serverLog], {
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        });
        workers.push(worker);
        await new Promise<void>((resolve, reject) => {
          worker.once("error", reject);
          worker.once("exit", (code) => reject(new Error(`the worker exited (${code}) before it was ready`)));
          worker.once("message", () => resolve());
        });
        worker.on("message", (message: { id?: string; outcome?: string }) => {
          if (message.id === undefined) return;
          replies.get(message.id)?.shift()?.(message.outcome ?? "");
        });
      }
    }, 30_000);
    afterAll(async () => {
      for (const worker of workers) worker.disconnect();
      await tracker?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    /** An Agent of this process on the tracker, sharing the workers' claims. */
    const trackerAgent = (turns: Parameters<typeof scriptedModel>[0]) =>
      new Agent({
        provider: scriptedModel(turns),
        model: "m",
        mcps: [{ mcp: tracker, prefix: "tracker" }],
        approval: annotationPolicy(),
        approvalTimeoutMs: 0,
        resumeClaims: claims,
      });

    /** Sends `state` to `worker` under `id`, approving the calls it waits on; the worker's answer. */
    const resumeIn = (worker: ChildProcess, id: string, state: RunState) =>
      new Promise<string>((resolve) => {
        replies.set(id, [...(replies.get(id) ?? []), resolve]);
        const decisions = Object.fromEntries(state.pending.map((pending) => [pending.id, "approve"]));
        worker.send({ id, state, decisions });
      });

    /** What the server received, across every process's server. */
    const received = () => readFileSync(serverLog, "utf8").trim().split("\n").filter(Boolean);

    it("20 rounds: a state re-stopped by 1 or 2 resumes that decided nothing, sent to both workers at once, runs its approved call once on the server; the other worker, and the spent states, are refused", async () => {
      for (let round = 0; round < 20; round++) {
        const call = {
          id: `label-${round}`,
          name: "tracker_label_issue",
          input: { number: round, label: "ok" },
        };
        const first = await trackerAgent([{ toolCalls: [call] }]).send("label it").final;
        expect(first.finishReason).toBe("approval-required");
        if (first.finishReason !== "approval-required") return;
        // Resumes that decide nothing stop again on the same call, each with `resumes` one more.
        const spent: RunState[] = [first.state];
        let state = first.state;
        for (let again = 0; again < 1 + (round % 2); again++) {
          const stopped = await trackerAgent([]).resume({ state, decisions: {} }).final;
          expect(stopped.finishReason).toBe("approval-required");
          if (stopped.finishReason !== "approval-required") return;
          state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
          spent.push(state);
        }
        spent.pop();
        expect([state.step, state.pending.map((pending) => pending.id), state.resumes]).toEqual([
          1,
          [call.id],
          1 + (round % 2),
        ]);
        expect(received()).toHaveLength(round);

        const id = String(round);
        const outcomes = await Promise.all(workers.map((worker) => resumeIn(worker, id, state)));
        expect(outcomes.sort()).toEqual(["run-state-resumed", "stop"]);
        expect(received().filter((line) => line === `label_issue ${round} ok`)).toHaveLength(1);
        // The states it came from were spent by the resumes that made it: refused in either worker.
        for (const [index, earlier] of spent.entries())
          expect(await resumeIn(workers[index % 2]!, id, earlier)).toBe("run-state-resumed");
      }
      expect(received()).toEqual(Array.from({ length: 20 }, (_, round) => `label_issue ${round} ok`));
    }, 120_000);
  });
});
