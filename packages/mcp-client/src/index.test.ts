import { describe, expect, it } from "vitest";
import * as mcpClient from "./index.js";

describe("@junction/mcp-client's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(mcpClient).sort()).toEqual([
      "IDEMPOTENCY_KEY_META",
      "MCP",
      "MCPPool",
      "MCPSkillVerificationError",
      "MCP_SKILLS_EXTENSION",
      "connectAll",
      "loadMCPConfig",
    ]);
  });
});
