import type { JSONSchema, ToolResult } from "@junction/types";
import type { ToolSearchResult } from "./agent-events.js";
import type { CoreTool, CoreToolContext } from "./core-tool.js";
import { CORE_TOOL_ANNOTATIONS, coreToolError, coreToolInput, SEARCH_TOOLS } from "./core-tool.js";
import { type DenseToolIndex, fusedSearch, type ToolSearchFusion } from "./tool-search-dense.js";
import type { ToolIndex, ToolSearchHit } from "./tool-search-index.js";

/**
 * The default `toolSearch.minRelevance`: below this relevance of its best tool, a search says
 * nothing fits well (`nothingFits`) and loads at most its {@link CLOSEST_TOOLS} closest tools, or
 * under {@link MIN_CLOSEST_RELEVANCE} its {@link LOW_FIT_TOOLS} closest of a small catalog or a
 * search fused with a dense ranking, and nothing of a larger catalog ranked by words alone. It is
 * where a fit is
 * called `high`. Chosen on the tuning tasks (see the README's tool-search section), and checked
 * again when a word no tool has came to count the same at any number of tools: with
 * {@link MIN_CLOSEST_RELEVANCE}, the most "nothing fits" answers on requests no tool can do while
 * the right tool's recall@5 on the others drops by at most about 0.02 (relevance as
 * `ToolIndexSettings.relevanceTerms` defines it: over the request's two most telling words).
 */
export const MIN_RELEVANCE = 0.38;

/**
 * The default `toolSearch.minClosestRelevance`: a search that found nothing fitting well (under
 * `minRelevance`) still loads its {@link CLOSEST_TOOLS} closest tools when the best reaches this
 * (a `medium` fit), so the model can read them and call one from its next step; under it (a `low`
 * fit), only the closest {@link LOW_FIT_TOOLS} of a small catalog or of a search fused with a
 * dense ranking, and nothing of a larger catalog ranked by words alone. Checked again with a
 * fourth tuning set, the fresh set, written blind (bench/src/tune-tool-search-no-fit-floor.ts,
 * tune-tool-search-recall.ts): words alone lose no right tool up to 0.24, but with MiniLM fused
 * 0.24 loses one on the old sets, so it stays 0.2.
 */
export const MIN_CLOSEST_RELEVANCE = 0.2;

/** How many of its closest tools a search that found nothing fitting well loads, at most (a `medium` fit). */
export const CLOSEST_TOOLS = 3;

/**
 * How many of its closest tools a search whose best tool is a `low` fit (under
 * {@link MIN_CLOSEST_RELEVANCE}) still loads, beside "nothing fits well", from a small catalog (at
 * most {@link SMALL_CATALOG_TOOLS} tools) or with a dense ranking fused in: the closest one. On a
 * handful of tools a floor that loaded nothing would hide the one tool there is for the request,
 * and loading it costs one tool's definition; the model can tell a wrong tool from its
 * description. A larger catalog ranked by words alone loads nothing on a low fit: on the four
 * tuning sets (250 and 527 tools) a low fit loaded no right tool, while about half the requests
 * no tool can do are low fits. With a dense ranking the closest may be the tool the meaning ranks
 * first: on the blind set, loading nothing there lost one right tool with MiniLM
 * (bench/results/tool-search-recall-tuning.md), so it still loads. A request that shares no word
 * with any tool loads nothing, whatever the catalog.
 */
export const LOW_FIT_TOOLS = 1;

/** The most tools one search loads: the largest `limit` the model may ask for (the MCP gateway's too). */
export const MOST_LOADED_TOOLS = 10;

/**
 * The most tools a catalog may have for a low fit to still load its closest ({@link LOW_FIT_TOOLS}):
 * the most one search may load, so a weak match loads only from a catalog one answer could show whole.
 */
export const SMALL_CATALOG_TOOLS = MOST_LOADED_TOOLS;

