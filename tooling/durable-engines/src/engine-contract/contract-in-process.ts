// The cases of the engine contract that run the workflows in the test's own process, with a
// scripted model: an answer counts once, a run's questions can be waited for, the runs adapter
// shows a run as a served agent's task, the README's snippet works as written, and the
// durability port keeps its semantics (contract-port.ts).
import { Agent, type AgentResult, type PendingToolCall } from "@junction/core";
import type { ApprovalOutcome, DurableRunStatus } from "@junction/core/durable-runs";
import { scriptedModel } from "@junction/core/testing";
import { definePortContract } from "@junction/durable-engines/engine-contract/contract-port";
import type {
  AgentRunsUnderTest,
  EngineAdapter,
  LaunchedEngine,
} from "@junction/durable-engines/engine-contract/engine-adapter";
import { waitFor } from "@junction/durable-engines/processes";
import { readmeSnippet, runSnippet } from "@junction/durable-engines/readme-snippets";
import type { Tool } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Defines the in-process cases for `engine`: registers their workflows now, launches the engine before them. */
export function defineInProcessContract(engine: EngineAdapter): void {
  const answers = answersWorkflow(engine);
  const runs = runsWorkflow(engine);
  const readme = readmeWorkflow(engine);
  let launched: LaunchedEngine | undefined;
  const current = (): LaunchedEngine => {
    if (!launched)
      throw new Error(`${engine.name} was not launched: see the error of the suite's beforeAll.`);
    return launched;
  };
  beforeAll(async () => {
    launched = await engine.launch();
  });
  afterAll(async () => {
    await launched?.stop();
  });

  defineAnswers(engine, current, answers);
  defineWaiting(engine, current, answers);
  defineAgentRuns(engine, current, runs);
  defineReadme(engine, current, readme);
  definePortContract(engine, current);
}

/**
 * Polls the run's status on a runs adapter (what a server's task layer reads) until it is
 * `status`, for at most 15 s; resolves with it.
 */
