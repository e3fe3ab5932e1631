import { type StdioServerHandle, serveStdio as serveSDKStdio } from "@modelcontextprotocol/server/stdio";
import type { MCPServer } from "./mcp-server.js";

/** What `serveStdio()` takes. */
export interface ServeStdioOptions {
  /** Reports errors the SDK handled out of band (never changes what is written). */
  onError?: (error: Error) => void;
}

/**
 * Serves an `MCPServer` on this process's stdin/stdout, both protocol eras (the SDK's
 * `serveStdio`: `server/discover` for 2026-07-28 clients, `initialize` for 2025 ones). Write
 * logs to stderr: stdout carries the protocol.
 *
 * @example
 * ```ts
 * import { serveStdio } from "@junction/mcp-server/stdio";
 * serveStdio(createMCPServer({ name: "notes", version: "1.0.0", tools: [add] }));
 * ```
 */
export function serveStdio(server: MCPServer, options: ServeStdioOptions = {}): StdioServerHandle {
  return serveSDKStdio(server.factory, options.onError ? { onerror: options.onError } : {});
}

export type { StdioServerHandle };
