import { type StdioServerHandle, serveStdio as serveSDKStdio } from "@modelcontextprotocol/server/stdio";
import type { MCPServer } from "./mcp-server.js";
import { LineAnsweringStdioTransport, type StdioTransportOptions } from "./stdio-transport.js";

/** What `serveStdio()` takes. */
export interface ServeStdioOptions extends StdioTransportOptions {
  /** Reports errors the SDK handled out of band (never changes what is written). */
  onError?: (error: Error) => void;
}

/**
 * Serves an `MCPServer` on this process's stdin/stdout, both protocol eras (the SDK's
 * `serveStdio`: `server/discover` for 2026-07-28 clients, `initialize` for 2025 ones). Write
 * logs to stderr: stdout carries the protocol. A line that is not a JSON-RPC message is answered
 * with -32700 (not JSON) or -32600 (not JSON-RPC; `id: null` when it has no usable id), named in
 * a line on stderr, and the server goes on serving.
 *
 * @example
 * ```ts
 * import { serveStdio } from "@junction/mcp-server/stdio";
 * serveStdio(createMCPServer({ name: "notes", version: "1.0.0", tools: [add] }));
 * ```
 */
export function serveStdio(server: MCPServer, options: ServeStdioOptions = {}): StdioServerHandle {
  const { onError, ...streams } = options;
  return serveSDKStdio(server.factory, {
    transport: new LineAnsweringStdioTransport(streams),
    ...(onError ? { onerror: onError } : {}),
  });
}

export type { StdioServerHandle };
