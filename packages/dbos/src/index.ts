export {
  type DBOSAgentRunStatus,
  type DBOSAgentRuns,
  type DBOSAgentRunsOptions,
  dbosAgentRuns,
} from "./dbos-agent-runs.js";
export { type AgentRunRequest, dbosAgentWorkflow } from "./dbos-agent-workflow.js";
export { type ApprovalNotifier, type DBOSDurabilityOptions, dbosDurability } from "./dbos-durability.js";
export { type DBOSWorkflow, dbosWorkflow } from "./dbos-workflow.js";
export {
  type ClaimExecutorOptions,
  claimExecutor,
  type ExecutorLease,
  type RecoverRunsOptions,
  recoverRunsOf,
} from "./executor-lease.js";
export {
  type AnswerApprovalOptions,
  type ApprovalOutcome,
  type ApprovalStatusOptions,
  answerApproval,
  approvalStatus,
  type DBOSApprovalsReader,
  type PendingApprovalsOptions,
  pendingApprovals,
  type RunApprovals,
  type RunOutcome,
  type TakenDecision,
  type WaitForApprovalsOptions,
  waitForApprovals,
} from "./pending-approvals.js";
export { type DBOSMessageSender, type SendSignalOptions, sendSignal } from "./send-signal.js";
