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
  const entries = Object.entries(configs).map(([key, config]) => {
    let mcp: MCP | undefined;
    let error: Error | undefined;
    try {
      mcp = new MCP({ ...config, name: config.name ?? key });
    } catch (caught) {
      error = caught instanceof Error ? caught : new Error(String(caught));
    }
    return { name: config.name ?? key, mcp, error };
  });
  const outcomes = await Promise.allSettled(
    entries.map((entry) => (entry.mcp ? entry.mcp.connect() : Promise.reject(entry.error))),
  );
  const connected: MCP[] = [];
  const failed: { name: string; error: Error }[] = [];
  outcomes.forEach((outcome, index) => {
    const entry = entries[index];
    if (!entry) return;
    if (outcome.status === "fulfilled" && entry.mcp) connected.push(entry.mcp);
    else {
      const reason = outcome.status === "rejected" ? outcome.reason : entry.error;
      failed.push({ name: entry.name, error: reason instanceof Error ? reason : new Error(String(reason)) });
    }
  });
  return { connected, failed };
}
