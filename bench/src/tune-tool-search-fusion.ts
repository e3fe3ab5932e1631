// How core's tool search fuses its lexical ranking with the local model's (all-MiniLM-L6-v2 from
// @junction/embed-minilm), measured on the sets one may tune on only (tuning-pools.ts: our three
// old sets over tool-lists/ and LiveMCPBench's tuning half; never the blind set or the held-out
// half). Rows: words alone, the model alone, reciprocal rank fusion at a few dense weights, and a
// linear mix of the two scores at a range of weights (`fusedSearch`'s `fusion: "mix"`), recall@1
// and @5 at tool level. The vectors land in the package's disk cache, so a second run is fast.
// Run in bench/:
//   node --import ./src/resolve-typescript.ts src/tune-tool-search-fusion.ts
import { miniLM } from "@junction/embed-minilm";
import {
  DenseToolIndex,
  fusedSearch,
  InMemoryEmbeddingCache,
} from "../../packages/core/src/tool-search-dense.ts";
import { type SearchableTool, ToolIndex } from "../../packages/core/src/tool-search-index.ts";
import { type RankedAnswer, summarize } from "./retrieval-metrics.ts";
import { captured, live, liveTuning, oldSets, type Task } from "./tuning-pools.ts";

const embed = miniLM();
const oldTasks: Task[] = oldSets.flatMap(([, tasks]) => tasks);

type Fusion = { fusion: "rrf"; denseWeight: number } | { fusion: "mix"; mixWeight: number };
const fusions: (Fusion | "lexical" | "dense")[] = [
  "lexical",
  "dense",
  ...[0.5, 1].map((denseWeight) => ({ fusion: "rrf" as const, denseWeight })),
  ...[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9].map((mixWeight) => ({
    fusion: "mix" as const,
    mixWeight,
  })),
];

async function run(pool: SearchableTool[], tasks: readonly Task[], how: (typeof fusions)[number]) {
  const index = new ToolIndex(pool);
  const dense = new DenseToolIndex({ tools: pool, embed, cache: new InMemoryEmbeddingCache() });
  const answers: RankedAnswer[] = [];
  for (const task of tasks) {
    let ranked: string[];
    if (how === "lexical") ranked = index.search(task.query, 5).map((hit) => hit.definition.name);
    else if (how === "dense")
      ranked = (await dense.rank(task.query)).slice(0, 5).map(({ tool }) => pool[tool]!.definition.name);
    else
      ranked = (await fusedSearch({ index, dense, query: task.query, limit: 5, ...how })).hits.map(
        (hit) => hit.definition.name,
      );
    answers.push({ gold: task.gold, ranked });
  }
  return summarize(answers);
}

const started = performance.now();
for (const how of fusions) {
  const old = await run(captured, oldTasks, how);
  const liveResult = await run(live, liveTuning, how);
  const label =
    typeof how === "string"
      ? how
      : how.fusion === "rrf"
        ? `rrf dense weight ${how.denseWeight}`
        : `mix weight ${how.mixWeight}`;
  console.log(
    `${label.padEnd(22)} old sets (${oldTasks.length}) r1 ${old.recallAt1.toFixed(3)} r5 ${old.recallAt5.toFixed(3)} | live tuning (${liveTuning.length}) r1 ${liveResult.recallAt1.toFixed(3)} r5 ${liveResult.recallAt5.toFixed(3)} nDCG5 ${liveResult.ndcgAt5?.toFixed(3)}`,
  );
}
console.log(
  `model: ${embed.modelId}; ${JSON.stringify(embed.stats)}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
await embed.close();
