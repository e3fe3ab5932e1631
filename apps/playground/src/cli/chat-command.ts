import { createInterface } from "node:readline";
import { type ElicitResult, errorMessage } from "@junction/types";
import { openPlayground, type Playground } from "../server/app.js";
import type { ChatEvent } from "../server/chat-service.js";
import { isCodeModeSetting, providerModeRefusal } from "../server/code-mode-setting.js";
import { unavailableProviderMessage } from "../server/providers.js";
import type { ElicitationRequest } from "../shared/api-types.js";
import { toTerminalText as safe, toTerminalWord } from "./terminal-text.js";

/** What `chat` exits with when its run waits for an approval nobody could give in the terminal. */
export const EXIT_WAITING_FOR_APPROVAL = 3;

/**
 * `pnpm playground chat "…"`: one prompt with streamed output and every tool call shown;
 * without a prompt, an interactive session. Approvals and elicitations are asked in the terminal.
 * With no one to answer (stdin ended), a call that needs approval leaves the run waiting: the
 * command prints the pending calls and the commands that approve or deny them
 * (`--conversation <id> --approve <call>`), and exits with {@link EXIT_WAITING_FOR_APPROVAL}.
 */
export async function runChatCommand(options: {
  directory?: string;
  prompt?: string;
  provider?: string;
  model?: string;
  approveAll: boolean;
  /**
   * `--code-mode`: `sandbox`, `provider` or `off`, checked here (anything else, or `provider` on a
   * model that does not run programs, exits 2). A new conversation is `off` without it; one
   * continued keeps its own.
   */
  codeMode?: string;
  /** Continue this conversation instead of starting one (its waiting run, with `approve`/`deny`). */
  conversation?: string;
  /** Call ids of the conversation's waiting run to approve, as printed ({@link toTerminalWord}). */
  approve?: readonly string[];
  /** Call ids of the conversation's waiting run to deny, as printed ({@link toTerminalWord}). */
  deny?: readonly string[];
  /** The variables server configs may expand (`--allow-env`). */
  allowEnv?: readonly string[];
}): Promise<number> {
  const { codeMode } = options;
  if (codeMode !== undefined && !isCodeModeSetting(codeMode)) {
    // Said before any server starts.
    process.stderr.write(
      `--code-mode must be sandbox, provider or off, not ${JSON.stringify(safe(codeMode))}.\n`,
    );
    return 2;
  }
  const playground = await openPlayground({ directory: options.directory, allowEnv: options.allowEnv });
  const interactive = options.prompt === undefined;
  const terminal = process.stdin.isTTY === true;
  const readline = new LineReader(terminal);
  const unlisten = playground.hub.listen((event) => {
    if (event.type === "elicitation-request")
      void answerElicitation({ playground, readline, terminal }, event);
  });
  let failed = false;
  try {
    for (const server of playground.registry.list()) {
      if (server.status === "error")
        process.stderr.write(`! ${safe(server.name)} is not connected: ${safe(server.error ?? "")}\n`);
    }
    const providers = playground.providers.providers();
    const provider = providers.find((candidate) => candidate.id === (options.provider ?? providers[0]!.id));
    if (!provider) {
      process.stderr.write(`${unavailableProviderMessage(safe(options.provider ?? ""), providers)}\n`);
      return 2;
    }
    const model = options.model ?? provider.defaultModel;
    if (codeMode === "provider" && !(await playground.providers.runsPrograms(provider.id, model))) {
      const refusal = providerModeRefusal({
        provider: safe(provider.id),
        model: safe(model),
        choices: "--code-mode sandbox (or off)",
      });
      process.stderr.write(`--code-mode provider: ${refusal}\n`);
      return 2;
    }
    if (provider.id === "offline") {
      process.stderr.write(
        "[offline scripted model: no API key found; it picks tools from your words, it is not an LLM]\n",
      );
    } else
      process.stderr.write(
        `[${safe(provider.label)}, model ${safe(options.model ?? provider.defaultModel)}]\n`,
      );
    let conversationId: string;
    if (options.conversation !== undefined) {
      if (!playground.store.getConversation(options.conversation)) {
        process.stderr.write(`There is no conversation ${safe(options.conversation)} in this data folder.\n`);
        return 2;
      }
      conversationId = options.conversation;
      // Checked above: the mode of the conversation's next turns (a waiting run resumes in its own).
      if (codeMode !== undefined)
        await playground.chat.setCodeMode(conversationId, {
          mode: codeMode,
          provider: provider.id,
          model,
        });
    } else {
      conversationId = (
        await playground.chat.createConversation({
          provider: provider.id,
          model: options.model,
          ...(codeMode !== undefined ? { codeMode } : {}),
        })
      ).id;
    }
    /** Runs `work` with Ctrl-C stopping it, printing its events. */
    const streamed = async (
      work: (signal: AbortSignal, print: (event: ChatEvent) => void) => Promise<void>,
    ) => {
      const controller = new AbortController();
      const onSignal = () => controller.abort();
      process.once("SIGINT", onSignal);
      try {
        await work(controller.signal, (event) => {
          printEvent(event);
          if (event.type === "error" && !event.aborted) failed = true;
        });
      } finally {
        process.off("SIGINT", onSignal);
      }
    };
    const answer = (callId: string, approve: boolean) =>
      streamed((signal, print) =>
        playground.chat.answerApproval(conversationId, { callId, approve, signal }, print),
      );
    /** The --approve and --deny ids that named a waiting call. */
    const used = new Set<string>();
    /** Whether the stored run failed its signature check (then no call is answered at all). */
    let refused = false;
    /** Answers the waiting run's calls (the given decisions, --yes, or the terminal); false when one is left waiting. */
    const settleApprovals = async (): Promise<boolean> => {
      for (;;) {
        let waiting: Awaited<ReturnType<typeof playground.chat.pendingApprovals>>;
        try {
          // Checked against the data folder's key first: a stored run that was changed is refused.
          waiting = await playground.chat.pendingApprovals(conversationId);
        } catch (error) {
          process.stderr.write(`✗ ${safe(errorMessage(error))}\n`);
          failed = true;
          refused = true;
          return true;
        }
        const call = waiting[0];
        if (!call) return true;
        // Ids are given as printed: escaped, so a model-chosen id cannot hide what it is.
        const printed = toTerminalWord(call.id);
        if (options.approve?.includes(printed) || options.deny?.includes(printed)) used.add(printed);
        let approve: boolean;
        if (options.approve?.includes(printed) || options.approveAll) approve = true;
        else if (options.deny?.includes(printed)) approve = false;
        else {
          const line = await readline.question(
            `? Allow ${safe(call.name)} with ${safe(JSON.stringify(call.input))}? [y/N] `,
          );
          if (line === undefined) {
            printWaiting({ conversationId, pending: waiting, directory: options.directory });
            return false;
          }
          approve = /^y(es)?$/i.test(line.trim());
        }
        await answer(call.id, approve);
      }
    };
    const turn = async (text: string) => {
      await streamed((signal, print) =>
        playground.chat.runTurn(
          conversationId,
          { text, provider: provider.id, model: options.model, signal },
          print,
        ),
      );
      return settleApprovals();
    };
    if (options.conversation !== undefined && options.prompt === undefined) {
      // Answering a waiting run: the decisions given, then the terminal for anything else.
      const settled = await settleApprovals();
      for (const id of [...(options.approve ?? []), ...(options.deny ?? [])]) {
        if (!used.has(id) && !refused)
          process.stderr.write(
            `! No call ${safe(id)} was waiting for approval in this conversation (give the id as printed, escapes included).\n`,
          );
      }
      if (!settled) return EXIT_WAITING_FOR_APPROVAL;
      return failed ? 1 : 0;
    }
    if (!interactive) {
      if (!(await turn(options.prompt!))) return EXIT_WAITING_FOR_APPROVAL;
      return failed ? 1 : 0;
    }
    process.stderr.write('Interactive chat. Type a message; "/exit" or Ctrl-D to leave.\n');
    for (;;) {
      const line = await readline.question("you> ");
      if (line === undefined || line.trim() === "/exit") break;
      if (line.trim() === "") continue;
      if (!(await turn(line))) return EXIT_WAITING_FOR_APPROVAL;
    }
    return 0;
  } finally {
    unlisten();
    readline.close();
    await playground.close();
  }
}

