import { JunctionError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { connectAll } from "./connect-all.js";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";

function rejected(config: unknown): JunctionError {
  try {
    new MCP(config as MCPConfig);
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("MCP config checks", () => {
  it.each([
    [{ transport: "stdio" }, "MCP server: stdio needs `command`, the program to start (got undefined)"],
    [
      { transport: "stdio", command: "node", args: "server.js", name: "files" },
      'MCP server "files": `args` must be an array of strings (got "server.js")',
    ],
    [
      { transport: "stdio", command: "node", env: { TOKEN: 42 } },
      "MCP server: `env` must map variable names to string values",
    ],
    [{ transport: "http", url: "not a url" }, "MCP server: http needs `url`, a full http:// or https:// URL"],
    [
      { transport: "sse", url: "ftp://example.com/sse" },
      "MCP server: `url` must use http: or https:, not ftp:",
    ],
    [
      { transport: "http", url: "https://example.com/mcp", headers: { Authorization: ["Bearer x"] } },
      "MCP server: `headers` must map header names to string values",
    ],
    [
      { transport: "stdio", command: "node", skills: "yes" },
      'MCP server: `skills` must be true or false (got "yes")',
    ],
    [
      { transport: "memory", server: {} },
      "MCP server: memory needs `server`, an McpServer or Server of @modelcontextprotocol/server",
    ],
    [
      { transport: "pigeon", name: "coop" },
      'MCP server "coop": unknown transport "pigeon"; use "stdio", "http", "sse" or "memory"',
    ],
    [
      { transport: "stdio", command: "node", timeoutMs: -1 },
      "MCP server: `timeoutMs` must be a positive number of milliseconds (got number -1)",
    ],
    [
      { transport: "stdio", command: "node", roots: ["file:///x"] },
      "MCP server: `roots` must be an array of { uri, name? }",
    ],
    [
      { transport: "stdio", command: "node", protocolVersion: "2024-11-05" },
      'MCP server: `protocolVersion` must be "auto", "2026-07-28", "2025-11-25" (got "2024-11-05")',
    ],
    ["stdio", 'MCP server: the config must be an object, got "stdio"'],
  ])("rejects %j before starting anything", (config, message) => {
    const error = rejected(config);
    expect(error.code).toBe("mcp-config-invalid");
    expect(error.message).toBe(message);
  });

  it("never quotes a URL, header or env value, which may be secret", () => {
    const secret = "sk-live-abcdef123456";
    for (const config of [
      { transport: "http", url: `${secret} not a url` },
      { transport: "http", url: "https://example.com", headers: { Authorization: [secret] } },
      { transport: "stdio", command: "node", env: { KEY: { value: secret } } },
    ]) {
      expect(rejected(config).message).not.toContain(secret);
    }
  });

  it("puts a malformed config among connectAll's failures, named by its key", async () => {
    const { connected, failed } = await connectAll({ broken: { transport: "stdio" } as MCPConfig });
    expect(connected).toEqual([]);
    expect(failed.map(({ name, error }) => [name, (error as JunctionError).code, error.message])).toEqual([
      [
        "broken",
        "mcp-config-invalid",
        'MCP server "broken": stdio needs `command`, the program to start (got undefined)',
      ],
    ]);
  });
});
