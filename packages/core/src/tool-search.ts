import type { Embedder, ToolDefinition, ToolGroup, Warning } from "@junction/types";
import { JunctionError } from "@junction/types";
import type { CoreTool } from "./core-tool.js";
import { SEARCH_TOOLS } from "./core-tool.js";
import { estimateToolDefinitionTokens } from "./token-estimate.js";
import { limitToolCount, type ToolGroup as ToolCountGroup } from "./tool-list-limits.js";
import {
  DenseToolIndex,
  type EmbeddingCache,
  embedderFailedWarning,
  InMemoryEmbeddingCache,
  type ToolSearchFusion,
} from "./tool-search-dense.js";
import { type SearchableTool, ToolIndex, type ToolSourceInfo } from "./tool-search-index.js";
import { searchToolsTool } from "./tool-search-tool.js";

export {
  DEFAULT_MIX_WEIGHT,
  DENSE_RRF_K,
  type EmbeddingCache,
  InMemoryEmbeddingCache,
  type ToolSearchFusion,
  toolEmbeddingDigest,
  toolEmbeddingText,
} from "./tool-search-dense.js";
export type { ToolSourceInfo } from "./tool-search-index.js";
export {
  CLOSEST_TOOLS,
  LOW_FIT_TOOLS,
  MIN_CLOSEST_RELEVANCE,
  MIN_RELEVANCE,
  MOST_LOADED_TOOLS,
  SMALL_CATALOG_TOOLS,
} from "./tool-search-tool.js";

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
  /**
   * How well the best tool must fit a request for `search_tools` to load what it found: its score
   * (0 to 1: its BM25 score over the largest a tool could get from the request's two most telling
   * words, so a long request with names, numbers and several asks is not judged weak for its
   * length; a word no tool has counting as 1.2 times the rarest word a tool has, at any number of
   * tools). Below it, the search tells the model that nothing fits well (`nothingFits`) and loads
   * at most its `CLOSEST_TOOLS` (3) closest tools, or under `minClosestRelevance` its
   * `lowFitTools` closest, so the model can check them, search again in other words or answer
   * without a tool. `0` always loads what matches.
   * @default MIN_RELEVANCE (0.38, chosen on the tuning tasks: see core's README, "Tool search")
   */
  minRelevance?: number;
  /**
   * Under `minRelevance`, the least relevance of the best tool at which the search still loads
   * its closest tools (at most 3) beside "nothing fits well"; under it, only `lowFitTools`.
   * @default MIN_CLOSEST_RELEVANCE (0.2)
   */
  minClosestRelevance?: number;
  /**
   * How many of its closest tools a search whose best tool is under `minClosestRelevance` (a
   * `low` fit) still loads, beside "nothing fits well". `0` loads nothing then (with
   * `minClosestRelevance` at `minRelevance` or above: nothing whenever nothing fits well).
   * @default LOW_FIT_TOOLS (1) with at most SMALL_CATALOG_TOOLS (10) deferred tools, else 0
   */
  lowFitTools?: number;
  /**
   * Adds a dense ranking: tools and request turned into vectors by this function (any embeddings
   * API: `embedder()` of `@junction/provider-openai`, `-gemini`, `-bedrock` or
   * `-chatcompletions`; a local model that runs offline: `miniLM()` of `@junction/embed-minilm`),
   * tools ranked by cosine similarity and that ranking fused with the lexical one (`fusion`:
   * reciprocal rank fusion, `DENSE_RRF_K` 60, unless set to `"mix"`). Each tool is embedded once per digest of its
   * text (`toolEmbeddingText`: its name in words, title, description, parameters and its source's
   * description; kept in `embedCache`), the request once per search.
   * When it fails (throws, or answers vectors of the wrong count or length, or a value that is
   * not a finite number) the search ranks by words alone, with one
   * `tool-search-embedder-failed` warning per Agent; the run goes on.
   * @default none: lexical ranking only
   */
  embed?: Embedder;
  /**
   * Where tool vectors are kept by tool digest (`toolEmbeddingDigest`), for a store that outlives
   * the Agent (one per embedding model).
   * @default a new `InMemoryEmbeddingCache` per Agent
   */
  embedCache?: EmbeddingCache;
  /**
   * With `embed`: a search whose best tool's cosine similarity reaches this also fits, even when
   * its words score under `minRelevance` (a request that names what it wants in other words than
   * the tool's). Cosine similarities differ in scale from one embedding model to another, so
   * there is no default: measure it for your model. Unset, "nothing fits" is judged on words alone.
   * @default undefined
   */
  minSimilarity?: number;
  /**
   * With `embed`: how the lexical and the dense ranking are fused (`ToolSearchFusion`):
   * `"rrf"`, reciprocal rank fusion (ranks only), or `"mix"`, a convex combination of the two
   * scores (each min-max normalised over the candidates) weighted by `mixWeight`. Either way "nothing fits" is judged on words (and on
   * `minSimilarity` when set).
   * @default "rrf"
   */
  fusion?: ToolSearchFusion;
  /**
   * With `fusion: "mix"`: the dense score's weight, from 0 (words only) to 1 (meaning only).
   * @default DEFAULT_MIX_WEIGHT
   */
  mixWeight?: number;
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

