export {
  type AgentRunRequest,
  type RestateAgentWorkflow,
  restateAgentWorkflow,
} from "./restate-agent-workflow.js";
export { restateDurability } from "./restate-durability.js";
export {
  promptRetryPolicy,
  type RestateWorkflowOptions,
  restateSignalHandler,
  restateWorkflow,
  type SignalRequest,
} from "./restate-workflow.js";
export { type SendSignalOptions, sendSignal } from "./send-signal.js";