/**
 * What a `search_tools` result carries as `structuredContent`, for code and benchmark harnesses
 * (the model reads the text): the tools found, best first, with their scores, which were loaded
 * (the model can call them from its next step), and whether nothing fitted well (then `loaded`
 * holds at most the closest {@link CLOSEST_TOOLS}, or the closest {@link LOW_FIT_TOOLS}).
 */
export interface ToolSearchOutput {
  query: string;
  results: ToolSearchResult[];
  loaded: string[];
  nothingFits: boolean;
}

/** A relevance as a word: how sure the search is that the tool fits. */
export function confidenceOf(score: number): ToolSearchResult["confidence"] {
  if (score >= MIN_RELEVANCE) return "high";
  if (score >= MIN_CLOSEST_RELEVANCE) return "medium";
  return "low";
}

/**
 * The search tool over `index`: each search loads what it finds into `loaded`, so those tools
 * are sent from the next step on (and kept in the run's state); searching again adds to them.
 * When even the best tool's relevance is under `minRelevance` (and, with `dense` and
 * `minSimilarity`, its best cosine similarity under `minSimilarity`), the answer says nothing
 * fits well and loads only the closest {@link CLOSEST_TOOLS} when the best reaches
 * `minClosestRelevance`, else the closest `lowFitTools` ({@link LOW_FIT_TOOLS}). With `dense`, the lexical and the dense ranking are fused; when the embedder
 * fails, that search ranks by words alone and `onEmbedderFailed` is told. Each call emits a
 * `tool-search` event.
 */
export function searchToolsTool(parts: SearchToolsParts): CoreTool {
  const { index } = parts;
  const maxResults = parts.maxResults ?? 5;
  return {
    definition: searchToolsDefinition(index.size, maxResults),
    execute: (input, context) => {
      const request = searchRequestOf(input, { tool: SEARCH_TOOLS, maxResults });
      if ("error" in request) return coreToolError(request.error);
      const { query: said, limit: count } = request;
      const { dense } = parts;
      if (!dense) return searchAnswer(parts, { said, found: index.search(said, count), context });
      return fusedSearch({
        index,
        dense,
        query: said,
        limit: count,
        ...(context?.signal ? { signal: context.signal } : {}),
        ...(parts.fusion !== undefined ? { fusion: parts.fusion } : {}),
        ...(parts.mixWeight !== undefined ? { mixWeight: parts.mixWeight } : {}),
      })
        .then(({ hits, bestRelevance, bestSimilarity }) =>
          searchAnswer(parts, { said, found: hits, bestRelevance, bestSimilarity, context }),
        )
        .catch((error: unknown) => {
          if (context?.signal?.aborted) throw error;
          parts.onEmbedderFailed?.(error);
          return searchAnswer(parts, { said, found: index.search(said, count), context });
        });
    },
  };
}

/** What {@link searchToolsTool} searches, loads into, and how it judges a fit. */
interface SearchToolsParts {
  index: ToolIndex;
  loaded: Set<string>;
  maxResults?: number;
  minRelevance?: number;
  minClosestRelevance?: number;
  lowFitTools?: number;
  dense?: DenseToolIndex;
  minSimilarity?: number;
  fusion?: ToolSearchFusion;
  mixWeight?: number;
  onEmbedderFailed?: (error: unknown) => void;
}

/** The search tool as the model sees it, over `size` deferred tools. */
function searchToolsDefinition(size: number, maxResults: number): CoreTool["definition"] {
  return {
    name: SEARCH_TOOLS,
    description:
      `Searches ${size} more tools that are available but not loaded yet, by what you want to do ` +
      "(words of their names, descriptions, parameters and servers). The tools found are loaded and can be called from your next step; " +
      "each comes with how well it fits (high, medium or low). When nothing fits well, the answer says so and loads only the closest few, or none: " +
      "read them before calling one, search again in other words, or answer without a tool. " +
      "A tool you already know by its exact name can be called without a search.",
    inputSchema: searchRequestSchema({ maxResults, limit: "How many tools to load at most" }),
    annotations: CORE_TOOL_ANNOTATIONS,
  };
}

/** The most characters of a request a search reads. */
const MOST_QUERY_CHARS = 1_000;

