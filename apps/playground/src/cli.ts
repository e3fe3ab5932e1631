#!/usr/bin/env node
// The entry point loads only the option parser: each command's module (and through it the MCP
// client, the sandbox, the web server, …) is imported when that command runs, so `--help` and a
// mistyped option answer without loading them. A provider's package loads only when that provider
// is built (`createProvider`).
import { parseArgs } from "node:util";
import { errorMessage } from "@junction/types";
import { toTerminalText as safe } from "./cli/terminal-text.js";
import { parseAllowedVariables } from "./server/environment-allowance.js";

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
      if (values.stdio) {
        const { runStdioCommand } = await import("./cli/stdio-command.js");
        return runStdioCommand({ directory: values.dir, allowEnv });
      }
      return (await import("./cli/serve-command.js")).runServeCommand({ ...values, allowEnv });
    case "tools":
      return (await import("./cli/tools-command.js")).runToolsCommand({ directory: values.dir, allowEnv });
    case "rotate-key":
      return (await import("./cli/rotate-key-command.js")).runRotateKeyCommand(values.dir);
    case "chat":
      return (await import("./cli/chat-command.js")).runChatCommand({
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${errorMessage(error)}\n`);
    process.exit(1);
  },
);
