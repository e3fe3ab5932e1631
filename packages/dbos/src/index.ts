export { type AgentRunRequest, dbosAgentWorkflow } from "./dbos-agent-workflow.js";
export { dbosDurability } from "./dbos-durability.js";
export { type DBOSWorkflow, dbosWorkflow } from "./dbos-workflow.js";
export { type DBOSMessageSender, type SendSignalOptions, sendSignal } from "./send-signal.js";
