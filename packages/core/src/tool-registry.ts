import {
  errorMessage,
  JunctionError,
  type Tool,
  type ToolDefinition,
  type ToolSource,
  type Warning,
} from "@junction/types";
import { CORE_TOOL_NAMES } from "./core-tool.js";
import { type KeptTool, limitToolList, resolveToolLimits, type ToolLimits } from "./tool-list-limits.js";
import type { ToolDeferral } from "./tool-search.js";

/**
 * An MCP connection (or any tool source) given to an Agent, optionally with a name prefix and
 * how its tools are offered: `defer` sends them only once the model finds them with the tool
 * search; `alwaysLoad` (all, or the named tools, by their names before the prefix) sends them on
 * every step even when tools are deferred.
 */
export type MCPEntry =
  | ToolSource
  | { mcp: ToolSource; prefix?: string; defer?: boolean; alwaysLoad?: boolean | string[] };

/** A tool the agent can run, and where it came from. */
export interface RegisteredTool {
  tool: Tool;
  /** The source's label, absent for local tools. */
  source?: string;
  /** The source itself (the `MCP` given in `mcps`), absent for local tools. */
  origin?: ToolSource;
  /** The source's short name: its prefix, else its own name, else `source_<n>`; absent for local tools. */
  sourceName?: string;
  /** How the tool is offered when the Agent defers tools: its own marks over its source's. */
  deferral: ToolDeferral;
}

interface SourceState {
  source: ToolSource;
  prefix?: string;
  defer?: boolean;
  alwaysLoad?: boolean | string[];
  label: string;
  /** The prefix, else the source's name, else `source_<n>`. */
  shortName: string;
  tools?: Tool[];
  stale: boolean;
  unsubscribe?: () => void;
}

/** Limit warnings remembered per registry before the memory is cleared (a server renaming tools forever). */
const MAX_REMEMBERED_WARNINGS = 10_000;

/**
 * The agent's tools: local ones plus those of its sources, listed lazily (the first step of the
 * first run), cached, and listed again when a source reports its list changed. Each tool is
 * bounded by {@link ToolLimits}' sizes (a tool left out for its size cannot be called either);
 * the count (`maxTools`) bounds what one request offers, and is applied per step (`maxTools`).
 */
export class ToolRegistry {
  readonly #limits: Required<ToolLimits>;
  /** Keys of the limit warnings given, so each tool and limit is reported once per registry. */
  readonly #warnedLimits = new Set<string>();
  readonly #local: Tool[] = [];
  readonly #sources: SourceState[] = [];
  #resolved?: Map<string, RegisteredTool>;
  #definitions: ToolDefinition[] = [];
  #closed = false;

  constructor(limits?: ToolLimits) {
    this.#limits = resolveToolLimits(limits);
  }

  addTool(candidate: Tool): void {
    if (typeof candidate !== "object" || candidate === null || typeof candidate.name !== "string") {
      throw new JunctionError("invalid-argument", "addTool(): a tool needs a string `name`.");
    }
    if (typeof candidate.execute !== "function") {
      throw new JunctionError(
        "invalid-argument",
        `addTool(): tool "${candidate.name}" has no execute() function.`,
      );
    }
    this.#local.push(candidate);
    this.#resolved = undefined;
  }

  addSource(entry: MCPEntry): void {
    const isPrefixed = typeof entry === "object" && entry !== null && "mcp" in entry;
    const source = isPrefixed ? entry.mcp : entry;
    if (typeof source?.listTools !== "function") {
      throw new JunctionError(
        "invalid-argument",
        "addMcp(): expected an MCP connection or another object with listTools().",
      );
    }
    const prefix =
      isPrefixed && typeof entry.prefix === "string" && entry.prefix.length > 0 ? entry.prefix : undefined;
    const marks = isPrefixed
      ? {
          ...(entry.defer !== undefined ? { defer: entry.defer === true } : {}),
          ...(entry.alwaysLoad !== undefined ? { alwaysLoad: entry.alwaysLoad } : {}),
        }
      : {};
    const name =
      typeof source.name === "string" && source.name.length > 0
        ? `"${source.name}"`
        : `#${this.#sources.length + 1}`;
    const label = `MCP source ${name}${prefix ? ` (prefix "${prefix}")` : ""}`;
    const shortName =
      prefix ??
      (typeof source.name === "string" && source.name.length > 0
        ? source.name
        : `source_${this.#sources.length + 1}`);
    this.#sources.push({ source, label, shortName, stale: true, ...marks, ...(prefix ? { prefix } : {}) });
    this.#resolved = undefined;
  }

