import { JunctionError } from "@junction/types";
import type { MCPConfig } from "./mcp-config.js";

/**
 * Checks a config before anything is started, so a mistake reads as what it is ("stdio needs a
 * command") rather than as whatever a spawn or a fetch makes of it later. Values that may be
 * secrets (env, headers, the URL) are described, never quoted.
 *
 * @throws JunctionError `mcp-config-invalid`, naming the server and the field
 */
export function checkMCPConfig(config: MCPConfig): void {
  const problem = findProblem(config);
  if (!problem) return;
  const name = isRecord(config) && typeof config.name === "string" ? ` "${config.name}"` : "";
  throw new JunctionError("mcp-config-invalid", `MCP server${name}: ${problem}`);
}

function findProblem(config: unknown): string | undefined {
  if (!isRecord(config)) return `the config must be an object, got ${shown(config)}`;
  const common = commonProblem(config);
  if (common) return common;
  switch (config.transport) {
    case "stdio":
      if (typeof config.command !== "string" || config.command.trim() === "")
        return `stdio needs \`command\`, the program to start (got ${shown(config.command)})`;
      if (config.args !== undefined && !isStringArray(config.args))
        return `\`args\` must be an array of strings (got ${shown(config.args)})`;
      if (config.env !== undefined && !isStringRecord(config.env))
        return "`env` must map variable names to string values";
      if (config.cwd !== undefined && typeof config.cwd !== "string")
        return `\`cwd\` must be a string (got ${shown(config.cwd)})`;
      return undefined;
    case "http":
    case "sse": {
      const url =
        typeof config.url === "string" && URL.canParse(config.url) ? new URL(config.url) : undefined;
      if (!url) return `${config.transport} needs \`url\`, a full http:// or https:// URL`;
      if (url.protocol !== "http:" && url.protocol !== "https:")
        return `\`url\` must use http: or https:, not ${url.protocol}`;
      if (config.headers !== undefined && !isStringRecord(config.headers))
        return "`headers` must map header names to string values";
      return undefined;
    }
    case "memory":
      if (!isRecord(config.server) || typeof config.server.connect !== "function")
        return "memory needs `server`, an McpServer or Server of @modelcontextprotocol/server";
      return undefined;
    default:
      return `unknown transport ${shown(config.transport)}; use "stdio", "http", "sse" or "memory"`;
  }
}

function commonProblem(config: Record<string, unknown>): string | undefined {
  if (config.name !== undefined && typeof config.name !== "string")
    return `\`name\` must be a string (got ${shown(config.name)})`;
  for (const field of ["timeoutMs", "connectTimeoutMs"] as const) {
    const value = config[field];
    if (value !== undefined && !(typeof value === "number" && value > 0 && Number.isFinite(value)))
      return `\`${field}\` must be a positive number of milliseconds (got ${shown(value)})`;
  }
  if (
    config.roots !== undefined &&
    !(
      Array.isArray(config.roots) &&
      config.roots.every((root) => isRecord(root) && typeof root.uri === "string")
    )
  )
    return "`roots` must be an array of { uri, name? }";
  if (
    config.extensions !== undefined &&
    !(isRecord(config.extensions) && Object.values(config.extensions).every((value) => isRecord(value)))
  )
    return "`extensions` must be an object of objects, keyed by extension identifier";
  if (config.skills !== undefined && typeof config.skills !== "boolean")
    return `\`skills\` must be true or false (got ${shown(config.skills)})`;
  if (
    config.protocolVersion !== undefined &&
    !PROTOCOL_VERSIONS.includes(config.protocolVersion as (typeof PROTOCOL_VERSIONS)[number])
  )
    return `\`protocolVersion\` must be ${PROTOCOL_VERSIONS.map((v) => JSON.stringify(v)).join(", ")} (got ${shown(config.protocolVersion)})`;
  if (config.protocolVersionHint !== undefined && typeof config.protocolVersionHint !== "string")
    return `\`protocolVersionHint\` must be a protocol revision such as "2025-11-25" (got ${shown(config.protocolVersionHint)})`;
  return undefined;
}

const PROTOCOL_VERSIONS = ["auto", "2026-07-28", "2025-11-25"] as const;

function shown(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((item) => typeof item === "string");
}
