export {
  type AnswerApprovalOptions,
  answerApproval,
  type PendingApprovalsOptions,
  pendingApprovals,
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
  PENDING_APPROVALS_STATE,
  type RestateDurabilityOptions,
  restateDurability,
} from "./restate-durability.js";
export {
  beginRun,
  promptRetryPolicy,
  type RestateWorkflowOptions,
  RUN_INVOCATION_STATE,
  restateCancelHandler,
  restatePendingHandler,
  restateSignalHandler,
  restateWorkflow,
  type SignalRequest,
} from "./restate-workflow.js";
export { type SendSignalOptions, sendSignal } from "./send-signal.js";
