import type { PendingToolCall, ResumeDecision } from "@junction/core";
import type { DurableRunStatus } from "@junction/core/durable-runs";
import { JunctionError } from "@junction/types";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import type { AgentTaskRecord } from "./task-store.js";

/**
 * A served agent's run as a durable engine's run (DBOS, Restate): the engine keeps the run, its
 * pending approvals and its result, and outlives the server process; the task is the run (the
 * task's id is the run's id) and the server only maps one onto the other. Every method may be
 * called from any process that reaches the engine. Set it as `tasks.runs`.
 *
 * On DBOS: `dbosAgentRuns({ workflows, client })` from `@junction/dbos` is one (by structure).
 * `start` is a `dbosAgentWorkflow`'s `start({ input: request }, { runId })`, `status` reads the
 * workflow's status and `pendingApprovals({ client, runId })`, `answer` is
 * `answerApproval({ sender, runId, item, decision })`, `cancel` is `cancelWorkflow(runId)`.
 *
 * On Restate: `restateAgentRuns({ workflows, ingress })` from `@junction/restate` is one (by
 * structure). `start` submits a `restateAgentWorkflow` with the run id as workflow key, `status`
 * reads `pendingApprovals({ ingress, workflow, runId })` and the workflow's output, `answer` is
 * `answerApproval({ ingress, workflow, runId, item, decision })`, `cancel` is the workflow's
 * `cancel` handler.
 */
export interface DurableAgentRuns {
  /**
   * Starts the run of the agent tool `tool` on `request` under `runId`; once it resolves, the
   * engine has the run. Starting the same `runId` again must not start a second run.
   */
  start(run: {
    tool: string;
    runId: string;
    request: string;
    /** Who asked for it (the task's owner), for limits an implementation may keep. */
    owner?: string;
  }): Promise<void>;
  /** The run as the engine has it now. */
  status(runId: string): Promise<DurableRunStatus>;
  /** Answers one pending call as `status` listed it (the engine checks it against the waiting call). */
  answer(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<void>;
  /** Cancels the run. */
  cancel(runId: string): Promise<void>;
}

// A durable run's state, as a task shows it: declared once, beside the engines' shared run
// (`@junction/core/durable-runs`), so the engines' runs adapters return it without depending on
// this package.
export type { DurableRunStatus };

/**
 * A run's status as the task layer reads it: a `DurableRunStatus`, or a run of this process
 * that failed outside its tool (it threw a `ProtocolError`), which the task shows as `failed`
 * with that JSON-RPC error and no result.
 */
export type TaskRunStatus =
  | DurableRunStatus
  | { status: "failed"; message: string; error: { code: number; message: string } };

/**
 * A durable run's task as its engine has it now (status, pending calls, result); `ended` when
 * the run ended, so the record is kept so and the engine is not asked again. Pure.
 */
export function durableTaskRecord(
  record: AgentTaskRecord,
  now: TaskRunStatus,
): { record: AgentTaskRecord; ended: boolean } {
  const next: AgentTaskRecord = { ...record, lastUpdatedAt: new Date().toISOString() };
  delete next.pending;
  switch (now.status) {
    case "working":
      next.status = "working";
      next.statusMessage = now.statusMessage ?? "Working";
      return { record: next, ended: false };
    case "input_required": {
      const names = [...new Set(now.pending.map((call) => `"${call.name}"`))].join(", ");
      next.status = "input_required";
      next.statusMessage = now.statusMessage ?? `Waiting for a person to approve the call to ${names}`;
      next.pending = now.pending;
      return { record: next, ended: false };
    }
    case "completed":
      next.status = "completed";
      next.statusMessage = now.statusMessage ?? "Done";
      next.result = toCallToolResult(now.result);
      break;
    case "failed":
      if ("error" in now) {
        next.status = "failed";
        next.statusMessage = `Failed: ${now.message}`;
        next.error = now.error;
        delete next.result;
        break;
      }
      next.status = "completed";
      next.statusMessage = `Failed: ${now.message}`;
      next.result = toolErrorResult(record.tool, new JunctionError("tool-execution-failed", now.message));
      break;
    case "cancelled":
      next.status = "cancelled";
      next.statusMessage = "Cancelled";
      break;
    default: {
      const never: never = now;
      throw new JunctionError("invalid-argument", `Unknown durable run status ${JSON.stringify(never)}.`);
    }
  }
  return { record: next, ended: true };
}