export async function reachStatus<S extends DurableRunStatus["status"]>(
  runs: Pick<AgentRunsUnderTest, "status">,
  runId: string,
  status: S,
): Promise<Extract<DurableRunStatus, { status: S }>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const now = await runs.status(runId);
    if (now.status === status) return now as Extract<DurableRunStatus, { status: S }>;
    if (Date.now() > deadline) throw new Error(`The run ${runId} is ${JSON.stringify(now)}, not ${status}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A tool that records each door it opens. */
function vaultOf(opened: string[], rich: boolean): Tool<{ door: string }> {
  return {
    name: "open_vault",
    description: "Opens the vault",
    inputSchema: { type: "object", properties: { door: { type: "string" } }, required: ["door"] },
    execute: async ({ door }) => {
      opened.push(door);
      // A picture of it too: a rich part the agent tool's answer keeps.
      return rich
        ? [
            { type: "text", text: `opened ${door}` },
            { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
          ]
        : `opened ${door}`;
    },
  };
}

/** The keeper of `answersKeeper`: opens the door its input names once a person approved; a gated door waits for its gate first. */
function answersWorkflow(engine: EngineAdapter) {
  const workflow = "answersKeeper";
  const opened: string[] = [];
  /** Runs whose Agent is not made until the test opens their gate: running, nothing asked. */
  const gates = new Map<string, Promise<void>>();
  const vault = vaultOf(opened, false);
  engine.agentWorkflow(workflow, async ({ input }) => {
    await gates.get(input);
    return new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "open_vault", input: { door: input } }] },
        { text: `The ${input} door is open.` },
      ]),
      model: "scripted",
      tools: [vault],
      approval: () => "ask",
    });
  });
  return { workflow, opened, gates };
}

function defineAnswers(
  engine: EngineAdapter,
  launched: () => LaunchedEngine,
  { workflow, opened }: ReturnType<typeof answersWorkflow>,
): void {
  /** Submits a run and waits, with the API, until it asks; resolves with its one pending call. */
  const asked = async (runId: string): Promise<PendingToolCall> => {
    await launched().submit(workflow, runId, { input: runId });
    const now = await launched().approvals(workflow).waitForApprovals(runId, { timeoutMs: 30_000 });
    if (now.status !== "waiting") throw new Error(`${runId} is ${JSON.stringify(now)}, not waiting`);
    expect(now.pending).toHaveLength(1);
    return now.pending[0]!;
  };
  /** Each of eight clients of their own (as eight processes would have) answers; all at once. */
  const fromEight = async (answer: (client: ApprovalsOf, index: number) => Promise<ApprovalOutcome>) => {
    const clients = await launched().separateApprovals(workflow, 8);
    try {
      return await Promise.all(clients.map(answer));
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  };

  describe(`an answer counts once on ${engine.name}`, () => {
    it("eight approvals of one call sent at once from eight clients: the tool runs once, one answer is taken and seven are told they were duplicates", async () => {
      const item = await asked("eight-approve");
      const outcomes = await fromEight((client) =>
        client.answerApproval({ runId: "eight-approve", item, decision: "approve" }),
      );
      expect(outcomes.filter((outcome) => outcome.status === "taken")).toEqual([
        { status: "taken", decision: { approved: true } },
      ]);
      expect(outcomes.filter((outcome) => outcome.status === "duplicate")).toEqual(
        Array.from({ length: 7 }, () => ({ status: "duplicate", decision: { approved: true } })),
      );
      const final = await launched().result(workflow, "eight-approve");
      expect(final.text).toBe("The eight-approve door is open.");
      expect(final.warnings).toEqual([]);
      expect(opened.filter((door) => door === "eight-approve")).toEqual(["eight-approve"]);
      // A ninth answer, after the run ended: the first one's outcome, nothing runs.
      const approvals = launched().approvals(workflow);
      expect(
        await approvals.answerApproval({ runId: "eight-approve", item, decision: { deny: "late" } }),
      ).toEqual({ status: "duplicate", decision: { approved: true } });
      expect(await approvals.approvalStatus("eight-approve")).toEqual({
        status: "finished",
        outcome: { status: "succeeded", output: final },
      });
    });

    it("eight conflicting answers at once (approve, deny, approve, …), four with the one idempotency key the runs adapters send: exactly one decision wins, every other answer gets it, the tool runs at most once", async () => {
      const item = await asked("eight-conflicting");
      const outcomes = await fromEight((client, index) =>
        client.answerApproval({
          runId: "eight-conflicting",
          item,
          decision: index % 2 === 0 ? "approve" : { deny: `no ${index}` },
          ...(index < 4 ? { idempotencyKey: "eight-conflicting:answer:1:c1" } : {}),
        }),
      );
      const taken = outcomes.filter((outcome) => outcome.status === "taken");
      expect(taken).toHaveLength(1);
      const winner = (taken[0] as Extract<ApprovalOutcome, { status: "taken" }>).decision;
      expect(outcomes.filter((outcome) => outcome.status === "duplicate")).toEqual(
        Array.from({ length: 7 }, () => ({ status: "duplicate", decision: winner })),
      );
      const final = await launched().result(workflow, "eight-conflicting");
      const runs = opened.filter((door) => door === "eight-conflicting");
      if (winner.approved) {
        expect(runs).toEqual(["eight-conflicting"]);
        expect(final.text).toBe("The eight-conflicting door is open.");
      } else {
        expect(runs).toEqual([]);
        // The model got the winning denial's reason.
        expect(JSON.stringify(final.steps[0]!.toolResults)).toContain(winner.reason!);
      }
      expect(final.finishReason).toBe("stop");
    });

    it("an approval hand-built with sendSignal, without the call's digests, does not approve it: the call is denied with a run-state-mismatch warning naming what was missing, and a later answer is told of that denial", async () => {
      const item = await asked("no-digests");
      const approvals = launched().approvals(workflow);
      await approvals.sendSignal("no-digests", `approval:${item.step}:${item.id}`, { approved: true });
      const final = await launched().result(workflow, "no-digests");
      expect(opened.filter((door) => door === "no-digests")).toEqual([]);
      expect(final.warnings).toEqual([
        {
          code: "run-state-mismatch",
          message: `The call "${item.id}" was not run: the answer carried no tool digest and no arguments digest (it was not given for the call as listed: answer with answerApproval and an item of pendingApprovals), so it was not run.`,
        },
      ]);
      // An answer sent afterwards is told what the run took: the denial.
      expect(
        await approvals.answerApproval({ runId: "no-digests", item, decision: "approve" }),
      ).toMatchObject({
        status: "duplicate",
        decision: { approved: false },
      });
    });
  });
}

type ApprovalsOf = ReturnType<LaunchedEngine["approvals"]>;

function defineWaiting(
  engine: EngineAdapter,
  launched: () => LaunchedEngine,
  { workflow, gates }: ReturnType<typeof answersWorkflow>,
): void {
  describe(`waiting for a run's question on ${engine.name}`, () => {
    it("tells apart an unknown run, a run that has not asked yet, a run waiting for these calls, and a finished run", async () => {
      const approvals = launched().approvals(workflow);
      expect(await approvals.approvalStatus("never-started")).toEqual({ status: "unknown" });
      expect(await approvals.waitForApprovals("never-started", { timeoutMs: 1_000 })).toEqual({
        status: "unknown",
      });

      let openGate = () => {};
      gates.set("gated-door", new Promise<void>((resolve) => (openGate = resolve)));
      await launched().submit(workflow, "gated-door", { input: "gated-door" });
      expect(await approvals.approvalStatus("gated-door")).toEqual({ status: "running" });
      // Nothing asked within the time given: still running.
      expect(await approvals.waitForApprovals("gated-door", { timeoutMs: 300 })).toEqual({
        status: "running",
      });
      // An abort ends the wait at once.
      const controller = new AbortController();
      const aborted = approvals.waitForApprovals("gated-door", {
        timeoutMs: 60_000,
        signal: controller.signal,
      });
      controller.abort();
      await expect(aborted).rejects.toMatchObject({ code: "aborted" });

      // The wait began before the run asked, and ends when it does.
      const waiting = approvals.waitForApprovals("gated-door", { timeoutMs: 30_000 });
      openGate();
      const now = await waiting;
      expect(now).toEqual({
        status: "waiting",
        pending: [expect.objectContaining({ name: "open_vault", input: { door: "gated-door" }, step: 1 })],
      });
      const [item] = (now as { pending: PendingToolCall[] }).pending;
      expect(
        await approvals.answerApproval({ runId: "gated-door", item: item!, decision: "approve" }),
      ).toEqual({
        status: "taken",
        decision: { approved: true },
      });
      // Waiting again: the run ends without asking anything more.
      const ended = await approvals.waitForApprovals<AgentResult>("gated-door", { timeoutMs: 30_000 });
      expect(ended).toMatchObject({
        status: "finished",
        outcome: { status: "succeeded", output: { text: "The gated-door door is open." } },
      });
    });
  });
}

