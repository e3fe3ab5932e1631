// `@junction/core/durable-runs`: what the durable engines' packages (`@junction/dbos`,
// `@junction/restate`) share, so an Agent's run, an answer to its pending call and a task's view
// of it mean the same on every engine. An application uses the engine's package, which
// re-exports the types it needs from here.
export {
  type AgentRunRequest,
  agentRun,
  type DurableRunStatus,
  endedRunStatus,
  type MakeAgent,
  workflowForTool,
} from "./agent-run.js";
export {
  type ApprovalNotifier,
  type ApprovalOutcome,
  type ApprovalWaitOptions,
  abortableWait,
  answerIdempotencyKey,
  type RunApprovals,
  type RunOutcome,
  type TaggedAnswer,
  type TakenDecision,
  taggedAnswer,
  takenOutcome,
  throwIfWaitAborted,
} from "./approval-answers.js";
