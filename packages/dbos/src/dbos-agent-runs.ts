import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import type { AgentResult, PendingToolCall, ResumeDecision } from "@junction/core";
import {
  answerIdempotencyKey,
  type DurableRunStatus,
  endedRunStatus,
  workflowForTool,
} from "@junction/core/durable-runs";
import { errorMessage } from "@junction/types";
import type { AgentRunRequest } from "./dbos-agent-workflow.js";
import type { DBOSWorkflow } from "./dbos-workflow.js";
import { type ApprovalOutcome, answerApproval, pendingApprovals } from "./pending-approvals.js";

/** Options of {@link dbosAgentRuns}. */
export interface DBOSAgentRunsOptions {
  /**
   * The `dbosAgentWorkflow` of each served agent tool, by the tool's name (`ask_researcher`). A
   * run is started in this process: launch DBOS here (`DBOS.launch()`) with these workflows
   * registered, as in every worker.
   */
  readonly workflows: Readonly<Record<string, DBOSWorkflow<AgentRunRequest, AgentResult>>>;
  /**
   * `DBOSClient.create({ systemDatabaseUrl })`: reads the runs' status, pending approvals and
   * results, sends the answers, and cancels, whichever process runs the run.
   */
  readonly client: Pick<
    DBOSClient,
    "getWorkflow" | "getEvent" | "send" | "cancelWorkflow" | "readStreamOffset"
  >;
}

/**
 * A served agent's run on DBOS as a task sees it: `DurableRunStatus` of
 * `@junction/core/durable-runs`, which `@junction/mcp-server` reads.
 */
export type DBOSAgentRunStatus = DurableRunStatus;

/**
 * Served agents' runs as DBOS workflows: the shape of `DurableAgentRuns` of
 * `@junction/mcp-server` (its `tasks.runs`), by structure, so neither package depends on the other.
 */
export interface DBOSAgentRuns {
  /** Starts the tool's workflow on `request` with the run id `runId` (the task's id); the same id again is the same run. */
  start(run: { tool: string; runId: string; request: string }): Promise<void>;
  /** The run's DBOS status, its pending approvals while it waits, its answer once it ended. */
  status(runId: string): Promise<DBOSAgentRunStatus>;
  /**
   * Answers a pending call as `status` listed it ({@link answerApproval}: bound to its digests,
   * one DBOS idempotency key per call, so only the first answer to a call counts); resolves once
   * the run took an answer. `DurableAgentRuns`'s shape: {@link DBOSAgentRuns.answerApproval} says
   * what became of the answer.
   */
  answer(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<void>;
  /**
   * {@link DBOSAgentRuns.answer}, resolving with what became of the answer: `"taken"`, or
   * `"duplicate"` with the decision an earlier answer made (never a second run of the call),
   * `"expired"`, or `"accepted"` (see {@link ApprovalOutcome}).
   */
  answerApproval(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<ApprovalOutcome>;
  /** Cancels the workflow (`DBOSClient.cancelWorkflow`). */
  cancel(runId: string): Promise<void>;
}

/** DBOS statuses of a workflow that has not ended. */
const GOING = new Set(["PENDING", "ENQUEUED", "DELAYED"]);

/**
 * Runs served agent tools as DBOS workflows, for `@junction/mcp-server`'s `tasks.runs`: a task
 * is then a DBOS run (the task's id is the workflow id), and outlives the server process. `start`
 * is the tool's `dbosAgentWorkflow.start({ input: request }, { runId })`; `status` reads the
 * workflow's status, its {@link pendingApprovals} (the task's input requests) and, once it
 * succeeded, the `AgentResult` as the tool's answer (`agentToolResult` of `@junction/core`: the
 * text, then the images, audio and resources its tools returned, `structuredContent` with an
 * `output` schema); `answer` is
 * {@link answerApproval}, bound to the call's digests and sent once per call (an idempotency key);
 * `cancel` is `cancelWorkflow`. A server restarted on the same database (DBOS recovers the run)
 * and the same task store and `stateKey` serves the task on.
 *
 * @example
 * ```ts
 * const keeper = dbosAgentWorkflow("keeper", () => new Agent({ ... }));
 * DBOS.setConfig({ name: "team", systemDatabaseUrl });
 * await DBOS.launch();
 * const client = await DBOSClient.create({ systemDatabaseUrl });
 * createMCPServer({
 *   name: "team", version: "1.0.0", stateKey,
 *   tasks: { store: fileTaskStore("./tasks"), runs: dbosAgentRuns({ workflows: { ask_keeper: keeper }, client }) },
 *   tools: [agentTool(() => new Agent({ ... }), { name: "ask_keeper", description: "Asks the keeper" })],
 * });
 * ```
 */
export function dbosAgentRuns(options: DBOSAgentRunsOptions): DBOSAgentRuns {
  const { client, workflows } = options;
  const answerOnce = ({
    runId,
    item,
    decision,
    until = "decided",
  }: {
    runId: string;
    item: PendingToolCall;
    decision: ResumeDecision;
    until?: "accepted" | "decided";
  }): Promise<ApprovalOutcome> =>
    answerApproval({
      sender: client,
      runId,
      item,
      decision,
      until,
      // A tasks/update retried (or sent twice) is one answer to the call.
      idempotencyKey: answerIdempotencyKey(runId, item),
    });
  return {
    async start({ tool, runId, request }) {
      const workflow = workflowForTool(workflows, tool, {
        runs: "dbosAgentRuns",
        workflow: "dbosAgentWorkflow",
      });
      await workflow.start({ input: request }, { runId });
    },

    async status(runId) {
      const workflow = await client.getWorkflow(runId);
      if (!workflow) {
        return {
          status: "failed",
          message: `DBOS has no run "${runId}": it was not started on this system database.`,
        };
      }
      if (GOING.has(workflow.status)) {
        const pending = await pendingApprovals({ client, runId });
        return pending.length > 0 ? { status: "input_required", pending } : { status: "working" };
      }
      switch (workflow.status) {
        case "SUCCESS":
          return endedRunStatus(workflow.output as AgentResult);
        case "CANCELLED":
          return { status: "cancelled" };
        case "MAX_RECOVERY_ATTEMPTS_EXCEEDED":
          return {
            status: "failed",
            message: `The run was recovered ${workflow.recoveryAttempts ?? "too many"} times without ending (DBOS: MAX_RECOVERY_ATTEMPTS_EXCEEDED).`,
          };
        default:
          // ERROR, and any status a later DBOS adds: the run ended without an answer.
          return {
            status: "failed",
            message:
              workflow.error === undefined
                ? `The run ended with the DBOS status ${workflow.status}.`
                : errorMessage(workflow.error),
          };
      }
    },

    async answer(runId, item, decision) {
      // Stored once for the run (one idempotency key per call); a task's other calls of the same
      // step may still wait for their answers, so this does not wait for the run to take it.
      await answerOnce({ runId, item, decision, until: "accepted" });
    },

    answerApproval: (runId, item, decision) => answerOnce({ runId, item, decision }),

    async cancel(runId) {
      await client.cancelWorkflow(runId);
    },
  };
}