/** The keeper of the served agent tool `ask_keeper`: opens the door its request names after a person approved; "broken" fails for good. */
function runsWorkflow(engine: EngineAdapter) {
  const workflow = "keeper";
  const opened: string[] = [];
  const vault = vaultOf(opened, true);
  engine.agentWorkflow(workflow, (request) => {
    if (request.input === "broken") return engine.brokenRun.makeAgent(request);
    return new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "open_vault", input: { door: request.input } }] },
        { text: `The keeper opened the ${request.input} door.` },
      ]),
      model: "scripted",
      tools: [vault],
      approval: () => "ask",
    });
  });
  return { workflow, opened };
}

function defineAgentRuns(
  engine: EngineAdapter,
  launched: () => LaunchedEngine,
  { workflow, opened }: ReturnType<typeof runsWorkflow>,
): void {
  const runs = () => launched().agentRuns({ ask_keeper: workflow });
  /** Polls the run's status until it is `status`; resolves with it. */
  const reach = <S extends DurableRunStatus["status"]>(runId: string, status: S) =>
    reachStatus(runs(), runId, status);

  describe(`${engine.names.runs}: a served agent's runs as tasks`, () => {
    it("shows the run's pending approval, answers it bound to its digests, and gives the agent tool's answer with its tools' rich parts", async () => {
      await runs().start({ tool: "ask_keeper", runId: "runs-approve", request: "north" });
      const waiting = await reach("runs-approve", "input_required");
      expect(waiting.pending).toEqual([
        {
          id: "c1",
          name: "open_vault",
          input: { door: "north" },
          step: 1,
          toolDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
          argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ]);
      // Starting the same run id again is the same run.
      await runs().start({ tool: "ask_keeper", runId: "runs-approve", request: "north" });
      expect((await reach("runs-approve", "input_required")).pending).toEqual(waiting.pending);

      // An answer sent twice (a retried tasks/update) is one answer.
      await runs().answer("runs-approve", waiting.pending[0]!, "approve");
      // The second is told it was a duplicate, with the first one's decision.
      expect(await runs().answerApproval("runs-approve", waiting.pending[0]!, "approve")).toEqual({
        status: "duplicate",
        decision: { approved: true },
      });
      expect(await reach("runs-approve", "completed")).toEqual({
        status: "completed",
        result: {
          content: [
            { type: "text", text: "The keeper opened the north door." },
            { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
          ],
          isError: false,
        },
      });
      expect(opened).toEqual(["north"]);
    });

    it("does not run a call whose answer names other arguments than the waiting call's", async () => {
      await runs().start({ tool: "ask_keeper", runId: "runs-edited", request: "east" });
      const [item] = (await reach("runs-edited", "input_required")).pending;
      const edited: PendingToolCall = { ...item!, input: { door: "west" }, argumentsDigest: "0".repeat(64) };
      await runs().answer("runs-edited", edited, "approve");
      await reach("runs-edited", "completed");
      expect(opened).not.toContain("west");
      expect(opened).not.toContain("east");
    });

    it("cancels a waiting run: cancelled, and the call never runs", async () => {
      await runs().start({ tool: "ask_keeper", runId: "runs-cancel", request: "south" });
      const [item] = (await reach("runs-cancel", "input_required")).pending;
      await runs().cancel("runs-cancel");
      if (engine.traits.cancelEndsAtOnce) {
        expect(await runs().status("runs-cancel")).toEqual({ status: "cancelled" });
      } else {
        expect(await reach("runs-cancel", "cancelled")).toEqual({ status: "cancelled" });
      }
      // The run ended without taking an answer: this one is not taken either.
      await expect(runs().answerApproval("runs-cancel", item!, "approve")).resolves.toEqual({
        status: "expired",
      });
      expect(await runs().status("runs-cancel")).toEqual({ status: "cancelled" });
      expect(opened).not.toContain("south");
    });

    it("shows a run that failed for good as failed, with its error's message", async () => {
      await runs().start({ tool: "ask_keeper", runId: "runs-failed", request: "broken" });
      expect(await reach("runs-failed", "failed")).toEqual({
        status: "failed",
        message: engine.brokenRun.message,
      });
    });

    it("refuses a tool it has no workflow for, and shows a run id the engine never saw as failed", async () => {
      await expect(
        runs().start({ tool: "ask_nobody", runId: "runs-nobody", request: "x" }),
      ).rejects.toMatchObject({
        code: "invalid-argument",
        message: `${engine.names.runs} has no workflow for the agent tool "ask_nobody": add it to \`workflows\` ("ask_nobody": a ${engine.names.workflow}).`,
      });
      expect(await runs().status("runs-nobody")).toEqual({
        status: "failed",
        message: engine.missingRunMessage("runs-nobody"),
      });
    });
  });
}

/** The README's `assistant`: saves a note once a person approved, and only once the test opens its gate. */
function readmeWorkflow(engine: EngineAdapter) {
  const saved: string[] = [];
  let openGate = () => {};
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const saveNote: Tool<{ text: string }> = {
    name: "save_note",
    description: "Saves a note",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: async ({ text }) => {
      saved.push(text);
      return `saved "${text}"`;
    },
  };
  engine.agentWorkflow("assistant", async () => {
    await gate;
    return new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "toolu_1", name: "save_note", input: { text: "buy milk" } }] },
        { text: "Noted: buy milk." },
      ]),
      model: "scripted",
      tools: [saveNote],
      approval: () => "ask",
    });
  });
  return { saved, openGate: () => openGate() };
}

