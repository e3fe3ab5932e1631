// Tuning harness for core's tool search: the ranking (`ToolIndex`, no Agent) and the "nothing fits"
// rule on the sets one may tune on, and nothing else: our three old sets over tool-lists/, the
// no-fit tuning tasks, and LiveMCPBench's tuning half. It never reads the blind set or the
// LiveMCPBench held-out half. Run:
//   node --import ./src/resolve-typescript.ts src/tune-tool-search.ts [variant JSON…] [-v] [--latency]
// Each variant is a JSON override of the shipped `TOOL_INDEX_SETTINGS`; `-v` prints the misses.
import {
  TOOL_INDEX_SETTINGS,
  ToolIndex,
  type ToolIndexSettings,
} from "../../packages/core/src/tool-search-index.ts";
import {
  MIN_CLOSEST_RELEVANCE,
  MIN_RELEVANCE,
  toolSearchFit,
} from "../../packages/core/src/tool-search-tool.ts";
import { type RankedAnswer, summarize } from "./retrieval-metrics.ts";
import { TOOL_SEARCH_NO_FIT_TUNING_TASKS } from "./tool-search-no-fit-tuning-tasks.ts";
import { captured, live, liveTuning, oldSets, type Task } from "./tuning-pools.ts";

const verbose = process.argv.includes("-v");
const thresholdArgument = process.argv.find((argument) => argument.startsWith("--min="));
const variants = process.argv.slice(2).filter((argument) => !argument.startsWith("-"));

/** Under `minRelevance` the search says nothing fits well and gives the model only its closest few (`toolSearchFit`: 3, or under `minClosest` 1 of a small catalog and none of a larger). */
function run(
  index: ToolIndex,
  tasks: readonly Task[],
  { minRelevance, minClosest }: { minRelevance: number; minClosest: number },
) {
  const plain: RankedAnswer[] = [];
  const gated: RankedAnswer[] = [];
  let nothing = 0;
  const misses: string[] = [];
  for (const task of tasks) {
    const hits = index.search(task.query, 5);
    const ranked = hits.map((hit) => hit.definition.name);
    const fits = (hits[0]?.relevance ?? 0) >= minRelevance;
    if (!fits) nothing++;
    plain.push({ gold: task.gold, ranked });
    const { offered } = toolSearchFit(hits, {
      catalogSize: index.size,
      minRelevance,
      minClosestRelevance: minClosest,
    });
    gated.push({ gold: task.gold, ranked: offered.map((hit) => hit.definition.name) });
    const missing = task.gold.filter((names) => !names.some((name) => ranked.includes(name)));
    if (missing.length > 0 || !fits)
      misses.push(
        `${fits ? "" : `[nothing fits ${hits[0]?.relevance.toFixed(2)}] `}${task.query.slice(0, 120)} → wanted ${missing.map((names) => names[0]).join(", ")}; got ${ranked.slice(0, 3).join(", ")}`,
      );
  }
  return { plain: summarize(plain), gated: summarize(gated), nothing, misses };
}