/**
 * The warning the automatic mode gives: how many tools were deferred (`deferred`: every tool the
 * search reaches, those over `toolLimits.maxTools` included) of `total`, and why.
 */
export function deferralWarning(
  plan: DeferralPlan,
  counts: { deferred: number; total: number },
  model: string,
): Warning | undefined {
  if (!plan.automatic) return undefined;
  return {
    code: "tools-deferred",
    message:
      `${counts.deferred} of ${counts.total} tools were deferred: their definitions would take about ${plan.automatic.tokens} tokens, ` +
      `over ${plan.automatic.limit} (the share of model "${model}"'s context window tool definitions may take, toolSearch.maxDefinitionShare). ` +
      `The model finds them with a tool search (${SEARCH_TOOLS}, or the provider's own where it has one); mark the tools it needs at once \`alwaysLoad\`, or set toolSearch: { mode: "off" }.`,
  };
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
 * Every tool the registry holds is searchable: `toolLimits.maxTools` bounds what one request
 * offers, and the tools over it are deferred behind the search (left out only with the search off).
 */
export class DeferredTools {
  readonly loaded = new Set<string>();
  readonly options: ToolSearchOptions;
  #deferred: SearchableTool[] = [];
  #index: ToolIndex | undefined;
  #unreachable = new Set<string>();
  #warnedCount = 0;
  readonly #warnedKeys = new Set<string>();
  #dense: DenseToolIndex | undefined;
  readonly #embedCache: EmbeddingCache;
  /** The warning channel of the step being run (the last `offer`'s), for the embedder's failure. */
  #warn: ((warning: Warning) => void) | undefined;
  #embedderWarned = false;

  constructor(options: ToolSearchOptions = {}) {
    const { fusion, mixWeight } = options;
    if (fusion !== undefined && fusion !== "rrf" && fusion !== "mix")
      throw new JunctionError(
        "invalid-argument",
        `toolSearch.fusion must be "rrf" or "mix", not ${JSON.stringify(fusion)}.`,
      );
    if (mixWeight !== undefined && !(typeof mixWeight === "number" && mixWeight >= 0 && mixWeight <= 1))
      throw new JunctionError(
        "invalid-argument",
        `toolSearch.mixWeight must be a number from 0 to 1, not ${String(mixWeight)}.`,
      );
    this.options = options;
    this.#embedCache = options.embedCache ?? new InMemoryEmbeddingCache();
  }

  /** Tools neither offered this step nor searchable (over `maxTools` with the search off): not callable. */
  get unreachable(): ReadonlySet<string> {
    return this.#unreachable;
  }

  /**
   * The definitions to send this step; warns when the automatic mode defers a new number of tools,
   * and once per source and count when `maxTools` cuts what one request offers. With
   * `nativeSearch` (and `options.native` not `false`) every definition is sent, the deferred ones
   * marked `defer: true` for the provider's own search, and no `search_tools` is added; unless
   * there are more than `maxTools` definitions, which one request cannot carry: then Junction's
   * `search_tools` searches them.
   */
  offer(parts: {
    definitions: ToolDefinition[];
    deferralOf: (name: string) => ToolDeferral;
    /** The source a tool comes from (absent for local tools): its group for a native search, its words for the index. */
    sourceOf?: (name: string) => ToolSourceInfo | undefined;
    /** The label of a tool's source for warnings (absent for local tools), as the count limit shares by source. */
    labelOf?: (name: string) => string | undefined;
    /** `toolLimits.maxTools`: tools one request offers at most. */
    maxTools?: number;
    contextWindow: number;
    model: string;
    nativeSearch?: boolean;
    warn: (warning: Warning) => void;
  }): ToolDefinition[] {
    this.#warn = parts.warn;
    const maxTools = parts.maxTools ?? Number.POSITIVE_INFINITY;
    const plan = planDeferral({ ...parts, loaded: this.loaded, options: this.options });
    const native =
      parts.nativeSearch === true && this.options.native !== false && parts.definitions.length <= maxTools;
    const searchOn = this.options.mode !== "off";
    let offered = plan.offered;
    let deferred = plan.deferred;
    this.#unreachable = new Set();
    // `search_tools` counts towards maxTools too: with anything deferred it takes a place.
    const room = searchOn && plan.deferred.length > 0 ? maxTools - 1 : maxTools;
    if (!native && offered.length > room) {
      const counted = limitToolCount(
        groupedBySource(offered, parts.labelOf),
        maxTools,
        searchOn ? "searchable" : "left-out",
      );
      for (const { key, warning } of counted.warnings) {
        if (this.#warnedKeys.has(key)) continue;
        this.#warnedKeys.add(key);
        parts.warn(warning);
      }
      const over = new Set(counted.over.flat());
      offered = offered.filter((definition) => !over.has(definition));
      if (searchOn) {
        const inSearch = new Set(deferred);
        deferred = parts.definitions.filter((definition) => inSearch.has(definition) || over.has(definition));
      } else {
        this.#unreachable = new Set([...over].map((definition) => definition.name));
      }
    }
    this.#setDeferred(native ? [] : deferred, parts.sourceOf);
    const warning = deferralWarning(
      plan,
      { deferred: native ? plan.deferred.length : deferred.length, total: parts.definitions.length },
      parts.model,
    );
    if (warning && plan.deferred.length !== this.#warnedCount) {
      this.#warnedCount = plan.deferred.length;
      parts.warn(warning);
    }
    if (!native || plan.deferred.length === 0) return offered;
    const groups = toolGroups(plan.deferred, parts.sourceOf);
    const deferredSet = new Set(plan.deferred);
    return parts.definitions.map((definition) => {
      if (!deferredSet.has(definition)) return definition;
      const group = groups.get(definition.name);
      return { ...definition, defer: true, ...(group ? { group } : {}) };
    });
  }

  /** The search tool, while any tool is deferred. */
  coreTools(): CoreTool[] {
    if (this.#deferred.length === 0) return [];
    this.#index ??= new ToolIndex(this.#deferred);
    const { embed } = this.options;
    if (embed) this.#dense ??= new DenseToolIndex({ tools: this.#deferred, embed, cache: this.#embedCache });
    return [
      searchToolsTool({
        index: this.#index,
        loaded: this.loaded,
        ...(this.options.maxResults !== undefined ? { maxResults: this.options.maxResults } : {}),
        ...(this.options.minRelevance !== undefined ? { minRelevance: this.options.minRelevance } : {}),
        ...(this.options.minClosestRelevance !== undefined
          ? { minClosestRelevance: this.options.minClosestRelevance }
          : {}),
        ...(this.options.lowFitTools !== undefined ? { lowFitTools: this.options.lowFitTools } : {}),
        ...(this.#dense
          ? {
              dense: this.#dense,
              onEmbedderFailed: (error: unknown) => this.#embedderFailed(error),
              ...(this.options.minSimilarity !== undefined
                ? { minSimilarity: this.options.minSimilarity }
                : {}),
              ...(this.options.fusion !== undefined ? { fusion: this.options.fusion } : {}),
              ...(this.options.mixWeight !== undefined ? { mixWeight: this.options.mixWeight } : {}),
            }
          : {}),
      }),
    ];
  }

  /**
   * Drops the warning channel of the last step, once its run has ended: it leads to the run (its
   * conversation, its journal), which the Agent must not keep alive until the next one.
   */
  endRun(): void {
    this.#warn = undefined;
  }

  /** Warns once per Agent that the embedder failed; each search falls back to the lexical ranking on its own. */
  #embedderFailed(error: unknown): void {
    // Between runs there is nobody to tell: the next failure, in a run, is reported.
    if (this.#embedderWarned || !this.#warn) return;
    this.#embedderWarned = true;
    this.#warn?.(embedderFailedWarning(error));
  }

  /**
   * A call the model made by name to a tool the step did not offer: when the tool is deferred it
   * is loaded, as a search would have, so its definition is sent from the next step (and kept in
   * a stopped run's state). The call itself runs through the usual checks.
   */
  called(name: string): void {
    if (this.#deferred.some(({ definition }) => definition.name === name)) this.loaded.add(name);
  }

  /** Takes the found tools of a stopped run's state. */
  restore(names: readonly string[]): void {
    for (const name of names) this.loaded.add(name);
  }

  /** Keeps the index while the deferred tools (and their sources) stay the same: it is built once per change. */
  #setDeferred(
    definitions: ToolDefinition[],
    sourceOf: ((name: string) => ToolSourceInfo | undefined) | undefined,
  ): void {
    const tools = definitions.map((definition) => {
      const source = sourceOf?.(definition.name);
      return source ? { definition, source } : { definition };
    });
    const same =
      tools.length === this.#deferred.length &&
      tools.every((tool, index) => {
        const before = this.#deferred[index]!;
        return (
          before.definition === tool.definition &&
          before.source?.name === tool.source?.name &&
          before.source?.description === tool.source?.description &&
          before.source?.instructions === tool.source?.instructions
        );
      });
    if (same) return;
    this.#deferred = tools;
    this.#index = undefined;
    this.#dense = undefined;
  }
}

/** The definitions in groups by source label, in order of first appearance (local tools first). */
function groupedBySource(
  definitions: ToolDefinition[],
  labelOf: ((name: string) => string | undefined) | undefined,
): ToolCountGroup<ToolDefinition>[] {
  const local: ToolDefinition[] = [];
  const sources = new Map<string, ToolDefinition[]>();
  for (const definition of definitions) {
    const label = labelOf?.(definition.name);
    if (label === undefined) {
      local.push(definition);
      continue;
    }
    const list = sources.get(label) ?? [];
    list.push(definition);
    sources.set(label, list);
  }
  return [{ tools: local }, ...[...sources].map(([label, tools]) => ({ label, tools }))];
}
