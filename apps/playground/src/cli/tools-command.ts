import { openPlayground } from "../server/app.js";
import { toTerminalText as safe } from "./terminal-text.js";

/** `pnpm playground tools`: every configured server with its status and tools. */
export async function runToolsCommand(options: {
  directory?: string;
  allowEnv?: readonly string[];
}): Promise<number> {
  const playground = await openPlayground({ directory: options.directory, allowEnv: options.allowEnv });
  let failures = 0;
  try {
    for (const server of playground.registry.list()) {
      if (server.status !== "connected") {
        if (server.status === "error") failures++;
        process.stdout.write(
          `${safe(server.name)} (${server.status})${server.error ? `: ${safe(server.error)}` : ""}\n\n`,
        );
        continue;
      }
      const tools = await playground.registry.client(server.id).listToolDefinitions();
      process.stdout.write(`${safe(server.name)} (connected, ${tools.length} tools)\n`);
      for (const tool of tools) {
        const description = safe(String(tool.description ?? ""))
          .replace(/\s+/g, " ")
          .trim();
        const short = description.length > 90 ? `${description.slice(0, 89)}…` : description;
        process.stdout.write(`  ${safe(`${server.name}_${tool.name}`)}${short ? ` — ${short}` : ""}\n`);
      }
      process.stdout.write("\n");
    }
  } finally {
    await playground.close();
  }
  return failures > 0 ? 1 : 0;
}