for (const variant of ["{}", ...variants]) {
  const overrides = JSON.parse(variant) as Partial<ToolIndexSettings> & {
    minRelevance?: number;
    minClosestRelevance?: number;
  };
  const settings: ToolIndexSettings = {
    ...TOOL_INDEX_SETTINGS,
    ...overrides,
    fields: { ...TOOL_INDEX_SETTINGS.fields, ...overrides.fields },
  };
  const minRelevance =
    overrides.minRelevance ?? (thresholdArgument ? Number(thresholdArgument.slice(6)) : MIN_RELEVANCE);
  const minClosest = overrides.minClosestRelevance ?? MIN_CLOSEST_RELEVANCE;
  const capturedIndex = new ToolIndex(captured, settings);
  const liveIndex = new ToolIndex(live, settings);
  const cells: string[] = [];
  const allMisses: string[] = [];
  let oldPlain = 0;
  let oldGated = 0;
  let oldCount = 0;
  let oldNothing = 0;
  for (const [name, tasks] of oldSets) {
    const result = run(capturedIndex, tasks, { minRelevance, minClosest });
    oldPlain += result.plain.recallAt5 * tasks.length;
    oldGated += result.gated.recallAt5 * tasks.length;
    oldCount += tasks.length;
    oldNothing += result.nothing;
    cells.push(`${name} ${result.plain.recallAt1.toFixed(3)}/${result.plain.recallAt5.toFixed(3)}`);
    allMisses.push(...result.misses.map((miss) => `${name}: ${miss}`));
  }
  const liveResult = run(liveIndex, liveTuning, { minRelevance, minClosest });
  allMisses.push(...liveResult.misses.map((miss) => `live: ${miss}`));
  const noFit = TOOL_SEARCH_NO_FIT_TUNING_TASKS.map(
    (query) => capturedIndex.search(query, 5)[0]?.relevance ?? 0,
  );
  const saidNothing = noFit.filter((top) => top < minRelevance).length;
  console.log(`${variant}  (minRelevance ${minRelevance}, minClosestRelevance ${minClosest})`);
  console.log(
    `  old sets r1/r5: ${cells.join("  ")}  | all r5 ${(oldPlain / oldCount).toFixed(3)} → gated ${(oldGated / oldCount).toFixed(3)} (nothing fits on ${oldNothing}/${oldCount})`,
  );
  console.log(
    `  live tuning: r1 ${liveResult.plain.recallAt1.toFixed(3)} r5 ${liveResult.plain.recallAt5.toFixed(3)} nDCG5 ${liveResult.plain.ndcgAt5?.toFixed(3)} → gated r5 ${liveResult.gated.recallAt5.toFixed(3)} (nothing fits on ${liveResult.nothing}/${liveTuning.length})`,
  );
  console.log(`  no-fit tuning: nothing fits ${saidNothing}/${noFit.length}`);
  if (process.argv.includes("--sweep")) {
    // Per threshold: no-fit tasks said so, recall@5 lost on the old sets and on LiveMCPBench's tuning half.
    const tops = (index: ToolIndex, tasks: readonly Task[]) =>
      tasks.map((task) => {
        const hits = index.search(task.query, 5);
        const names = hits.map((hit) => hit.definition.name);
        const recall =
          task.gold.filter((names_) => names_.some((name) => names.includes(name))).length / task.gold.length;
        return { top: hits[0]?.relevance ?? 0, recall };
      });
    const oldTops = tops(
      capturedIndex,
      oldSets.flatMap(([, tasks]) => tasks),
    );
    const liveTops = tops(liveIndex, liveTuning);
    const loss = (rows: { top: number; recall: number }[], threshold: number) =>
      rows.filter((row) => row.top < threshold).reduce((sum, row) => sum + row.recall, 0) / rows.length;
    const cells: string[] = [];
    for (let threshold = 0.1; threshold <= 0.5001; threshold += 0.02)
      cells.push(
        `${threshold.toFixed(2)}:${noFit.filter((top) => top < threshold).length}/${loss(oldTops, threshold).toFixed(3)}/${loss(liveTops, threshold).toFixed(3)}`,
      );
    console.log(`  sweep threshold:no-fit/old loss/live loss  ${cells.join(" ")}`);
  }
  if (verbose) {
    console.log(`  no-fit tops: ${noFit.map((top) => top.toFixed(2)).join(" ")}`);
    for (const miss of allMisses) console.log(`    ${miss}`);
  }
}

// Query latency over 1,000 tools (LiveMCPBench's 527 twice, renamed).
if (process.argv.includes("--latency")) {
  const many = [0, 1].flatMap((copy) =>
    live.map((tool) => ({
      ...tool,
      definition: { ...tool.definition, name: `${tool.definition.name}_${copy}` },
    })),
  );
  const built = performance.now();
  const index = new ToolIndex(many.slice(0, 1_000));
  const buildMs = performance.now() - built;
  const queries = liveTuning.map((task) => task.query);
  for (const query of queries) index.search(query, 5);
  const started = performance.now();
  for (let round = 0; round < 10; round++) for (const query of queries) index.search(query, 5);
  const perQuery = (performance.now() - started) / (10 * queries.length);
  console.log(`1,000 tools: index built in ${buildMs.toFixed(1)} ms, ${perQuery.toFixed(3)} ms per query`);
}
