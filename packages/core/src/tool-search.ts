import type { ToolDefinition, ToolGroup, Warning } from "@junction/types";
import { CORE_TOOL_ANNOTATIONS, coreToolError, coreToolInput, SEARCH_TOOLS } from "./core-tools.js";
import type { CoreTool } from "./run-types.js";
import { estimateToolDefinitionTokens } from "./token-estimate.js";
import { searchTerms } from "./tool-search-terms.js";
import { weightedQueryTerms } from "./tool-search-thesaurus.js";

/**
 * When an Agent sends its tools' definitions only once the model finds them (`search_tools`).
 *
 * Deferring costs a round trip: the model searches on its first step before it can call a
 * deferred tool. It saves the deferred definitions' tokens on every request.
 */
export interface ToolSearchOptions {
  /**
   * `"auto"`: tools marked `defer` (per tool, or per MCP source) are deferred, and every tool not
   * marked `alwaysLoad` is deferred once all the definitions would take more than
   * `maxDefinitionShare` of the model's context window (with a `tools-deferred` warning).
   * `"off"`: every tool is sent on every step, `defer` marks included.
   * @default "auto"
   */
  mode?: "auto" | "off";
  /**
   * The share of the context window the tool definitions may take before `"auto"` defers them.
   * @default 0.1
   */
  maxDefinitionShare?: number;
  /**
   * Tools one search loads at most.
   * @default 5
   */
  maxResults?: number;
  /**
   * Where the provider declares a native tool search for the model (`nativeToolSearch`:
   * Anthropic's `defer_loading` with its BM25 search tool on Claude 4.5 and later; OpenAI's
   * `tool_search` with one namespace per MCP source on GPT-5.4 and later), use it instead of
   * Junction's `search_tools`: the vendor searches on its side, within the same turn (no extra
   * round trip), but its ranking is its own and a provider switch mid-conversation starts the
   * search over. `false`: always Junction's search.
   * @default true
   */
  native?: boolean;
}

/** How one tool is to be offered, from its own marks and its source's. */
export interface ToolDeferral {
  defer?: boolean;
  alwaysLoad?: boolean;
}

/** Which tools a step offers and which it defers. */
export interface DeferralPlan {
  /** The definitions sent: the loaded ones and every found one. */
  offered: ToolDefinition[];
  /** The definitions only the search reaches, in a stable order. */
  deferred: ToolDefinition[];
  /** Set when the automatic mode deferred: the definitions' total tokens and the limit. */
  automatic?: { tokens: number; limit: number };
}

/**
 * Splits `definitions` into those sent and those deferred behind the search. Found tools
 * (`loaded`) are sent; `alwaysLoad` wins over `defer`.
 */
export function planDeferral(parts: {
  definitions: ToolDefinition[];
  deferralOf: (name: string) => ToolDeferral;
  loaded: ReadonlySet<string>;
  contextWindow: number;
  options?: ToolSearchOptions;
}): DeferralPlan {
  const { definitions, deferralOf, loaded, options } = parts;
  if (options?.mode === "off") return { offered: definitions, deferred: [] };
  let tokens = 0;
  for (const definition of definitions) tokens += estimateToolDefinitionTokens(definition);
  const limit = Math.floor(parts.contextWindow * (options?.maxDefinitionShare ?? 0.1));
  const automatic = tokens > limit;
  const offered: ToolDefinition[] = [];
  const deferred: ToolDefinition[] = [];
  for (const definition of definitions) {
    const marks = deferralOf(definition.name);
    const defer = !marks.alwaysLoad && (marks.defer === true || automatic);
    if (defer) deferred.push(definition);
    if (!defer || loaded.has(definition.name)) offered.push(definition);
  }
  return { offered, deferred, ...(automatic && deferred.length > 0 ? { automatic: { tokens, limit } } : {}) };
}

/** The warning the automatic mode gives: how many tools were deferred and why. */
export function deferralWarning(plan: DeferralPlan, total: number, model: string): Warning | undefined {
  if (!plan.automatic) return undefined;
  return {
    code: "tools-deferred",
    message:
      `${plan.deferred.length} of ${total} tools were deferred: their definitions would take about ${plan.automatic.tokens} tokens, ` +
      `over ${plan.automatic.limit} (the share of model "${model}"'s context window tool definitions may take, toolSearch.maxDefinitionShare). ` +
      `The model finds them with a tool search (${SEARCH_TOOLS}, or the provider's own where it has one); mark the tools it needs at once \`alwaysLoad\`, or set toolSearch: { mode: "off" }.`,
  };
}

