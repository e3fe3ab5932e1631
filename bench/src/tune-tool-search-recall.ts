// Issue 37's recall work on core's tool search, measured on the sets one may tune on only
// (tuning-pools.ts: our three old sets and the fresh set over tool-lists/, the no-fit tuning tasks
// and LiveMCPBench's tuning half; never the blind set or LiveMCPBench's held-out half). Each variant ranks as a search
// would (words alone, or words and all-MiniLM-L6-v2 fused), then loads what `toolSearchFit` loads
// (the closest 3 or 1 when nothing fits well), and is scored on what was loaded: recall@1 and @5
// at tool level and at server level (retrieval-metrics.ts), and "nothing fits" on the no-fit tasks.
// "words" and "mix 0.7" are the search before issue 37 (no file hint, the tool text with its name
// as is, the mix over each score's theoretical range); the "shipped" rows are core's defaults now.
// Every other row changes one thing or two from before. Results: results/tool-search-recall-tuning.md.
// Run in bench/ (a name ending in * picks every variant it starts):
//   node --import ./src/resolve-typescript.ts src/tune-tool-search-recall.ts [variant-name…] [--deep [-v]] [--no-budget]
import { miniLM } from "@junction/embed-minilm";
import type { Embedder } from "@junction/types";
import {
  DEFAULT_MIX_WEIGHT,
  DenseToolIndex,
  fusedSearch,
  InMemoryEmbeddingCache,
  toolEmbeddingText,
} from "../../packages/core/src/tool-search-dense.ts";
import {
  namesAFile,
  requestParts,
  type SearchableTool,
  TOOL_INDEX_SETTINGS,
  ToolIndex,
  type ToolIndexSettings,
  type ToolSearchHit,
} from "../../packages/core/src/tool-search-index.ts";
import { searchTerms } from "../../packages/core/src/tool-search-terms.ts";
import { toolSearchFit } from "../../packages/core/src/tool-search-tool.ts";
import { atServerLevel, type RankedAnswer, summarize } from "./retrieval-metrics.ts";
import { TOOL_SEARCH_NO_FIT_TUNING_TASKS } from "./tool-search-no-fit-tuning-tasks.ts";
import { captured, freshNoFit, freshTasks, live, liveTuning, oldSets, type Task } from "./tuning-pools.ts";

const embed = miniLM();
const oldTasks: Task[] = oldSets.flatMap(([, tasks]) => tasks);
const noFit: Task[] = TOOL_SEARCH_NO_FIT_TUNING_TASKS.map((query) => ({ query, gold: [["\0none"]] }));

type TextOf = (tool: SearchableTool) => string;
interface Variant {
  /** Words alone when `undefined`: the dense score's weight in the mix. */
  mix?: number;
  /** How scores are put on one scale before the mix: over the theoretical range (shipped), min-max, z-score. */
  norm?: "range" | "minmax" | "z";
  /** The text a tool is embedded from. */
  text?: TextOf;
  /** The request's parts embedded too (requestParts), a tool's similarity the best over the whole and its parts. */
  denseParts?: "max" | "mean-max";
  /** The request's parts searched apart (words and meaning), their rankings interleaved. */
  partsRoundRobin?: boolean;
  /** At most this many tools of one server in the results before the others' (the rest after). */
  perServer?: number;
  /** Greedy: each next tool's score times this for every tool of its server already chosen (0..1). */
  serverDecay?: number;
  /** A tool's score plus this times the best other score of its server (over the best score). */
  serverBoost?: number;
  settings?: Partial<ToolIndexSettings>;
  depth?: number;
  /** What the lexical side of the mix is: its relevance (shipped, capped at 1) or its BM25 score. */
  lexicalBy?: "relevance" | "score";
  /** Core's own fusedSearch (as shipped: its embedding text, its mix), the mix weight `mix`; `"rrf"`: its reciprocal rank fusion. */
  core?: boolean | "rrf";
  /** The request embedded with this added when it names a file (namesAFile). */
  denseFileHint?: string;
  /** Parts by sentence and "then" (intentParts) instead of requestParts. */
  intents?: boolean;
  /** With `core`: a search fits when its best similarity reaches this (`toolSearch.minSimilarity`). */
  minSimilarity?: number;
}

