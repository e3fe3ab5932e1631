import type { MCPConfig } from "./mcp-config.js";

/**
 * The servers this process found speaking only the 2025 handshake, so that a later connection to
 * the same server (a reconnect, another `MCP` for the same config, `connectAll` run again) skips
 * the `server/discover` probe it would refuse. Keyed by what identifies a server: the command
 * line, working directory and environment of a stdio server, the URL of a remote one. Only the
 * "auto" negotiation uses it; a verdict that no longer holds is forgotten at its first failure.
 */
const legacyServers = new Set<string>();
/** Bounds the memory of a process that connects to many servers over its life. */
const MAX_REMEMBERED = 512;

/** The revisions of the 2025 handshake (`initialize`), from oldest to newest. */
const LEGACY_REVISIONS = new Set(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);

/** Whether a protocol revision is one of the `initialize` era. */
export function isLegacyRevision(revision: string | undefined): boolean {
  return revision !== undefined && LEGACY_REVISIONS.has(revision);
}

/** What identifies the server a config reaches, or undefined for an in-process one. */
function serverIdentity(config: MCPConfig): string | undefined {
  switch (config.transport) {
    case "stdio": {
      const env = Object.entries(config.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return JSON.stringify(["stdio", config.command, config.args ?? [], config.cwd ?? "", env]);
    }
    case "http":
    case "sse":
      return JSON.stringify([config.transport, config.url]);
    default:
      return undefined;
  }
}

/** Whether this process found the config's server legacy (and has not seen that fail since). */
export function rememberedLegacy(config: MCPConfig): boolean {
  const identity = serverIdentity(config);
  return identity !== undefined && legacyServers.has(identity);
}

/** Records the era a connection to the config's server negotiated (or forgets it: undefined). */
export function rememberEra(config: MCPConfig, era: "modern" | "legacy" | undefined): void {
  const identity = serverIdentity(config);
  if (identity === undefined) return;
  legacyServers.delete(identity);
  if (era !== "legacy") return;
  if (legacyServers.size >= MAX_REMEMBERED) {
    const oldest = legacyServers.values().next().value;
    if (oldest !== undefined) legacyServers.delete(oldest);
  }
  legacyServers.add(identity);
}

/** Forgets every verdict (for tests that watch the probe). */
export function forgetRememberedEras(): void {
  legacyServers.clear();
}