// BM25's usual constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;
// Where a word appears counts: a name or title says more than a word deep in a description.
const FIELD_WEIGHTS = { name: 3, title: 2, parameters: 1.5, description: 1 } as const;

interface IndexedTool {
  definition: ToolDefinition;
  /** Weighted term frequencies over the tool's fields. */
  frequencies: Map<string, number>;
  length: number;
}

/**
 * A BM25 index over tools' names, titles, descriptions and parameter names (fields weighted:
 * name 3, title 2, parameters 1.5, description 1).
 */
export class ToolIndex {
  readonly #tools: IndexedTool[];
  readonly #documentFrequency = new Map<string, number>();
  readonly #averageLength: number;

  constructor(definitions: ToolDefinition[]) {
    this.#tools = definitions.map((definition) => {
      const frequencies = new Map<string, number>();
      let length = 0;
      const add = (text: string, weight: number) => {
        for (const term of searchTerms(text)) {
          frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
          length += weight;
        }
      };
      add(definition.name, FIELD_WEIGHTS.name);
      if (typeof definition.annotations?.title === "string")
        add(definition.annotations.title, FIELD_WEIGHTS.title);
      add(parameterNames(definition).join(" "), FIELD_WEIGHTS.parameters);
      if (typeof definition.description === "string") add(definition.description, FIELD_WEIGHTS.description);
      for (const term of frequencies.keys()) {
        this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
      }
      return { definition, frequencies, length };
    });
    const total = this.#tools.reduce((sum, tool) => sum + tool.length, 0);
    this.#averageLength = this.#tools.length > 0 ? total / this.#tools.length : 1;
  }

  /** The best `limit` tools for `query`, best first; tools that share no word with it are left out. */
  search(query: string, limit: number): { definition: ToolDefinition; score: number }[] {
    const terms = weightedQueryTerms(searchTerms(query));
    const count = this.#tools.length;
    const scored = this.#tools.map((tool, order) => {
      let score = 0;
      for (const [term, weight] of terms) {
        const frequency = tool.frequencies.get(term);
        if (!frequency) continue;
        const documents = this.#documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (count - documents + 0.5) / (documents + 0.5));
        score +=
          (weight * idf * frequency * (K1 + 1)) /
          (frequency + K1 * (1 - B + (B * tool.length) / Math.max(1, this.#averageLength)));
      }
      return { definition: tool.definition, score, order };
    });
    return scored
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, limit)
      .map(({ definition, score }) => ({ definition, score }));
  }
}

function parameterNames(definition: ToolDefinition): string[] {
  const properties = (definition.inputSchema as { properties?: unknown } | undefined)?.properties;
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
}

/**
 * The search tool over `deferred`: each search loads what it finds into `loaded`, so those tools
 * are sent from the next step on (and kept in the run's state).
 */
export function searchToolsTool(parts: {
  deferred: ToolDefinition[];
  loaded: Set<string>;
  maxResults?: number;
}): CoreTool {
  const index = new ToolIndex(parts.deferred);
  const maxResults = parts.maxResults ?? 5;
  return {
    definition: {
      name: SEARCH_TOOLS,
      description:
        `Searches ${parts.deferred.length} more tools that are available but not loaded yet, by what you want to do ` +
        "(words of their names, descriptions and parameters). The tools found are loaded and can be called from your next step.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "What you want to do, in a few words." },
          limit: {
            type: "integer",
            minimum: 1,
            maximum: 10,
            description: `How many tools to load at most (default ${maxResults}).`,
          },
        },
        required: ["query"],
        additionalProperties: false,
      },
      annotations: CORE_TOOL_ANNOTATIONS,
    },
    execute: (input) => {
      const { query, limit } = coreToolInput(input);
      if (typeof query !== "string" || query.trim().length === 0) {
        return coreToolError(`${SEARCH_TOOLS} needs {"query": a non-empty string}.`);
      }
      const count =
        typeof limit === "number" && Number.isInteger(limit) ? Math.min(10, Math.max(1, limit)) : maxResults;
      const found = index.search(query.slice(0, 1_000), count);
      if (found.length === 0)
        return `No tool matches ${JSON.stringify(query.slice(0, 200))}; try other words.`;
      for (const { definition } of found) parts.loaded.add(definition.name);
      const lines = found.map(
        ({ definition }) => `- ${definition.name}: ${firstLine(definition.description)}`,
      );
      return `Loaded ${found.length} tool(s); call them from your next step:\n${lines.join("\n")}`;
    },
  };
}