/** A request's intents: its sentences and its clauses after "then", "after that", "finally"; a part keeps 3 words. */
function intentParts(query: string): string[] {
  const pieces = query
    .split(
      /(?<=[.!?。！？])\s+|[;；\n]+|\s*,?\s+(?:and then|then|after that|afterwards|finally|and also)\b,?\s*/iu,
    )
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
  const parts: string[] = [];
  for (const piece of pieces) {
    if (parts.length > 0 && searchTerms(piece).length < 3) parts[parts.length - 1] += ` ${piece}`;
    else parts.push(piece);
  }
  if (parts.length > 1 && searchTerms(parts[0]!).length < 3) parts[1] = `${parts.shift()} ${parts[0]}`;
  return parts;
}

function splitName(name: string): string {
  return name.replace(/[_\-.]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2");
}
function firstSentence(text: string | undefined): string {
  if (!text) return "";
  const match = /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim());
  return (match ? match[0] : text).trim();
}
/** The text a tool was embedded from before issue 37: its name as is, title, description, parameters. */
const beforeText: TextOf = (tool) =>
  toolEmbeddingText({ definition: tool.definition }).replace(/^[^\n]*/, tool.definition.name);
const withSplitName = (tool: SearchableTool) => toolEmbeddingText({ definition: tool.definition });
const texts: Record<string, TextOf> = {
  before: beforeText,
  split: withSplitName,
  "split+source": toolEmbeddingText,
  "split+first": (tool) =>
    [splitName(tool.definition.name), firstSentence(tool.definition.description)].join("\n"),
  "split+desc": (tool) => [splitName(tool.definition.name), tool.definition.description ?? ""].join("\n"),
  "split+desc+params": (tool) => {
    const properties = (tool.definition.inputSchema as { properties?: Record<string, unknown> }).properties;
    return [
      splitName(tool.definition.name),
      tool.definition.description ?? "",
      properties ? `Parameters: ${Object.keys(properties).map(splitName).join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("\n");
  },
};

const variants: Record<string, Variant> = {
  words: {},
  "mix 0.7": { mix: 0.7 },
  "shipped: words": { settings: { fileHint: TOOL_INDEX_SETTINGS.fileHint } },
  [`shipped: core mix ${DEFAULT_MIX_WEIGHT}`]: {
    core: true,
    mix: DEFAULT_MIX_WEIGHT,
    settings: { fileHint: TOOL_INDEX_SETTINGS.fileHint },
  },
  "shipped: core rrf": { core: "rrf", mix: 1, settings: { fileHint: TOOL_INDEX_SETTINGS.fileHint } },
};
for (const name of Object.keys(texts))
  if (name !== "before") variants[`mix 0.7 text ${name}`] = { mix: 0.7, text: texts[name] };
for (const norm of ["minmax", "z"] as const) variants[`mix 0.7 norm ${norm}`] = { mix: 0.7, norm };
for (const mix of [0.5, 0.6, 0.8]) variants[`minmax ${mix}`] = { mix, norm: "minmax" };
variants["mix 0.7 by score"] = { mix: 0.7, lexicalBy: "score" };
variants["minmax 0.6 by score"] = { mix: 0.6, norm: "minmax", lexicalBy: "score" };
variants["mix 0.7 parts max"] = { mix: 0.7, denseParts: "max" };
variants["mix 0.7 parts rr"] = { mix: 0.7, partsRoundRobin: true };
variants["words parts rr"] = { partsRoundRobin: true };
variants["mix 0.7 intents max"] = { mix: 0.7, denseParts: "max", intents: true };
variants["mix 0.7 intents mean-max"] = { mix: 0.7, denseParts: "mean-max", intents: true };
variants["mix 0.7 intents rr"] = { mix: 0.7, partsRoundRobin: true, intents: true };
variants["words intents rr"] = { partsRoundRobin: true, intents: true };
variants["mix 0.7 intents rr perServer 3"] = { mix: 0.7, partsRoundRobin: true, intents: true, perServer: 3 };
variants["mix 0.7 intents rr perServer 2"] = { mix: 0.7, partsRoundRobin: true, intents: true, perServer: 2 };
for (const perServer of [1, 2, 3]) {
  variants[`mix 0.7 perServer ${perServer}`] = { mix: 0.7, perServer };
  variants[`words perServer ${perServer}`] = { perServer };
}
for (const serverBoost of [0.1, 0.2, 0.3]) {
  variants[`mix 0.7 boost ${serverBoost}`] = { mix: 0.7, serverBoost };
  variants[`words boost ${serverBoost}`] = { serverBoost };
}

for (const fileHint of [0.3, 0.5, 0.7, 1]) {
  variants[`words file ${fileHint}`] = { settings: { fileHint } };
  variants[`mix 0.7 file ${fileHint}`] = { mix: 0.7, settings: { fileHint } };
}
for (const fileHint of [1.5, 2]) {
  variants[`words file ${fileHint}`] = { settings: { fileHint } };
  variants[`mix 0.7 file ${fileHint}`] = { mix: 0.7, settings: { fileHint } };
}
for (const source of [0.25, 0.75, 1]) {
  variants[`words f1 source ${source}`] = { settings: { fileHint: 1, source } };
  variants[`mix 0.7 f1 source ${source}`] = { mix: 0.7, settings: { fileHint: 1, source } };
}
const fields = TOOL_INDEX_SETTINGS.fields;
for (const [field, value] of [
  ["name", 2],
  ["name", 4],
  ["parameters", 1],
  ["parameters", 2],
  ["title", 1],
  ["description", 1.5],
  ["parameterDescriptions", 0.05],
] as const) {
  variants[`words f1 ${field} ${value}`] = {
    settings: { fileHint: 1, fields: { ...fields, [field]: value } },
  };
  variants[`mix 0.7 f1 ${field} ${value}`] = {
    mix: 0.7,
    settings: { fileHint: 1, fields: { ...fields, [field]: value } },
  };
}
variants["mix 0.7 f1 text split+source"] = {
  mix: 0.7,
  settings: { fileHint: 1 },
  text: texts["split+source"],
};
variants["mix 0.7 f1 text split+desc+params"] = {
  mix: 0.7,
  settings: { fileHint: 1 },
  text: texts["split+desc+params"],
};
variants["mix 0.7 f1 intents max"] = {
  mix: 0.7,
  settings: { fileHint: 1 },
  denseParts: "max",
  intents: true,
};
for (const mix of [0.6, 0.65, 0.75, 0.8]) variants[`mix ${mix} f1`] = { mix, settings: { fileHint: 1 } };
for (const serverDecay of [0.95, 0.9, 0.8]) {
  variants[`words f1 decay ${serverDecay}`] = { settings: { fileHint: 1 }, serverDecay };
  variants[`mix 0.7 f1 decay ${serverDecay}`] = { mix: 0.7, settings: { fileHint: 1 }, serverDecay };
}
variants["mix 0.7 f1 split+source intents max"] = {
  mix: 0.7,
  settings: { fileHint: 1 },
  text: texts["split+source"],
  denseParts: "max",
  intents: true,
};
for (const mix of [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7])
  variants[`minmax ${mix} f1`] = { mix, norm: "minmax", settings: { fileHint: 1 } };
for (const mix of [0.5, 0.6])
  variants[`minmax ${mix} f1 intents max`] = {
    mix,
    norm: "minmax",
    settings: { fileHint: 1 },
    denseParts: "max",
    intents: true,
  };
for (const mix of [0.5, 0.6])
  variants[`minmax ${mix} f1 split+source`] = {
    mix,
    norm: "minmax",
    settings: { fileHint: 1 },
    text: texts["split+source"],
  };
for (const mix of [0.55, 0.65, 0.7])
  variants[`minmax ${mix} f1 split+source`] = {
    mix,
    norm: "minmax",
    settings: { fileHint: 1 },
    text: texts["split+source"],
  };
variants["minmax 0.6 f1 split+source intents max"] = {
  mix: 0.6,
  norm: "minmax",
  settings: { fileHint: 1 },
  text: texts["split+source"],
  denseParts: "max",
  intents: true,
};
variants["minmax 0.6 f1.5 split+source"] = {
  mix: 0.6,
  norm: "minmax",
  settings: { fileHint: 1.5 },
  text: texts["split+source"],
};
variants["minmax 0.6 f0.5 split+source"] = {
  mix: 0.6,
  norm: "minmax",
  settings: { fileHint: 0.5 },
  text: texts["split+source"],
};
variants["minmax 0.6 split+source"] = { mix: 0.6, norm: "minmax", text: texts["split+source"] };
variants["minmax 0.6 f1 split"] = { mix: 0.6, norm: "minmax", settings: { fileHint: 1 }, text: texts.split };
for (const depth of [20, 100])
  variants[`minmax 0.6 f1 depth ${depth}`] = { mix: 0.6, norm: "minmax", settings: { fileHint: 1 }, depth };
for (const mix of [0.3, 0.4, 0.5]) variants[`z ${mix} f1`] = { mix, norm: "z", settings: { fileHint: 1 } };
for (const minSimilarity of [0.4, 0.45, 0.5, 0.55, 0.6])
  variants[`shipped: core mix ${DEFAULT_MIX_WEIGHT} sim ${minSimilarity}`] = {
    core: true,
    mix: DEFAULT_MIX_WEIGHT,
    settings: { fileHint: TOOL_INDEX_SETTINGS.fileHint },
    minSimilarity,
  };
variants["mix 0.7 file 0.5 dense"] = { mix: 0.7, settings: { fileHint: 0.5 }, denseFileHint: " (a file)" };
variants["mix 0.7 dense file"] = { mix: 0.7, denseFileHint: " (a file)" };

function serverOfIn(pool: readonly SearchableTool[]): (name: string) => string {
  const servers = new Map(pool.map((tool) => [tool.definition.name, tool.source?.name ?? ""]));
  return (name) => servers.get(name) ?? name;
}

const denseCache = new Map<string, DenseToolIndex>();
/** Each variant text by a key that core's toolEmbeddingText keeps as it is ("\u0001<n>"), for the embedder below. */
const textOfKey = new Map<string, string>();
/** MiniLM, embedding a key's text in place of the key (a query is embedded as it is). */
const keyedEmbed: Embedder = (given, options) =>
  embed(
    given.map((text) => textOfKey.get(text) ?? text),
    options,
  );
function denseFor(
  pool: SearchableTool[],
  { poolName, textName, text }: { poolName: string; textName: string; text: TextOf },
) {
  const key = `${poolName}\0${textName}`;
  let dense = denseCache.get(key);
  if (!dense) {
    // DenseToolIndex embeds toolEmbeddingText of each tool: a tool named by a key alone, whose text the embedder swaps in.
    const tools = pool.map((tool) => {
      const name = `\u0001${textOfKey.size}`;
      textOfKey.set(name, text(tool));
      return { definition: { name, description: "", inputSchema: {} } };
    });
    dense = new DenseToolIndex({ tools, embed: keyedEmbed, cache: new InMemoryEmbeddingCache() });
    denseCache.set(key, dense);
  }
  return dense;
}

interface Scored {
  tool: number;
  score: number;
  relevance: number;
}

async function similarities(dense: DenseToolIndex, query: string, size: number): Promise<Float64Array> {
  const out = new Float64Array(size);
  for (const { tool, similarity } of await dense.rank(query)) out[tool] = similarity;
  return out;
}

function normalise(
  values: Float64Array,
  candidates: number[],
  { how, floor }: { how: Variant["norm"]; floor: number },
) {
  const out = new Map<number, number>();
  let best = Number.NEGATIVE_INFINITY;
  let worst = Number.POSITIVE_INFINITY;
  let sum = 0;
  let squares = 0;
  for (const tool of candidates) {
    const value = values[tool]!;
    best = Math.max(best, value);
    worst = Math.min(worst, value);
    sum += value;
    squares += value * value;
  }
  const mean = sum / candidates.length;
  const sd = Math.sqrt(Math.max(1e-12, squares / candidates.length - mean * mean));
  for (const tool of candidates) {
    const value = values[tool]!;
    out.set(
      tool,
      how === "minmax"
        ? best > worst
          ? (value - worst) / (best - worst)
          : 1
        : how === "z"
          ? (value - mean) / sd
          : (value - floor) / (best - floor || 1),
    );
  }
  return out;
}

/** One request's ranking under a variant: every candidate tool with its fused score and lexical relevance. */
async function rankOnce(
  context: { index: ToolIndex; dense: DenseToolIndex | undefined; size: number },
  { query, variant, parts }: { query: string; variant: Variant; parts: string[] },
): Promise<Scored[]> {
  const depth = variant.depth ?? 50;
  const lexical = context.index.search(query, depth);
  const orderOf = new Map(context.index.tools.map((tool, order) => [tool.definition, order]));
  const relevance = new Float64Array(context.size);
  const lexicalScore = new Float64Array(context.size);
  for (const hit of lexical) {
    const tool = orderOf.get(hit.definition)!;
    relevance[tool] = hit.relevance;
    lexicalScore[tool] = variant.lexicalBy === "score" ? hit.score : hit.relevance;
  }
  if (variant.mix === undefined || !context.dense)
    return lexical.map((hit) => ({
      tool: orderOf.get(hit.definition)!,
      score: hit.score,
      relevance: hit.relevance,
    }));
  let sims = await similarities(
    context.dense,
    variant.denseFileHint && namesAFile(query) ? `${query}${variant.denseFileHint}` : query,
    context.size,
  );
  if (variant.denseParts && parts.length > 1) {
    const each = await Promise.all(parts.map((part) => similarities(context.dense!, part, context.size)));
    const combined = new Float64Array(context.size);
    for (let tool = 0; tool < context.size; tool++) {
      const best = Math.max(...each.map((values) => values[tool]!));
      combined[tool] = variant.denseParts === "max" ? Math.max(sims[tool]!, best) : (sims[tool]! + best) / 2;
    }
    sims = combined;
  }
  const denseOrder = [...sims.keys()].sort((a, b) => sims[b]! - sims[a]! || a - b);
  const candidates = [
    ...new Set([...lexical.map((hit) => orderOf.get(hit.definition)!), ...denseOrder.slice(0, depth)]),
  ];
  const lexicalNorm = normalise(lexicalScore, candidates, { how: variant.norm, floor: 0 });
  const denseNorm = normalise(sims, candidates, { how: variant.norm, floor: -1 });
  const weight = variant.mix;
  return candidates
    .map((tool) => ({
      tool,
      score: (1 - weight) * lexicalNorm.get(tool)! + weight * denseNorm.get(tool)!,
      relevance: relevance[tool]!,
    }))
    .sort((a, b) => b.score - a.score || a.tool - b.tool);
}

async function search(
  context: { index: ToolIndex; dense: DenseToolIndex | undefined; size: number; pool: SearchableTool[] },
  query: string,
  variant: Variant,
): Promise<{ hits: Scored[]; bestRelevance: number; bestSimilarity?: number }> {
  const parts = variant.intents ? intentParts(query) : requestParts(query);
  let ranked = await rankOnce(context, { query, variant, parts });
  const bestRelevance = ranked.reduce((best, hit) => Math.max(best, hit.relevance), 0);
  if (variant.partsRoundRobin && parts.length > 1) {
    const rankings = [
      ranked,
      ...(await Promise.all(parts.map((part) => rankOnce(context, { query: part, variant, parts: [] })))),
    ];
    const seen = new Set<number>();
    const order: Scored[] = [];
    for (let rank = 0; rank < 50; rank++)
      for (const ranking of rankings) {
        const hit = ranking[rank];
        if (!hit || seen.has(hit.tool)) continue;
        seen.add(hit.tool);
        order.push({ ...hit, relevance: ranked.find((entry) => entry.tool === hit.tool)?.relevance ?? 0 });
      }
    ranked = order;
  }
  const serverOf = (tool: number) => context.pool[tool]!.source?.name ?? String(tool);
  if (variant.serverBoost && ranked.length > 0) {
    const top = Math.max(...ranked.map((hit) => hit.score)) || 1;
    const byServer = new Map<string, Scored[]>();
    for (const hit of ranked)
      byServer.set(serverOf(hit.tool), [...(byServer.get(serverOf(hit.tool)) ?? []), hit]);
    ranked = ranked
      .map((hit) => {
        const others = byServer.get(serverOf(hit.tool))!.filter((other) => other.tool !== hit.tool);
        const bestOther = others.reduce((best, other) => Math.max(best, other.score), 0);
        return { ...hit, score: hit.score + variant.serverBoost! * bestOther * (top / top) };
      })
      .sort((a, b) => b.score - a.score || a.tool - b.tool);
  }
  if (variant.serverDecay !== undefined) {
    const pool = [...ranked];
    const chosenCount = new Map<string, number>();
    const order: Scored[] = [];
    while (pool.length > 0 && order.length < 50) {
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      pool.forEach((hit, at) => {
        const score = hit.score * variant.serverDecay! ** (chosenCount.get(serverOf(hit.tool)) ?? 0);
        if (score > bestScore) {
          bestScore = score;
          best = at;
        }
      });
      const [hit] = pool.splice(best, 1);
      chosenCount.set(serverOf(hit!.tool), (chosenCount.get(serverOf(hit!.tool)) ?? 0) + 1);
      order.push(hit!);
    }
    ranked = order;
  }
  if (variant.perServer) {
    const count = new Map<string, number>();
    const first: Scored[] = [];
    const rest: Scored[] = [];
    for (const hit of ranked) {
      const server = serverOf(hit.tool);
      const seen = count.get(server) ?? 0;
      count.set(server, seen + 1);
      (seen < variant.perServer ? first : rest).push(hit);
    }
    ranked = [...first, ...rest];
  }
  return { hits: ranked.slice(0, process.argv.includes("--deep") ? 50 : 5), bestRelevance };
}

const coreDense = new Map<string, DenseToolIndex>();
async function coreSearch(
  pool: SearchableTool[],
  {
    poolName,
    index,
    query,
    mixWeight,
    fusion,
  }: { poolName: string; index: ToolIndex; query: string; mixWeight: number; fusion?: "rrf" },
) {
  let dense = coreDense.get(poolName);
  if (!dense) {
    dense = new DenseToolIndex({ tools: pool, embed, cache: new InMemoryEmbeddingCache() });
    coreDense.set(poolName, dense);
  }
  const orderOf = new Map(pool.map((tool, order) => [tool.definition, order]));
  const result = await fusedSearch({
    index,
    dense,
    query,
    limit: 5,
    ...(fusion === "rrf" ? {} : { fusion: "mix", mixWeight }),
  });
  return {
    hits: result.hits.map((hit) => ({
      tool: orderOf.get(hit.definition)!,
      score: hit.score,
      relevance: hit.relevance,
    })),
    bestRelevance: result.bestRelevance,
    bestSimilarity: result.bestSimilarity,
  };
}

async function run(
  pool: SearchableTool[],
  { poolName, tasks, variant }: { poolName: string; tasks: readonly Task[]; variant: Variant },
) {
  // Every variant starts from the settings before issue 37 (no file hint).
  const settings = { ...TOOL_INDEX_SETTINGS, fileHint: 0, ...variant.settings };
  const index = new ToolIndex(pool, settings);
  const text = variant.text ?? beforeText;
  const textName = Object.entries(texts).find(([, each]) => each === text)![0];
  const dense = variant.mix === undefined ? undefined : denseFor(pool, { poolName, textName, text });
  const serverOf = serverOfIn(pool);
  const answers: RankedAnswer[] = [];
  let nothing = 0;
  const deep: number[][] = [];
  for (const task of tasks) {
    const { hits, bestRelevance, bestSimilarity } = variant.core
      ? await coreSearch(pool, {
          poolName,
          index,
          query: task.query,
          mixWeight: variant.mix!,
          ...(variant.core === "rrf" ? { fusion: "rrf" as const } : {}),
        })
      : await search({ index, dense, size: pool.length, pool }, task.query, variant);
    const found: ToolSearchHit[] = hits.map((hit) => ({
      definition: pool[hit.tool]!.definition,
      score: hit.score,
      relevance: hit.relevance,
    }));
    const fitsBySimilarity =
      variant.minSimilarity !== undefined &&
      bestSimilarity !== undefined &&
      bestSimilarity >= variant.minSimilarity;
    const fit = toolSearchFit(found, {
      catalogSize: pool.length,
      denseRanked: variant.mix !== undefined,
      bestRelevance,
      fitsBySimilarity,
    });
    const { nothingFits } = fit;
    // `--no-budget`: everything found counts, as if "nothing fits" loaded no fewer.
    const offered = process.argv.includes("--no-budget") ? found : fit.offered;
    if (nothingFits) nothing++;
    answers.push({ gold: task.gold, ranked: offered.map((hit) => hit.definition.name) });
    if (process.argv.includes("--deep")) {
      const names = found.map((hit) => hit.definition.name);
      deep.push(task.gold.map((units) => Math.min(...units.map((name) => names.indexOf(name) + 1 || 99))));
      if (process.argv.includes("-v") && poolName === "live")
        console.log(
          `  ${task.query.slice(0, 90)} → gold ranks ${deep.at(-1)!.join(",")}; top ${names.slice(0, 5).join(" ")}`,
        );
    }
  }
  return {
    tool: summarize(answers),
    server: summarize(answers.map((answer) => atServerLevel(answer, serverOf))),
    nothing,
    deep: [5, 10, 20, 50]
      .map((k) =>
        (deep.flat().filter((rank) => rank <= k).length / Math.max(1, deep.flat().length)).toFixed(2),
      )
      .join("/"),
  };
}

const chosen = process.argv.slice(2).filter((argument) => !argument.startsWith("-"));
const f = (value: number) => value.toFixed(3);
for (const [name, variant] of Object.entries(variants)) {
  if (
    chosen.length > 0 &&
    !chosen.some((given) => (given.endsWith("*") ? name.startsWith(given.slice(0, -1)) : name === given))
  )
    continue;
  const old = await run(captured, { poolName: "captured", tasks: oldTasks, variant });
  const perSet: string[] = [];
  for (const [setName, tasks] of oldSets) {
    const result = await run(captured, { poolName: "captured", tasks: tasks, variant });
    perSet.push(`${setName} ${f(result.tool.recallAt1)}/${f(result.tool.recallAt5)}`);
  }
  const liveResult = await run(live, { poolName: "live", tasks: liveTuning, variant });
  const noFitResult = await run(captured, { poolName: "captured", tasks: noFit, variant });
  const freshResult = await run(captured, { poolName: "captured", tasks: freshTasks, variant });
  const freshNoFitResult = await run(captured, {
    poolName: "captured",
    tasks: freshNoFit.map((query) => ({ query, gold: [["\0none"]] })),
    variant,
  });
  console.log(
    `${name.padEnd(30)} old(${oldTasks.length}) r1 ${f(old.tool.recallAt1)} r5 ${f(old.tool.recallAt5)} srv ${f(old.server.recallAt5)} nf ${old.nothing}` +
      ` | live(${liveTuning.length}) r1 ${f(liveResult.tool.recallAt1)} r5 ${f(liveResult.tool.recallAt5)} srv r1 ${f(liveResult.server.recallAt1)} r5 ${f(liveResult.server.recallAt5)} nf ${liveResult.nothing}` +
      ` | fresh(${freshTasks.length}) r1 ${f(freshResult.tool.recallAt1)} r5 ${f(freshResult.tool.recallAt5)} nf ${freshResult.nothing} no-fit ${freshNoFitResult.nothing}/${freshNoFit.length}` +
      ` | no-fit ${noFitResult.nothing}/${noFit.length} | ${perSet.join(" ")}${process.argv.includes("--deep") ? ` | units found @5/10/20/50 old ${old.deep} live ${liveResult.deep}` : ""}`,
  );
}
await embed.close();
