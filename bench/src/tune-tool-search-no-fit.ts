// Tuning harness for the tool search's "nothing fits" rule, on the sets one may tune on only (the
// no-fit tuning tasks, our three old sets, LiveMCPBench's tuning half): for each request, what the
// best tool's match looks like by several measures, and how well a rule over them tells the no-fit
// requests from the others (nothing fits said on them, against the right tool's recall@5 lost).
// Run: node --import ./src/resolve-typescript.ts src/tune-tool-search-no-fit.ts

import { TOOL_INDEX_SETTINGS, ToolIndex } from "../../packages/core/src/tool-search-index.ts";
import { searchTerms } from "../../packages/core/src/tool-search-terms.ts";
import { LOW_FIT_TOOLS } from "../../packages/core/src/tool-search-tool.ts";
import { TOOL_SEARCH_NO_FIT_TUNING_TASKS } from "./tool-search-no-fit-tuning-tasks.ts";
import { captured, live, liveTuning, oldSets, type Task } from "./tuning-pools.ts";

interface Row {
  set: string;
  query: string;
  /** The right tool's recall@5 (0 for a no-fit request). */
  recall: number;
  features: Record<string, number>;
}

function rows(pool: typeof captured, set: string, tasks: readonly Task[]): Row[] {
  const byScore = new ToolIndex(pool);
  const byCoverage = new ToolIndex(pool, { ...TOOL_INDEX_SETTINGS, relevance: "coverage" });
  const byAll = new ToolIndex(pool, { ...TOOL_INDEX_SETTINGS, relevanceTerms: Number.POSITIVE_INFINITY });
  const by3 = new ToolIndex(pool, { ...TOOL_INDEX_SETTINGS, relevanceTerms: 3 });
  const by1 = new ToolIndex(pool, { ...TOOL_INDEX_SETTINGS, relevanceTerms: 1 });
  return tasks.map((task) => {
    const hits = byScore.search(task.query, 5);
    const names = hits.map((hit) => hit.definition.name);
    const recall =
      task.gold.length === 0
        ? 0
        : task.gold.filter((gold) => gold.some((name) => names.includes(name))).length / task.gold.length;
    const coverage = byCoverage.search(task.query, 5);
    const top = hits[0];
    const words = new Set(searchTerms(task.query));
    const vocabulary = new Set<string>();
    if (top) {
      const tool = pool.find((entry) => entry.definition.name === top.definition.name)!;
      for (const term of searchTerms(
        [
          tool.definition.name,
          tool.definition.description ?? "",
          Object.keys((tool.definition.inputSchema as { properties?: object }).properties ?? {}).join(" "),
          tool.source?.name ?? "",
          tool.source?.description ?? "",
        ].join(" "),
      ))
        vocabulary.add(term);
    }
    const matched = [...words].filter((word) => vocabulary.has(word)).length;
    return {
      set,
      query: task.query,
      recall,
      features: {
        rel2: top?.relevance ?? 0,
        rel1: by1.search(task.query, 1)[0]?.relevance ?? 0,
        rel3: by3.search(task.query, 1)[0]?.relevance ?? 0,
        relAll: byAll.search(task.query, 1)[0]?.relevance ?? 0,
        coverage: Math.max(0, ...coverage.map((hit) => hit.relevance)),
        coverageTop: coverage[0]?.relevance ?? 0,
        fraction: words.size > 0 ? matched / words.size : 0,
        matched,
        gap: hits.length > 1 ? hits[0]!.score / hits[1]!.score : hits.length === 1 ? 10 : 0,
        words: words.size,
      },
    };
  });
}

const positives = [
  ...oldSets.flatMap(([name, tasks]) => rows(captured, name, tasks)),
  ...rows(live, "live", liveTuning),
];
const negatives = rows(
  captured,
  "no-fit",
  TOOL_SEARCH_NO_FIT_TUNING_TASKS.map((query) => ({ query, gold: [] })),
);
const oldCount = positives.filter((row) => row.set !== "live").length;
const liveCount = positives.length - oldCount;

/** Nothing fits said on the no-fit requests, and recall@5 lost on the old sets and on live, for a rule. */
function score(rule: (features: Record<string, number>) => boolean) {
  const said = negatives.filter((row) => rule(row.features)).length;
  let oldLoss = 0;
  let liveLoss = 0;
  for (const row of positives)
    if (rule(row.features)) {
      if (row.set === "live") liveLoss += row.recall;
      else oldLoss += row.recall;
    }
  return { said, oldLoss: oldLoss / oldCount, liveLoss: liveLoss / liveCount };
}