function firstLine(description: string | undefined): string {
  const line = (description ?? "").split("\n", 1)[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Where a tool comes from, as a native search groups it: the source's short name and what it says it is for. */
export interface ToolSourceInfo {
  name: string;
  description?: string;
}

// A group's description is the model's only view of its tools until a search finds them: the
// source's own words (untrusted, so cut) and the tools' names, within a bound.
const MAX_SOURCE_DESCRIPTION_CHARS = 300;
const MAX_GROUP_NAMES_CHARS = 2_000;

/** The group of each deferred tool that has a source, by tool name; one group per source. */
export function toolGroups(
  deferred: readonly ToolDefinition[],
  sourceOf: ((name: string) => ToolSourceInfo | undefined) | undefined,
): Map<string, ToolGroup> {
  const members = new Map<string, { source: ToolSourceInfo; names: string[] }>();
  for (const definition of deferred) {
    const source = sourceOf?.(definition.name);
    if (!source) continue;
    const entry = members.get(source.name) ?? { source, names: [] };
    entry.names.push(definition.name);
    members.set(source.name, entry);
  }
  const groups = new Map<string, ToolGroup>();
  for (const { source, names } of members.values()) {
    const group = { name: source.name, description: describeToolGroup(source, names) };
    for (const name of names) groups.set(name, group);
  }
  return groups;
}

/**
 * What the model reads in place of a source's deferred tools: the source, what it says it is
 * for (cut at 300 characters) and the tools' names (cut at 2,000 characters, with how many more).
 */
export function describeToolGroup(source: ToolSourceInfo, names: readonly string[]): string {
  const said = source.description?.replace(/\s+/g, " ").trim();
  const about = said
    ? `: ${said.length > MAX_SOURCE_DESCRIPTION_CHARS ? `${said.slice(0, MAX_SOURCE_DESCRIPTION_CHARS)}…` : said}`
    : "";
  const listed: string[] = [];
  let length = 0;
  for (const name of names) {
    if (length + name.length + 2 > MAX_GROUP_NAMES_CHARS) break;
    listed.push(name);
    length += name.length + 2;
  }
  const more = names.length - listed.length;
  const stop = /[.!?…]$/.test(about) ? " " : ". ";
  return `Tools of "${source.name}"${about}${stop}Search to load them: ${listed.join(", ")}${more > 0 ? ` and ${more} more` : ""}.`;
}

/**
 * An Agent's deferred tools across its runs: which were found (sent from then on, and saved in
 * a stopped run's state), and the automatic mode's warning, given once per change of the count.
 */
export class DeferredTools {
  readonly loaded = new Set<string>();
  #deferred: ToolDefinition[] = [];
  #warnedCount = 0;

  constructor(readonly options: ToolSearchOptions = {}) {}

  /**
   * The definitions to send this step; warns when the automatic mode defers a new number of tools.
   * With `nativeSearch` (and `options.native` not `false`) every definition is sent, the deferred
   * ones marked `defer: true` for the provider's own search, and no `search_tools` is added.
   */
  offer(parts: {
    definitions: ToolDefinition[];
    deferralOf: (name: string) => ToolDeferral;
    /** The source a tool comes from (absent for local tools): a native search groups its deferred tools by it. */
    sourceOf?: (name: string) => ToolSourceInfo | undefined;
    contextWindow: number;
    model: string;
    nativeSearch?: boolean;
    warn: (warning: Warning) => void;
  }): ToolDefinition[] {
    const plan = planDeferral({ ...parts, loaded: this.loaded, options: this.options });
    const native = parts.nativeSearch === true && this.options.native !== false;
    this.#deferred = native ? [] : plan.deferred;
    const warning = deferralWarning(plan, parts.definitions.length, parts.model);
    if (warning && plan.deferred.length !== this.#warnedCount) {
      this.#warnedCount = plan.deferred.length;
      parts.warn(warning);
    }
    if (!native || plan.deferred.length === 0) return plan.offered;
    const groups = toolGroups(plan.deferred, parts.sourceOf);
    const deferred = new Set(plan.deferred);
    return parts.definitions.map((definition) => {
      if (!deferred.has(definition)) return definition;
      const group = groups.get(definition.name);
      return { ...definition, defer: true, ...(group ? { group } : {}) };
    });
  }

  /** The search tool, while any tool is deferred. */
  coreTools(): CoreTool[] {
    if (this.#deferred.length === 0) return [];
    return [
      searchToolsTool({
        deferred: this.#deferred,
        loaded: this.loaded,
        ...(this.options.maxResults !== undefined ? { maxResults: this.options.maxResults } : {}),
      }),
    ];
  }

  /** Takes the found tools of a stopped run's state. */
  restore(names: readonly string[]): void {
    for (const name of names) this.loaded.add(name);
  }
}