/**
 * A search tool's input schema: `query`, the request, and `limit`, how many tools at most (1 to
 * {@link MOST_LOADED_TOOLS}, `maxResults` when left out), `limit` saying what the tool does with
 * them. The Agent's `search_tools` and the MCP gateway's take the same arguments.
 */
export function searchRequestSchema(options: { maxResults: number; limit: string }): JSONSchema {
  return {
    type: "object",
    properties: {
      query: { type: "string", description: "What you want to do, in a few words." },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MOST_LOADED_TOOLS,
        description: `${options.limit} (default ${options.maxResults}).`,
      },
    },
    required: ["query"],
    additionalProperties: false,
  };
}

/**
 * A search tool's arguments (see {@link searchRequestSchema}) read: the request's first 1,000
 * characters, and `limit` as a whole number within 1 to {@link MOST_LOADED_TOOLS}, else
 * `maxResults`; or an error for the model when there is no request. Pure.
 */
export function searchRequestOf(
  input: unknown,
  options: { tool: string; maxResults: number },
): { query: string; limit: number } | { error: string } {
  const { query, limit } = coreToolInput(input);
  if (typeof query !== "string" || query.trim().length === 0) {
    return { error: `${options.tool} needs {"query": a non-empty string}.` };
  }
  return {
    query: query.slice(0, MOST_QUERY_CHARS),
    limit:
      typeof limit === "number" && Number.isInteger(limit)
        ? Math.min(MOST_LOADED_TOOLS, Math.max(1, limit))
        : options.maxResults,
  };
}

/** A search's hits judged (what fits, what loads), loaded, reported as a `tool-search` event, and answered. */
function searchAnswer(
  parts: SearchToolsParts,
  result: {
    said: string;
    found: ToolSearchHit[];
    /** The lexical ranking's best relevance, when the hits are fused (the first may be a dense one). */
    bestRelevance?: number;
    bestSimilarity?: number;
    context: CoreToolContext | undefined;
  },
): ToolResult {
  const { said, found } = result;
  const bestRelevance = result.bestRelevance ?? found.reduce((best, hit) => Math.max(best, hit.relevance), 0);
  const fitsBySimilarity =
    parts.minSimilarity !== undefined &&
    result.bestSimilarity !== undefined &&
    result.bestSimilarity >= parts.minSimilarity;
  const { nothingFits, offered: loading } = toolSearchFit(found, {
    catalogSize: parts.index.size,
    denseRanked: result.bestSimilarity !== undefined,
    bestRelevance,
    fitsBySimilarity,
    minRelevance: parts.minRelevance ?? MIN_RELEVANCE,
    minClosestRelevance: parts.minClosestRelevance ?? MIN_CLOSEST_RELEVANCE,
    ...(parts.lowFitTools !== undefined ? { lowFitTools: parts.lowFitTools } : {}),
  });
  for (const { definition } of loading) parts.loaded.add(definition.name);
  const output: ToolSearchOutput = {
    query: said,
    results: found.map(toolSearchResult),
    loaded: loading.map(({ definition }) => definition.name),
    nothingFits,
  };
  report(result.context, output);
  return {
    content: [{ type: "text", text: answer(said, found, output) }],
    isError: false,
    structuredContent: output,
  };
}

/**
 * Which of a search's hits to offer, and whether nothing fits well. What is offered follows a
 * budget set by the best hit's fit: everything found when the best relevance reaches
 * `minRelevance` (or `fitsBySimilarity`); else the {@link CLOSEST_TOOLS} closest when the best
 * reaches `minClosestRelevance`, so a right tool worded otherwise than the request can still be
 * called without a screenful of junk; else the closest `lowFitTools`: {@link LOW_FIT_TOOLS} (1)
 * when the catalog searched has at most {@link SMALL_CATALOG_TOOLS} tools (or its size is not
 * given), so that no floor hides the one tool a handful has, or when the hits are fused with a
 * dense ranking (`denseRanked`), and 0 for a larger catalog ranked by words alone. Nothing is
 * offered when no tool shares a word with the request (a best relevance of 0: a tool only a dense
 * ranking found is not enough). Pure. `bestRelevance` defaults to the hits' best (pass the
 * lexical ranking's best when the hits are fused with a dense ranking).
 */
