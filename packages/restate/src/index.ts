export {
  type AnswerApprovalOptions,
  answerApproval,
  type PendingApprovalsOptions,
  pendingApprovals,
} from "./pending-approvals.js";
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
  promptRetryPolicy,
  type RestateWorkflowOptions,
  restatePendingHandler,
  restateSignalHandler,
  restateWorkflow,
  type SignalRequest,
} from "./restate-workflow.js";
export { type SendSignalOptions, sendSignal } from "./send-signal.js";
