#!/usr/bin/env node
import { parseArgs } from "node:util";
import { errorMessage } from "@junction/types";
import { runChatCommand } from "./cli/chat-command.js";
import { runStdioCommand } from "./cli/stdio-command.js";
import { toTerminalText as safe } from "./cli/terminal-text.js";
import { runToolsCommand } from "./cli/tools-command.js";
import { openPlayground } from "./server/app.js";
import { prepareDataDir } from "./server/data-dir.js";
import { parseAllowedVariables } from "./server/environment-allowance.js";
import { startHttpServer } from "./server/http-server.js";
import { rotateRunStateKey } from "./server/run-state-keys.js";
import { createToken, isLoopbackAddress } from "./server/security.js";

const usage = `Junction playground

  pnpm playground                 start the web app (chat + MCP inspector) on 127.0.0.1
  pnpm --silent playground serve --stdio
                                  serve the playground's agent and its servers' tools as an MCP
                                  server on stdin/stdout (for hosts that launch servers: Claude
                                  Code, Cursor); logs on stderr
  pnpm playground chat "prompt"   run one prompt in the terminal; without a prompt: interactive
  pnpm playground tools           list the tools of every configured server
  pnpm playground rotate-key      sign stored runs with a new key from now on (older keys are kept)

Options:
  --port <n>          web app port (default: a free one)
  --host <address>    loopback address to listen on (default 127.0.0.1; loopback only)
  --provider <id>     chat: anthropic | openai | gemini | openai-compatible | offline
  --model <name>      chat: the model id
  --yes               chat: approve every tool call without asking
  --code-mode <where> chat: let the model write programs that call the tools, run in the playground's
                      QuickJS sandbox (sandbox) or by the vendor (provider: Claude Sonnet/Opus 4.5+,
                      GPT-5.6); off turns it off for --conversation (default: off, or the conversation's)
  --conversation <id> chat: continue this conversation (printed when a run waits for approval)
  --approve <call>    chat: approve this waiting call of --conversation, its id as printed (repeatable)
  --deny <call>       chat: deny this waiting call of --conversation, its id as printed (repeatable)
                      (chat exits with 3 when a call waits for approval and no one could answer it)
  --dir <path>        data folder (default $JUNCTION_PLAYGROUND_DIR or ~/.junction-playground)
  --allow-env <names> variables server configs may expand as \${NAME}, e.g. --allow-env HOME,GITHUB_TOKEN
                      (comma-separated, repeatable; none by default: configs come from the page,
                      so provider keys and other secrets stay out unless you name them here)
`;

async function main(): Promise<number> {
  // `pnpm playground …` runs `start -- …`: drop that separator so options still parse.
  const args = process.argv.slice(2);
  if (args[0] === "--") args.shift();
  const parsed = parseOptions(args);
  if (typeof parsed === "string") {
    process.stderr.write(`${parsed}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const [command = "serve", ...rest] = positionals;
  let allowEnv: string[];
  try {
    allowEnv = parseAllowedVariables(values["allow-env"] ?? []);
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n`);
    return 2;
  }
  switch (command) {
    case "serve":
      if (values.stdio) return runStdioCommand({ directory: values.dir, allowEnv });
      return serve({ ...values, allowEnv });
    case "tools":
      return runToolsCommand({ directory: values.dir, allowEnv });
    case "rotate-key":
      return rotateKey(values.dir);
    case "chat":
      return runChatCommand({
        allowEnv,
        directory: values.dir,
        prompt: rest.join(" ").trim() || undefined,
        provider: values.provider,
        model: values.model,
        approveAll: values.yes ?? false,
        ...(values["code-mode"] !== undefined ? { codeMode: values["code-mode"] } : {}),
        ...(values.conversation !== undefined ? { conversation: values.conversation } : {}),
        ...(values.approve ? { approve: values.approve } : {}),
        ...(values.deny ? { deny: values.deny } : {}),
      });
    default:
      process.stderr.write(`Unknown command ${JSON.stringify(command)}.\n\n${usage}`);
      return 2;
  }
}

/** The command line's options and words, or what is wrong with it, said for a person. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        provider: { type: "string" },
        model: { type: "string" },
        yes: { type: "boolean", default: false },
        "code-mode": { type: "string" },
        conversation: { type: "string" },
        approve: { type: "string", multiple: true },
        deny: { type: "string", multiple: true },
        dir: { type: "string" },
        "allow-env": { type: "string", multiple: true },
        stdio: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message;
      return `Unknown option ${safe(option)}. The options are listed below.`;
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const option = /'(--?[\w-]+)/.exec(message)?.[1];
      if (!option) return safe(message);
      return message.includes("does not take an argument")
        ? `The option ${option} takes no value.`
        : `The option ${option} needs a value, as in ${option} <value>.`;
    }
    throw error;
  }
}

/** `rotate-key`: a new key signs from the next start on; the older ones stay to verify. */
function rotateKey(directory: string | undefined): number {
  const { runStateKeyFile } = prepareDataDir(directory);
  const { id, kept } = rotateRunStateKey(runStateKeyFile);
  process.stdout.write(
    `New run-state key ${safe(id)} in ${safe(runStateKeyFile)}; ${kept === 1 ? "1 older key" : `${kept} older keys`} kept, so the runs they signed still resume.\n` +
      "Restart a running playground to sign with it.\n",
  );
  return 0;
}

async function serve(values: {
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${errorMessage(error)}\n`);
    process.exit(1);
  },
);