export function toolSearchFit(
  found: readonly ToolSearchHit[],
  options: {
    /** How many tools the search ranked (its whole catalog), for the low-fit budget. */
    catalogSize?: number;
    /**
     * The hits are fused with a dense ranking: a low fit on words may be the tool the meaning
     * ranks first, so its closest `LOW_FIT_TOOLS` load whatever the catalog.
     */
    denseRanked?: boolean;
    bestRelevance?: number;
    fitsBySimilarity?: boolean;
    minRelevance?: number;
    minClosestRelevance?: number;
    /** @default LOW_FIT_TOOLS (1) for a catalog of at most SMALL_CATALOG_TOOLS tools, else 0 */
    lowFitTools?: number;
  } = {},
): { nothingFits: boolean; offered: ToolSearchHit[] } {
  const bestRelevance =
    options.bestRelevance ?? found.reduce((best, hit) => Math.max(best, hit.relevance), 0);
  const nothingFits = bestRelevance < (options.minRelevance ?? MIN_RELEVANCE) && !options.fitsBySimilarity;
  const lowFitTools =
    options.lowFitTools ??
    (options.denseRanked || (options.catalogSize ?? 0) <= SMALL_CATALOG_TOOLS ? LOW_FIT_TOOLS : 0);
  const budget = !nothingFits
    ? found.length
    : bestRelevance >= (options.minClosestRelevance ?? MIN_CLOSEST_RELEVANCE)
      ? CLOSEST_TOOLS
      : bestRelevance > 0
        ? Math.max(0, lowFitTools)
        : 0;
  return { nothingFits, offered: found.slice(0, budget) };
}

/** A hit as a search reports it: its name, its relevance to two decimals, and that in a word. */
export function toolSearchResult(hit: ToolSearchHit): ToolSearchResult {
  const score = Math.round(hit.relevance * 100) / 100;
  return { name: hit.definition.name, score, confidence: confidenceOf(score) };
}

function report(context: CoreToolContext | undefined, output: ToolSearchOutput): void {
  context?.emit({ type: "tool-search", id: context.callId, ...structuredClone(output) });
}

/** The text the model reads. */
function answer(query: string, found: ToolSearchHit[], output: ToolSearchOutput): string {
  const quoted = JSON.stringify(query.length > 200 ? `${query.slice(0, 200)}…` : query);
  if (found.length === 0) {
    return `No tool matches ${quoted}; nothing was loaded. Try other words, or answer without a tool.`;
  }
  const lines = output.loaded.map((name, index) => {
    const result = output.results[index]!;
    return `- ${name}: ${firstLine(found[index]!.definition.description)} [${result.confidence} fit, ${result.score.toFixed(2)}]`;
  });
  if (output.nothingFits && lines.length === 1) {
    return (
      `Nothing fits ${quoted} well. The closest tool, loaded in case it does (read what it does before calling it); ` +
      `or try other words, or answer without a tool:\n${lines.join("\n")}`
    );
  }
  if (output.nothingFits && lines.length > 0) {
    return (
      `Nothing fits ${quoted} well. The closest ${lines.length}, loaded in case one does (read what each does before calling it); ` +
      `or try other words, or answer without a tool:\n${lines.join("\n")}`
    );
  }
  if (output.nothingFits) {
    const closest = output.results
      .slice(0, 3)
      .map((result) => `${result.name} [${result.confidence} fit, ${result.score.toFixed(2)}]`)
      .join(", ");
    return `Nothing fits ${quoted} well (closest: ${closest}); no tool was loaded. Try other words, or answer without a tool.`;
  }
  return `Loaded ${found.length} tool(s), best first; call them from your next step:\n${lines.join("\n")}`;
}

function firstLine(description: string | undefined): string {
  const line = (description ?? "").split("\n", 1)[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
