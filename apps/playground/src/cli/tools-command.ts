import { openPlayground } from "../server/app.js";

/** `pnpm playground tools`: every configured server with its status and tools. */
export async function runToolsCommand(options: { directory?: string }): Promise<number> {
  const playground = await openPlayground({ directory: options.directory });
  let failures = 0;
  try {
    for (const server of playground.registry.list()) {
      if (server.status !== "connected") {
        if (server.status === "error") failures++;
        process.stdout.write(
          `${server.name} (${server.status})${server.error ? `: ${server.error}` : ""}\n\n`,
        );
        continue;
      }
      const tools = await playground.registry.client(server.id).listToolDefinitions();
      process.stdout.write(`${server.name} (connected, ${tools.length} tools)\n`);
      for (const tool of tools) {
        const description = tool.description.replace(/\s+/g, " ").trim();
        const short = description.length > 90 ? `${description.slice(0, 89)}…` : description;
        process.stdout.write(`  ${server.name}_${tool.name}${short ? ` — ${short}` : ""}\n`);
      }
      process.stdout.write("\n");
    }
  } finally {
    await playground.close();
  }
  return failures > 0 ? 1 : 0;
}
