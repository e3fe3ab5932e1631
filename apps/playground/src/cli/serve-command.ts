import { errorMessage } from "@junction/types";
import { openPlayground } from "../server/app.js";
import { startHttpServer } from "../server/http-server.js";
import { createToken, isLoopbackAddress } from "../server/security.js";
import { toTerminalText as safe } from "./terminal-text.js";

/**
 * `pnpm playground` (`serve`): the web app on a loopback address, until SIGINT or SIGTERM; its
 * servers' status, the chat providers and the URL (with its token) printed as it starts.
 */
export async function runServeCommand(values: {
  port?: string;
  host?: string;
  dir?: string;
  allowEnv: string[];
}): Promise<number> {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be a port number, got ${JSON.stringify(values.port)}.\n`);
    return 2;
  }
  if (values.host !== undefined && !isLoopbackAddress(values.host)) {
    process.stderr.write(
      `The playground listens on loopback only; ${values.host} is not a loopback address.\n`,
    );
    return 2;
  }
  process.stderr.write("Starting the Junction playground: connecting the configured MCP servers…\n");
  const playground = await openPlayground({
    directory: values.dir,
    allowEnv: values.allowEnv,
    ...(values.host ? { host: values.host } : {}),
  });
  const token = createToken();
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer(playground, { host: values.host, port, token });
  } catch (error) {
    await playground.close();
    process.stderr.write(`${errorMessage(error)}\n`);
    return 1;
  }
  for (const server of playground.registry.list()) {
    process.stderr.write(
      `  ${server.status === "connected" ? "✓" : "✗"} ${safe(server.name)}: ${server.status}${server.error ? ` — ${safe(server.error.split("\n")[0]!)}` : ""}\n`,
    );
  }
  const providers = playground.providers.providers();
  const real = providers.filter((provider) => provider.id !== "offline");
  process.stderr.write(
    real.length
      ? `  chat providers: ${safe(real.map((provider) => `${provider.label} (from ${provider.source})`).join(", "))}, and the offline scripted model\n`
      : "  no API key found: chat uses the offline scripted model (set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or an OpenAI-compatible URL for a real one)\n",
  );
  process.stderr.write(
    values.allowEnv.length
      ? `  server configs may expand: ${values.allowEnv.join(", ")} (--allow-env; their values are masked on the page)\n`
      : "  server configs expand no environment variables (name them with --allow-env)\n",
  );
  process.stderr.write(`  data: ${playground.dataDir.root}\n\n`);
  process.stdout.write(`Junction playground: ${http.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  process.stderr.write("\nStopping…\n");
  await http.close();
  await playground.close();
  return 0;
}
