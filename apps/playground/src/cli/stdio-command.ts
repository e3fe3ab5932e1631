import { serveStdio } from "@junction/mcp-server/stdio";
import { errorMessage } from "@junction/types";
import { openPlayground } from "../server/app.js";
import { toTerminalText as safe } from "./terminal-text.js";

/**
 * `pnpm playground serve --stdio`: the playground as an MCP server on this process's
 * stdin/stdout, for hosts that launch their servers (Claude Code, Cursor, the MCP Inspector): its
 * agent as `ask_playground` and its connected servers' tools as `<server>_<tool>`, the same server
 * the page's HTTP endpoint serves. Both protocol eras. Logs go to stderr: stdout carries the
 * protocol. Ends when the host closes stdin (or on SIGINT/SIGTERM).
 */
export async function runStdioCommand(options: {
  directory?: string;
  allowEnv?: readonly string[];
}): Promise<number> {
  const playground = await openPlayground({ directory: options.directory, allowEnv: options.allowEnv });
  for (const server of playground.registry.list()) {
    process.stderr.write(`${safe(server.name)}: ${server.status}\n`);
  }
  const server = await playground.endpoint.mcpServer();
  const handle = serveStdio(server, {
    onError: (error) => process.stderr.write(`${safe(errorMessage(error))}\n`),
  });
  await new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await handle.close();
  server.close();
  await playground.close();
  return 0;
}
