import { describe, expect, it } from "vitest";
import * as mcpServer from "./index.js";

describe("@junction/mcp-server's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(mcpServer).sort()).toEqual([
      "AGENT_TASK_VERSION",
      "DEFAULT_GATEWAY_SEARCH_THRESHOLD",
      "GATEWAY_CALL_TOOL",
      "GATEWAY_SEARCH_TOOLS",
      "InMemoryEventStore",
      "InMemoryTaskStore",
      "MCPServer",
      "TASKS_EXTENSION",
      "agentTool",
      "createMCPHTTPHandler",
      "createMCPServer",
      "createPassThrough",
      "gateway",
      "servedContext",
      "withTaskSupport",
    ]);
  });
});
