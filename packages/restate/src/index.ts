export {
  type AnswerApprovalOptions,
  type ApprovalOutcome,
  type ApprovalStatusOptions,
  answerApproval,
  approvalStatus,
  type PendingApprovalsOptions,
  pendingApprovals,
  type RunApprovals,
  type RunOutcome,
  type TakenDecision,
  type WaitForApprovalsOptions,
  waitForApprovals,
} from "./pending-approvals.js";
export {
  type RestateAgentRunStatus,
  type RestateAgentRuns,
  type RestateAgentRunsOptions,
  restateAgentRuns,
} from "./restate-agent-runs.js";
export {
  type AgentRunRequest,
  type RestateAgentWorkflow,
  restateAgentWorkflow,
} from "./restate-agent-workflow.js";
export {
  type ApprovalNotifier,
  type RestateDurabilityOptions,
  restateDurability,
} from "./restate-durability.js";
export {
  type AnswerResponse,
  type AwaitPendingRequest,
  beginRun,
  promptRetryPolicy,
  type RestateWorkflowOptions,
  RUN_INVOCATION_STATE,
  restateAnswerHandler,
  restateAwaitPendingHandler,
  restateCancelHandler,
  restatePendingHandler,
  restateSignalHandler,
  restateWorkflow,
  type SignalRequest,
} from "./restate-workflow.js";
export { type SendSignalOptions, sendSignal } from "./send-signal.js";
