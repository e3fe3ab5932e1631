export type { EventStore } from "@modelcontextprotocol/server";
export { type MCPTaskOptions, type PendingTaskApproval, TASKS_EXTENSION } from "./agent-tasks.js";
export { type AgentToolInput, type AgentToolOptions, agentTool } from "./agent-tool.js";
export type { DurableAgentRuns, DurableRunStatus } from "./durable-runs.js";
export { InMemoryEventStore, type InMemoryEventStoreOptions } from "./event-store.js";
export {
  createMCPHTTPHandler,
  type MCPHTTPAuthOptions,
  type MCPHTTPHandler,
  type MCPHTTPOptions,
} from "./http-handler.js";
export type { LegacySessionOptions } from "./legacy-sessions.js";
export type { MCPListKind } from "./list-changes.js";
export { createMCPServer, gateway, MCPServer } from "./mcp-server.js";
export {
  createPassThrough,
  type ForwardedMethod,
  type MCPPassThrough,
  type PassThroughOptions,
} from "./pass-through.js";
export type { RateLimitOptions } from "./rate-limit.js";
export {
  DEFAULT_GATEWAY_SEARCH_THRESHOLD,
  GATEWAY_CALL_TOOL,
  GATEWAY_SEARCH_TOOLS,
  type GatewaySearchMatch,
  type GatewaySearchOutput,
} from "./serve-gateway-search.js";
export type { MCPServerSkill, MCPServerSkillStorage, MCPServerSkills } from "./serve-skills.js";
export { type ServedQuestionOptions, type ServedToolContext, servedContext } from "./served-context.js";
export type {
  Era,
  GatewaySource,
  GatewayToolSearchOptions,
  MCPGatewayEntry,
  MCPRequestContext,
  MCPServeContext,
  MCPServedRequest,
  MCPServerOptions,
  MCPServerPrompt,
  MCPServerResource,
  MCPServerResourceTemplate,
} from "./served-types.js";
export {
  AGENT_TASK_VERSION,
  type AgentTaskRecord,
  type AgentTaskStatus,
  InMemoryTaskStore,
  type TaskStore,
} from "./task-store.js";
export { type TaskSupport, type TaskSupportOptions, withTaskSupport } from "./task-support.js";