function defineReadme(
  engine: EngineAdapter,
  launched: () => LaunchedEngine,
  { saved, openGate }: ReturnType<typeof readmeWorkflow>,
): void {
  describe("the README's snippets, run as written", () => {
    // Taken from README.md and run as written (one file, node, a process of its own that reaches
    // the engine as an application does), with the `assistant` workflow run in this process (a
    // scripted model in place of Anthropic's). The run asks only once the snippet is already
    // waiting, so a snippet that read the list at once (and found `[]`) would answer nothing.
    it(`${engine.readme.file} waits through a run that has not asked yet, approves the call once, and the run ends`, async () => {
      const { packageDir } = engine.readme;
      if (!engine.readme.submitsRun)
        await launched().submit("assistant", "readme-run", { input: "Note: buy milk" });
      const snippet = runSnippet({
        packageDir,
        name: engine.readme.file,
        code: readmeSnippet(`${packageDir}/README.md`, "waitForApprovals"),
        env: launched().snippetEnvironment,
        args: ["readme-run"],
      });
      try {
        await waitFor(() => snippet.stdout().includes("Waiting for readme-run to ask…"), {
          timeoutMs: 20_000,
          what: `the snippet to wait; its output:\n${snippet.output()}`,
        });
        openGate();
        await snippet.exited();
        expect(snippet.stdout().trim().split("\n")).toEqual([
          "Waiting for readme-run to ask…",
          'save_note({"text":"buy milk"})',
          "taken",
          ...(engine.readme.printsAnswer ? ["Noted: buy milk."] : []),
        ]);
        expect((await launched().result("assistant", "readme-run")).text).toBe("Noted: buy milk.");
        expect(saved).toEqual(["buy milk"]);
      } finally {
        await snippet.kill();
        snippet.remove();
      }
    });
  });
}