  /** The tools for the next step: lists the sources that are new or changed, all at once. */
  async resolve(warn: (warning: Warning) => void): Promise<Map<string, RegisteredTool>> {
    const stale = this.#sources.filter((state) => state.stale || state.tools === undefined);
    if (this.#resolved && stale.length === 0) return this.#resolved;
    const listings = await Promise.allSettled(stale.map((state) => this.#list(state, warn)));
    this.#leaveOutUnlisted(stale, listings, warn);
    const limited = limitToolList(
      [
        { tools: this.#local },
        ...this.#sources.map((state) => ({ label: state.label, tools: state.tools ?? [] })),
      ],
      this.#limits,
    );
    for (const { key, warning } of limited.warnings) this.#warnOnce(key, warning, warn);
    const resolved = new Map<string, RegisteredTool>();
    const add = (candidate: Tool, state: SourceState | undefined) => {
      const source = state?.label;
      const existing = resolved.get(candidate.name);
      if (existing) {
        const where = (s: string | undefined) => s ?? "the local tools";
        throw new JunctionError(
          "tool-name-collision",
          `Two tools are named "${candidate.name}": one from ${where(existing.source)} and one from ${where(source)}. ` +
            `Give an MCP source a prefix, for example mcps: [{ mcp, prefix: "github" }] makes its tools "github_<name>", or rename the local tool.`,
        );
      }
      resolved.set(candidate.name, {
        tool: candidate,
        deferral: deferralOf(candidate, state),
        ...(state ? { source: state.label, origin: state.source, sourceName: state.shortName } : {}),
      });
    };
    const definitions: ToolDefinition[] = [];
    limited.kept.forEach((kept, index) => {
      for (const entry of kept) {
        add(entry.tool, index === 0 ? undefined : this.#sources[index - 1]);
        definitions.push(toDefinition(entry));
      }
    });
    this.#resolved = resolved;
    this.#definitions = definitions;
    return resolved;
  }

  /**
   * A source that could not list its tools (a server down, its reconnect given up) is left out of
   * the step with a warning naming it and why, when the agent has other tools to offer: the rest
   * go on, and it is listed again on the next step. An agent left with no tool at all fails with
   * the source's error instead, so a dead server is never silently an agent with nothing to call.
   */
  #leaveOutUnlisted(
    listed: SourceState[],
    listings: PromiseSettledResult<void>[],
    warn: (warning: Warning) => void,
  ): void {
    const failures = listings.flatMap((listing, index) =>
      listing.status === "rejected" ? [{ state: listed[index] as SourceState, error: listing.reason }] : [],
    );
    if (failures.length === 0) return;
    for (const { state } of failures) state.tools = undefined;
    const others =
      this.#local.length + this.#sources.reduce((count, state) => count + (state.tools?.length ?? 0), 0);
    if (others === 0) throw failures[0]?.error;
    for (const { error } of failures) {
      warn({
        code: "mcp-source-unavailable",
        message: `${errorMessage(error).replace(/\.$/, "")}; its tools are left out of this step and listed again on the next one.`,
      });
    }
  }

  /** The sources as descriptors (labels, names and prefixes; never the connections). */
  get sourceDescriptors(): { label: string; name?: string; prefix?: string }[] {
    return this.#sources.map(({ source, label, prefix }) => ({
      label,
      ...(typeof source.name === "string" ? { name: source.name } : {}),
      ...(prefix ? { prefix } : {}),
    }));
  }

  /** Tools one model request may carry (`toolLimits.maxTools`), Junction's own included; the rest are searchable. */
  get maxTools(): number {
    return this.#limits.maxTools;
  }

  /** The definitions of the last resolved tools, in a stable order. */
  get definitions(): ToolDefinition[] {
    return this.#definitions;
  }

  /**
   * Stops listening to every source's tool changes. Idempotent; later resolves list the sources
   * without subscribing again.
   */
  close(): void {
    this.#closed = true;
    for (const state of this.#sources) {
      const unsubscribe = state.unsubscribe;
      state.unsubscribe = undefined;
      try {
        unsubscribe?.();
      } catch {
        // A source failing to unsubscribe must not keep the others subscribed.
      }
    }
  }

  #warnOnce(key: string, warning: Warning, warn: (warning: Warning) => void): void {
    if (this.#warnedLimits.has(key)) return;
    if (this.#warnedLimits.size >= MAX_REMEMBERED_WARNINGS) this.#warnedLimits.clear();
    this.#warnedLimits.add(key);
    warn(warning);
  }

  async #list(state: SourceState, warn: (warning: Warning) => void): Promise<void> {
    if (!this.#closed && !state.unsubscribe && typeof state.source.onToolsChanged === "function") {
      state.unsubscribe = state.source.onToolsChanged(() => {
        state.stale = true;
      });
    }
    // Cleared before listing, so a change reported while the list is in flight is picked up next step.
    state.stale = false;
    let listed: unknown;
    try {
      listed = await state.source.listTools(state.prefix ? { prefix: state.prefix } : undefined);
    } catch (error) {
      state.stale = true;
      throw new JunctionError(
        JunctionError.isInstance(error) ? error.code : "mcp-request-failed",
        `Could not list the tools of ${state.label}: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    if (!Array.isArray(listed)) {
      state.stale = true;
      throw new JunctionError(
        "mcp-invalid-response",
        `${state.label} listed its tools as something other than an array.`,
      );
    }
    const listedBefore = state.tools?.length ?? 0;
    const names = new Set<string>();
    state.tools = listed.filter((candidate, index) => {
      const valid =
        typeof candidate === "object" &&
        candidate !== null &&
        typeof candidate.name === "string" &&
        candidate.name.length > 0 &&
        typeof candidate.execute === "function";
      if (!valid) {
        warn({
          code: "tool-invalid",
          message: `${state.label} listed an invalid tool at index ${index} (it needs a name and execute()); it was left out.`,
        });
        return false;
      }
      // One server listing a name twice is the server's fault, not a setup the user can fix with a
      // prefix: keep its first tool of that name so the other tools (and every turn) still work.
      if (names.has(candidate.name)) {
        warn({
          code: "tool-duplicate",
          message: `${state.label} listed the tool "${candidate.name}" more than once; the first one is kept and the one at index ${index} was left out.`,
        });
        return false;
      }
      names.add(candidate.name);
      // What a server lists is untrusted: it must not take the place of Junction's own tools (a
      // "search_tools" answering the model's searches, a "read_tool_result" paging results).
      if (CORE_TOOL_NAMES.has(candidate.name)) {
        this.#warnOnce(
          `core-tool-name\0${state.label}\0${candidate.name}`,
          {
            code: "core-tool-name-taken",
            message:
              `${state.label} lists a tool named "${candidate.name}", the name of Junction's own tool; Junction's stays and the server's was left out. ` +
              `Give the source ${state.prefix ? "another" : "a"} prefix to offer its tool, for example mcps: [{ mcp, prefix: "${suggestedPrefix(state)}" }].`,
          },
          warn,
        );
        return false;
      }
      return true;
    }) as Tool[];
    // A source that had tools and now has none (a restarted server that has not loaded them yet)
    // is not silent: the model would otherwise answer that it has no such tools.
    if (listedBefore > 0 && state.tools.length === 0) {
      warn({
        code: "tool-source-empty",
        message: `${state.label} listed no tools, though it listed ${listedBefore} before: this step offers none of its tools, until it lists them again.`,
      });
    }
  }
}