const single = Object.keys(negatives[0]!.features);
console.log("One feature under a threshold: the most no-fit requests said with old and live loss ≤ 0.02");
for (const feature of single) {
  const values = [...new Set([...negatives, ...positives].map((row) => row.features[feature]!))].sort(
    (a, b) => a - b,
  );
  let best: { threshold: number; said: number; oldLoss: number; liveLoss: number } | undefined;
  for (const threshold of values) {
    const result = score((features) => features[feature]! < threshold);
    if (result.oldLoss <= 0.02 && result.liveLoss <= 0.02 && (!best || result.said > best.said))
      best = { threshold, ...result };
  }
  console.log(`  ${feature.padEnd(12)} ${JSON.stringify(best)}`);
}

console.log("Two features, both under their thresholds (nothing fits when both are weak):");
const quantiles = (feature: string) => {
  const values = [...negatives, ...positives].map((row) => row.features[feature]!).sort((a, b) => a - b);
  return [
    ...new Set(
      Array.from({ length: 41 }, (_, step) => values[Math.floor((step / 40) * (values.length - 1))]!),
    ),
  ];
};
const results: string[] = [];
for (const a of single)
  for (const b of single) {
    if (a >= b) continue;
    let best: { ta: number; tb: number; said: number; oldLoss: number; liveLoss: number } | undefined;
    for (const ta of quantiles(a))
      for (const tb of quantiles(b)) {
        const result = score((features) => features[a]! < ta && features[b]! < tb);
        if (
          result.oldLoss <= 0.02 &&
          result.liveLoss <= 0.02 &&
          (!best || result.said > best.said || (result.said === best.said && result.oldLoss < best.oldLoss))
        )
          best = { ta, tb, ...result };
      }
    if (best)
      results.push(
        `${best.said} ${a} < ${best.ta.toFixed(3)} && ${b} < ${best.tb.toFixed(3)}: old ${best.oldLoss.toFixed(3)} live ${best.liveLoss.toFixed(3)}`,
      );
  }
for (const line of results.sort((x, y) => Number.parseInt(y, 10) - Number.parseInt(x, 10)).slice(0, 15))
  console.log(`  ${line}`);

if (process.argv.includes("-v")) {
  const show = (row: Row) =>
    `${row.set.padEnd(8)} r${row.recall.toFixed(1)} ${Object.entries(row.features)
      .map(([name, value]) => `${name}=${value.toFixed(2)}`)
      .join(" ")}  ${row.query.slice(0, 70)}`;
  for (const row of negatives) console.log(show(row));
  for (const row of positives.filter((row) => row.features.rel2! < 0.45 && row.recall > 0))
    console.log(show(row));
}

// Two thresholds: under `low` the closest tool is loaded (LOW_FIT_TOOLS); from `low` to `high` the answer says nothing fits
// well and loads the closest `closest` tools (they count as found: the model can call them next);
// from `high` on, the best tools are loaded as before.
if (process.argv.includes("--tiers")) {
  const index = { captured: new ToolIndex(captured), live: new ToolIndex(live) };
  const recallAt = (row: Row, depth: number) => {
    const task = [...oldSets.flatMap(([, tasks]) => tasks), ...liveTuning].find(
      (entry) => entry.query === row.query,
    )!;
    const names = index[row.set === "live" ? "live" : "captured"]
      .search(row.query, depth)
      .map((hit) => hit.definition.name);
    return task.gold.filter((gold) => gold.some((name) => names.includes(name))).length / task.gold.length;
  };
  for (const closest of [3, 5])
    for (const low of [0, 0.15, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.32])
      for (const high of [0.3, 0.35, 0.38, 0.4, 0.42, 0.45, 0.5]) {
        const said = negatives.filter((row) => row.features.rel2! < high).length;
        const junk = negatives.filter(
          (row) => row.features.rel2! > 0 && row.features.rel2! >= low && row.features.rel2! < high,
        ).length;
        const loadedNothing = negatives.filter((row) => row.features.rel2! === 0).length;
        let oldLoss = 0;
        let liveLoss = 0;
        let told = 0;
        for (const row of positives) {
          const rel = row.features.rel2!;
          if (rel >= high) continue;
          told++;
          // Under `low` the closest LOW_FIT_TOOLS (1) are loaded; from `low` to `high` the closest `closest`.
          const lost = row.recall - recallAt(row, rel < low ? LOW_FIT_TOOLS : closest);
          if (row.set === "live") liveLoss += lost;
          else oldLoss += lost;
        }
        console.log(
          `closest ${closest} low ${low.toFixed(2)} high ${high.toFixed(2)}: no-fit said ${said}/24 (${closest} junk tools loaded on ${junk}, 1 on ${said - junk - loadedNothing}, none on ${loadedNothing}), loss old ${(oldLoss / oldCount).toFixed(3)} live ${(liveLoss / liveCount).toFixed(3)}, positives told nothing fits ${told}/${positives.length}`,
        );
      }
}
