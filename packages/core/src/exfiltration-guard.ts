import { JunctionError, type Message, type ToolAnnotations, type ToolSource } from "@junction/types";
import { type NamePattern, toRegExp } from "./approval.js";
import { CORE_TOOL_NAMES } from "./core-tool.js";
import { MessageFold } from "./message-fold.js";
import type { MCPEntry, RegisteredTool } from "./tool-registry.js";

/**
 * Exceptions to the exfiltration guard: open-world tools you trust to receive what the
 * conversation has read (your own mail-to-me tool, a company search).
 *
 * The guard: once the conversation holds a result of a closed-world tool (`openWorldHint:
 * false`: files, notes, a local database — private data), a call to an open-world tool (one
 * that can reach beyond: the web, a URL, another person; MCP's default when `openWorldHint` is
 * absent) asks a person, even where the approval policy would let it run. A prompt-injected
 * model would otherwise read a file and send it anywhere without a question.
 */
export interface ExfiltrationGuardOptions {
  /** Open-world tools that run as the policy says even after private data was read, by name pattern (`"slack_post_to_me"`, `"search_*"`, `/^web_/`), matched against the real tool name with its prefix. `["*"]` turns the guard off. */
  trustTools?: NamePattern[];
  /** MCP connections (as given in `mcps`: the connection, or its `{ mcp, prefix }` entry) whose open-world tools run as the policy says even after private data was read. */
  trustSources?: MCPEntry[];
}

/** Whether a tool can reach the world outside the user's machine and accounts. MCP's default for a missing `openWorldHint` is true. */
export function isOpenWorld(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.openWorldHint !== false;
}

/** The guard, checked once, as the executor uses it. */
export interface ExfiltrationGuard {
  /** Whether `registered` is an open-world tool the guard covers (not trusted). */
  covers(name: string, registered: RegisteredTool): boolean;
}

/** Checks the options and builds the guard. */
export function createExfiltrationGuard(options: ExfiltrationGuardOptions | undefined): ExfiltrationGuard {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw invalid("must be an object { trustTools?, trustSources? }");
  }
  const trustTools = options?.trustTools ?? [];
  const trustSources = options?.trustSources ?? [];
  if (!Array.isArray(trustTools) || !trustTools.every((p) => typeof p === "string" || p instanceof RegExp)) {
    throw invalid(
      "`trustTools` must be an array of name patterns (strings with `*`, or regular expressions)",
    );
  }
  if (!Array.isArray(trustSources) || !trustSources.every((s) => typeof s === "object" && s !== null)) {
    throw invalid("`trustSources` must be an array of the MCP connections given in `mcps`");
  }
  const patterns = trustTools.map(toRegExp);
  const sources = new Set<ToolSource>(
    trustSources.map(
      (entry) => ("mcp" in entry && typeof entry.mcp === "object" ? entry.mcp : entry) as ToolSource,
    ),
  );
  return {
    covers(name, registered) {
      if (!isOpenWorld(registered.tool.annotations)) return false;
      if (registered.origin && sources.has(registered.origin)) return false;
      return !patterns.some((pattern) => pattern.test(name));
    },
  };
}

/** What an Agent saw become of its calls, by id (unique in the conversation). */
export interface CallLedger {
  /** Calls that never ran (denied, invalid arguments, unknown tool): their results carry no data read. */
  notRun: Set<string>;
  /** Calls that ran while their tool was closed-world: private data, even if the tool's annotations change later. */
  readPrivate: Set<string>;
}

/**
 * The tools whose results in `history` count as private data read: every result of a call that
 * ran as closed-world, of a tool that is closed-world now, and of a tool no longer known (it
 * cannot be told apart, so it counts). Results Junction wrote itself for calls that never ran do
 * not count, nor do those of Junction's own tools (`search_tools`, `read_tool_result`): they only
 * read what the run holds. A page `read_tool_result` returns is of a result that stays in the
 * history and counts there as its own call does. Returns the distinct tool names, in order of
 * first reading.
 */
export function privateDataReads(
  history: readonly Message[],
  tools: Map<string, RegisteredTool>,
  ledger: CallLedger,
): string[] {
  return new PrivateDataReads(ledger).of(history, tools);
}

/** The tool results of a conversation as the guard weighs them, by tool name. */
interface ReadsByTool {
  /** Results seen, in order. */
  results: number;
  /** Per tool name, the first result of a call that ran as closed-world, and the first the tool's annotations decide. */
  tools: Map<string, { readPrivate?: number; judged?: number }>;
}

/**
 * {@link privateDataReads} kept across a run's steps: each step weighs only the results appended
 * since the last (see {@link MessageFold}). What a result counts as is fixed once it is in the
 * conversation (its call ran, or did not, before the result was added) except where the tool's
 * annotations decide, and those are read again every step, from the step's tools: the same names,
 * in the same order, as {@link privateDataReads} afresh.
 */
export class PrivateDataReads {
  readonly #ledger: CallLedger;
  readonly #fold: MessageFold<ReadsByTool>;

  constructor(ledger: CallLedger) {
    this.#ledger = ledger;
    this.#fold = new MessageFold<ReadsByTool>(
      () => ({ results: 0, tools: new Map() }),
      (reads, message) => {
        if (message.role !== "tool") return;
        for (const part of message.content) {
          const order = reads.results++;
          let seen = reads.tools.get(part.toolName);
          if (!seen) {
            seen = {};
            reads.tools.set(part.toolName, seen);
          }
          if (this.#ledger.readPrivate.has(part.toolCallId)) seen.readPrivate ??= order;
          else if (!this.#ledger.notRun.has(part.toolCallId)) seen.judged ??= order;
        }
      },
    );
  }

  /** The tools whose results in `history` count as private data read, with `tools` as the step has them. */
  of(history: readonly Message[], tools: Map<string, RegisteredTool>): string[] {
    const read: { name: string; order: number }[] = [];
    for (const [name, seen] of this.#fold.over(history).tools) {
      const judged = seen.judged !== undefined && isPrivateSource(name, tools) ? seen.judged : undefined;
      const order = Math.min(
        seen.readPrivate ?? Number.POSITIVE_INFINITY,
        judged ?? Number.POSITIVE_INFINITY,
      );
      if (order !== Number.POSITIVE_INFINITY) read.push({ name, order });
    }
    return read.sort((a, b) => a.order - b.order).map((entry) => entry.name);
  }
}

/** Whether results of tool `name` read private data by what the tool is now: closed-world, or no longer known. */
function isPrivateSource(name: string, tools: Map<string, RegisteredTool>): boolean {
  const registered = tools.get(name);
  // A user's own tool of a core tool's name is registered, and counts by its annotations.
  if (!registered) return !CORE_TOOL_NAMES.has(name);
  return !isOpenWorld(registered.tool.annotations);
}

function invalid(detail: string): JunctionError {
  return new JunctionError("invalid-argument", `new Agent(): \`exfiltrationGuard\` ${detail}.`);
}