/** A prefix to suggest for a source: its name made fit for tool names, else `server`. */
function suggestedPrefix(state: SourceState): string {
  const name = typeof state.source.name === "string" ? state.source.name : "";
  const fitted = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 20);
  return fitted.length > 0 && fitted !== state.prefix ? fitted : "server";
}

function toDefinition({ tool, description, outputSchemaDropped }: KeptTool): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.name,
    description,
    inputSchema:
      typeof tool.inputSchema === "object" && tool.inputSchema !== null
        ? tool.inputSchema
        : { type: "object", properties: {} },
  };
  if (tool.outputSchema && !outputSchemaDropped) definition.outputSchema = tool.outputSchema;
  if (tool.annotations) definition.annotations = tool.annotations;
  return definition;
}

function deferralOf(candidate: Tool, state: SourceState | undefined): ToolDeferral {
  const listed = state?.alwaysLoad;
  const unprefixed =
    state?.prefix && candidate.name.startsWith(`${state.prefix}_`)
      ? candidate.name.slice(state.prefix.length + 1)
      : candidate.name;
  const sourceAlwaysLoad =
    listed === true ||
    (Array.isArray(listed) && (listed.includes(unprefixed) || listed.includes(candidate.name)));
  const alwaysLoad = typeof candidate.alwaysLoad === "boolean" ? candidate.alwaysLoad : sourceAlwaysLoad;
  const defer = typeof candidate.defer === "boolean" ? candidate.defer : state?.defer === true;
  return { ...(defer ? { defer } : {}), ...(alwaysLoad ? { alwaysLoad } : {}) };
}
