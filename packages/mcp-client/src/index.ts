export { connectAll } from "./connect-all.js";
export {
  type LoadMCPConfigOptions,
  loadMCPConfig,
  type MCPConfigSubstitution,
  type MCPConfigWarning,
} from "./load-mcp-config.js";
export {
  MCP,
  type MCPCallToolOptions,
  type MCPCompletionReference,
  type MCPCompletionRequest,
  type MCPConnectionState,
  type MCPRequestOptions,
} from "./mcp.js";
export type {
  MCPCommon,
  MCPConfig,
  MCPHandlers,
  MCPHttpConfig,
  MCPInProcessServer,
  MCPLogMessage,
  MCPMemoryConfig,
  MCPProtocolVersion,
  MCPReconnectOptions,
  MCPRoot,
  MCPSseConfig,
  MCPStdioConfig,
} from "./mcp-config.js";
export { MCPPool } from "./mcp-pool.js";
export { IDEMPOTENCY_KEY_META } from "./mcp-tools.js";
export type { MCPWarning } from "./mcp-warning.js";
export type { MCPJSONRPCMessage, MCPOutgoingRequest, MCPWireMessage } from "./message-tap.js";
export {
  MCP_SKILLS_EXTENSION,
  type MCPInvalidSkillEntry,
  type MCPSkillDocument,
  type MCPSkillFile,
  type MCPSkillListing,
  MCPSkillVerificationError,
  type MCPSkillVerificationReason,
} from "./skills.js";
