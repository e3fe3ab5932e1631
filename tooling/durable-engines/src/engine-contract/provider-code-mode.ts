// Provider-native code mode (`codeMode: { sandbox: "provider" }`, Anthropic's programmatic tool
// calling) in a durable run, for any engine's adapter: Claude (the real Anthropic SDK against a
// local wire fake) writes code whose calls go to the ledger MCP server over stdio; the code's
// `publish_entry` call needs a person. The run waits with the call pending as plain data, the
// package's approval API approves it, and the server receives every call once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type AgentResult } from "@junction/core";
import {
  type LedgerCall,
  ledgerCalls,
  type ProviderLedgerProgram,
  providerCallId,
  providerClock,
  providerLedgerAnswer,
  startProviderLedgerModel,
} from "@junction/durable-engines/agent-scenario";
import { ledgerServer, providerLedgerModel } from "@junction/durable-engines/agent-worker";
import type { EngineAdapter, LaunchedEngine } from "@junction/durable-engines/engine-contract/engine-adapter";
import { MCP } from "@junction/mcp-client";
import { anthropic } from "@junction/provider-anthropic";
import type { WireFake } from "@junction/wire-fake";
import { CODE_EXECUTION, programContainer } from "@junction/wire-fake/anthropic-program-loop";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Claude's code appends entry 1, then publishes entry 2 (which asks a person), one turn each. */
const program: ProviderLedgerProgram = { turns: [[1], [2]], publishAt: 2 };
const publishCall = providerCallId(2);

/**
 * Defines the case for `engine`: registers its workflow now (before the engine launches), and
 * launches the engine, the wire fake and the ledger server before it.
 */
export function defineProviderCodeMode(engine: EngineAdapter): void {
  const workflow = "providerCodeModeLedger";
  const folder = mkdtempSync(join(tmpdir(), "junction-provider-code-mode-"));
  const callsFile = join(folder, "calls.jsonl");
  let fake: WireFake | undefined;
  let ledger: MCP | undefined;
  let launched: LaunchedEngine | undefined;
  // Made again whenever the engine runs the workflow's code (a recovery, a resumed invocation):
  // the same Agent each time, on the one connection.
  engine.agentWorkflow(
    workflow,
    () =>
      new Agent({
        provider: anthropic({ apiKey: "test-key", baseURL: fake!.url, maxRetries: 0 }),
        model: providerLedgerModel,
        mcps: [{ prefix: "ledger", mcp: ledger! }],
        approval: (request) => (request.name === "ledger_publish_entry" ? "ask" : "approve"),
        // The ledger's two tools are a program's only (fewer than code mode's default minimum).
        codeMode: { sandbox: "provider", tools: { "ledger_*": "code" }, minTools: 1 },
      }),
  );
  beforeAll(async () => {
    fake = await startProviderLedgerModel(program);
    ledger = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [ledgerServer],
      env: { CALLS_FILE: callsFile },
      reconnect: false,
    });
    await ledger.connect();
    launched = await engine.launch();
  });
  afterAll(async () => {
    await launched?.stop();
    await ledger?.close();
    await fake?.close();
    rmSync(folder, { recursive: true, force: true });
  });
  const received = () =>
    ledgerCalls(callsFile).map(({ tool, entry, clock }: LedgerCall) => ({ tool, entry, clock }));

  describe(`provider-native code mode on ${engine.name}`, () => {
    it("the code's gated MCP call waits as plain data, is approved through the approval API, and reaches the server once", async () => {
      const runId = "provider-code-mode";
      await launched!.submit(workflow, runId, { input: "Append 1 and publish 2." });
      const approvals = launched!.approvals(workflow);
      const waiting = await approvals.waitForApprovals(runId, { timeoutMs: 30_000 });
      if (waiting.status !== "waiting")
        throw new Error(`${runId} is ${JSON.stringify(waiting)}, not waiting`);
      // What a person is shown: the code's call, plain JSON (any process can list and answer it).
      expect(waiting.pending).toHaveLength(1);
      const item = waiting.pending[0]!;
      expect(JSON.parse(JSON.stringify(item))).toEqual(item);
      expect(item).toMatchObject({
        id: publishCall,
        name: "ledger_publish_entry",
        input: { entry: 2, clock: providerClock },
      });
      expect(await approvals.pendingApprovals(runId)).toEqual(waiting.pending);
      // The tools went out for the code only; the ungated call ran, the gated one did not.
      expect(fake!.requests[0]!.body.tools).toEqual([
        expect.objectContaining({ name: "ledger_append_entry", allowed_callers: [CODE_EXECUTION] }),
        expect.objectContaining({ name: "ledger_publish_entry", allowed_callers: [CODE_EXECUTION] }),
        { type: CODE_EXECUTION, name: "code_execution" },
      ]);
      expect(received()).toEqual([{ tool: "append_entry", entry: 1, clock: providerClock }]);

      expect(await approvals.answerApproval({ runId, item, decision: "approve" })).toMatchObject({
        status: "taken",
      });
      const result: AgentResult = await launched!.result(workflow, runId);
      expect(result.finishReason).toBe("stop");
      expect(result.text).toBe(providerLedgerAnswer(program));
      expect(received()).toEqual([
        { tool: "append_entry", entry: 1, clock: providerClock },
        { tool: "publish_entry", entry: 2, clock: providerClock },
      ]);
      // Three model turns, each sent once; the server's answer went back to the container.
      expect(fake!.requests).toHaveLength(3);
      const third = fake!.requests[2]!.body;
      expect(third.container).toBe(programContainer.id);
      expect(third.messages.at(-1)).toEqual({
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: publishCall,
            content: [{ type: "text", text: "entry 2 recorded by publish_entry" }],
          },
        ],
      });
      // A second approval of the same call is told it was a duplicate, and runs nothing.
      expect(await approvals.answerApproval({ runId, item, decision: "approve" })).toMatchObject({
        status: "duplicate",
      });
      expect(received()).toHaveLength(2);
    });
  });
}
