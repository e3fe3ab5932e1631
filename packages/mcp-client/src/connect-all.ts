import { JunctionError } from "@junction/types";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";

/**
 * Connects to every server in parallel. One broken server never stops the others: it lands
 * in `failed` with its error, the rest in `connected` (in the order of the record).
 *
 * @example
 * ```ts
 * const { connected, failed } = await connectAll(loadMCPConfig("./mcp.json"));
 * for (const { name, error } of failed) console.warn(`${name}: ${error.message}`);
 * ```
 */
export async function connectAll(
  configs: Record<string, MCPConfig>,
): Promise<{ connected: MCP[]; failed: { name: string; error: Error }[] }> {
  const outcomes = await Promise.all(
    Object.entries(configs).map(
      async ([key, config]): Promise<{ name: string; mcp: MCP } | { name: string; error: Error }> => {
        const name = config.name ?? key;
        try {
          const mcp = new MCP({ ...config, name });
          await mcp.connect();
          return { name, mcp };
        } catch (error) {
          return { name, error: asError(error, name) };
        }
      },
    ),
  );
  const connected: MCP[] = [];
  const failed: { name: string; error: Error }[] = [];
  for (const outcome of outcomes) {
    if ("mcp" in outcome) connected.push(outcome.mcp);
    else failed.push(outcome);
  }
  return { connected, failed };
}

/** What was thrown, as an Error that names the server when it was not an Error already. */
function asError(thrown: unknown, name: string): Error {
  if (thrown instanceof Error) return thrown;
  return new JunctionError(
    "mcp-connect-failed",
    `MCP server "${name}" failed to connect: ${String(thrown)}`,
    {
      cause: thrown,
    },
  );
}
