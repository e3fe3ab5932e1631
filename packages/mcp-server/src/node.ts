import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { nodeSkillFiles } from "@modelcontextprotocol/server/ext/skills/node";
import { createMCPHTTPHandler, type MCPHTTPHandler, type MCPHTTPOptions } from "./http-handler.js";
import type { MCPServer } from "./mcp-server.js";
import type { MCPServerSkillStorage } from "./serve-skills.js";

/** What `serveHTTP()` takes: where to listen, and the endpoint's options. */
export interface ServeHTTPOptions extends MCPHTTPOptions {
  /**
   * The port; 0 picks a free one (read it from `url`).
   * @default 0
   */
  port?: number;
  /**
   * The interface to listen on. Listening beyond loopback needs `allowedHosts` to name the
   * host clients reach the server by.
   * @default "127.0.0.1"
   */
  hostname?: string;
}

/** A running HTTP server. */
export interface RunningHTTPServer {
  /** The MCP endpoint's URL, for example `http://127.0.0.1:3000/mcp`. */
  url: string;
  handler: MCPHTTPHandler;
  /** Stops listening and closes every session. */
  close(): Promise<void>;
}

/**
 * Serves an `MCPServer` over Streamable HTTP on Node (`@hono/node-server`), loopback by default.
 *
 * @example
 * ```ts
 * import { serveHTTP } from "@junction/mcp-server/node";
 * const { url } = await serveHTTP(server, { port: 3000 });
 * ```
 */
export async function serveHTTP(
  server: MCPServer,
  options: ServeHTTPOptions = {},
): Promise<RunningHTTPServer> {
  const { port = 0, hostname = "127.0.0.1", ...httpOptions } = options;
  const handler = createMCPHTTPHandler(server, httpOptions);
  const { listener, address } = await new Promise<{
    listener: ReturnType<typeof serve>;
    address: AddressInfo;
  }>((resolve) => {
    const listener = serve({ fetch: handler.fetch, port, hostname }, (info) =>
      resolve({ listener, address: info }),
    );
  });
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${httpOptions.path ?? "/mcp"}`,
    handler,
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        // Open SSE streams would hold `close` forever.
        (listener as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
export { fileTaskStore } from "./file-task-store.js";

/**
 * The skills in a folder of skill folders, each with its `SKILL.md` (and any other files), for
 * `createMCPServer({ skills })`. Hidden files are not served; a symbolic link or other special
 * file refuses its skill (the SDK's `nodeSkillFiles`).
 *
 * @example
 * ```ts
 * const server = createMCPServer({ name: "docs", version: "1.0.0", skills: skillsDirectory("./skills") });
 * ```
 */
export function skillsDirectory(path: string): MCPServerSkillStorage {
  const root = resolve(path);
  return { files: nodeSkillFiles(root), origin: root };
}