/**
 * Lines from stdin, queued: piped input works as well as a terminal, and questions asked while
 * a turn runs (approvals, elicitations) take the next line. `undefined` once input has ended.
 */
class LineReader {
  readonly #lines: string[] = [];
  readonly #waiting: ((line: string | undefined) => void)[] = [];
  #ended = false;
  readonly #interface;

  constructor(terminal: boolean) {
    this.#interface = createInterface({ input: process.stdin, terminal });
    this.#interface.on("line", (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
    this.#interface.on("close", () => {
      this.#ended = true;
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }

  question(prompt: string): Promise<string | undefined> {
    process.stderr.write(prompt);
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  close(): void {
    this.#interface.close();
  }
}

/** Tells the person which calls wait and the commands that answer them. */
function printWaiting(parts: {
  conversationId: string;
  pending: readonly { id: string; name: string; input: unknown }[];
  directory: string | undefined;
}): void {
  const where = parts.directory ? ` --dir ${shellWord(parts.directory)}` : "";
  const command = `pnpm playground chat${where} --conversation ${parts.conversationId}`;
  const lines = [
    `\n… The run is waiting for approval of ${parts.pending.length === 1 ? "1 call" : `${parts.pending.length} calls`} (no one to ask here):`,
  ];
  for (const call of parts.pending) {
    // The id escaped, not stripped: the command names exactly this call, and shows nothing hidden.
    const id = toTerminalWord(call.id);
    lines.push(`  ${id}  ${safe(call.name)} ${safe(JSON.stringify(call.input))}`);
    lines.push(`    approve: ${command} --approve ${shellWord(id)}`);
    lines.push(`    deny:    ${command} --deny ${shellWord(id)}`);
  }
  process.stderr.write(`${lines.join("\n")}\n`);
}

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function printEvent(event: ChatEvent): void {
  const out = process.stdout;
  switch (event.type) {
    case "run-start":
    case "trace":
    case "context":
      break;
    case "output":
      out.write(`\n${safe(JSON.stringify(event.output, null, 2))}\n`);
      break;
    case "text-delta":
      out.write(safe(event.text));
      break;
    case "tool-call":
      out.write(
        safe(`\n→ ${event.name}${event.server ? ` [${event.server}]` : ""} ${JSON.stringify(event.input)}`) +
          "\n",
      );
      break;
    case "approval-request":
      out.write(`  needs approval\n`);
      break;
    case "approval-answered":
      out.write(`  ${event.approved ? "approved" : "denied"}\n`);
      break;
    case "tool-input-delta":
    case "tool-progress":
      break;
    case "tool-result":
      out.write(
        `← ${safe(event.name)} ${event.result.isError ? "failed" : "done"} in ${event.durationMs} ms: ${safe(summarise(event.result))}\n`,
      );
      if (event.truncated) out.write(`  (${safe(event.truncated)})\n`);
      break;
    case "warning":
      process.stderr.write(`! ${safe(event.message)}\n`);
      break;
    case "error":
      process.stderr.write(`\n${event.aborted ? "" : "✗ "}${safe(event.message)}\n`);
      break;
    case "finish":
      out.write("\n");
      break;
    default: {
      const unknown: never = event;
      process.stderr.write(`! unknown event ${safe(JSON.stringify(unknown))}\n`);
    }
  }
}

function summarise(result: Extract<ChatEvent, { type: "tool-result" }>["result"]): string {
  const parts = result.content.map((part) => {
    switch (part.type) {
      case "text":
        return part.text.length > 200 ? `${part.text.slice(0, 200)}…` : part.text;
      case "image":
        return `[image ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`;
      case "audio":
        return `[audio ${part.mimeType}]`;
      case "resource":
        return `[resource ${part.resource.uri}]`;
      case "resource_link":
        return `[link ${part.uri}]`;
      default: {
        const unknown: never = part;
        return `[unknown part ${JSON.stringify(unknown).slice(0, 60)}]`;
      }
    }
  });
  return parts.join(" ").replace(/\s+/g, " ");
}

async function answerElicitation(
  { playground, readline, terminal }: { playground: Playground; readline: LineReader; terminal: boolean },
  event: ElicitationRequest,
): Promise<void> {
  if (event.kind === "sampling") {
    // The message is everything the model would receive, uncut: shown whole before any answer.
    process.stderr.write(`\n${safe(event.message)}\n`);
    const accept = terminal
      ? await readline.question("  Accept and send it to the model? [y/N] ")
      : undefined;
    if (!terminal) process.stderr.write("! declined: no terminal to ask in.\n");
    playground.elicitation.answer(event.id, {
      action: accept !== undefined && /^y/i.test(accept.trim()) ? "accept" : "decline",
    });
    return;
  }
  if (!terminal) {
    process.stderr.write(
      `! ${safe(event.server)} asked for input (${safe(event.message)}); declined: no terminal to ask in.\n`,
    );
    playground.elicitation.answer(event.id, { action: "decline" });
    return;
  }
  process.stderr.write(`\n${safe(event.server)} asks: ${safe(event.message)}\n`);
  const schema = event.requestedSchema as {
    properties?: Record<string, { type?: string; title?: string; default?: unknown }>;
  };
  const content: Record<string, string | number | boolean> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const answer = await readline.question(
      `  ${safe(String(property.title ?? name))}${property.default !== undefined ? ` [${safe(String(property.default))}]` : ""}: `,
    );
    const value =
      (answer ?? "") === "" && property.default !== undefined ? String(property.default) : (answer ?? "");
    if (value === "") continue;
    content[name] =
      property.type === "number" || property.type === "integer"
        ? Number(value)
        : property.type === "boolean"
          ? /^(y|yes|true)$/i.test(value)
          : value;
  }
  const send = await readline.question("  Send? [Y/n] ");
  const result: ElicitResult =
    send === undefined || /^n/i.test(send.trim()) ? { action: "decline" } : { action: "accept", content };
  playground.elicitation.answer(event.id, result);
}
