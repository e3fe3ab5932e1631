// Tuning harness for core's tool search: recall@1/@5 of the ranking on the task sets we tune on
// (the three old sets over tool-lists/), fast (no Agent). Run:
// node --import ./src/resolve-typescript.ts src/tune-tool-search.ts
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolDefinition } from "@junction/types";
import {
  TOOL_INDEX_SETTINGS,
  ToolIndex,
  type ToolIndexSettings,
} from "../../packages/core/src/tool-search-index.ts";
import { TOOL_SEARCH_HELD_OUT_TASKS } from "./tool-search-held-out-tasks.ts";
import { TOOL_SEARCH_NO_FIT_TUNING_TASKS } from "./tool-search-no-fit-tuning-tasks.ts";
import { TOOL_SEARCH_TASKS, type ToolSearchTask } from "./tool-search-tasks.ts";
import { TOOL_SEARCH_UNSEEN_TASKS } from "./tool-search-unseen-tasks.ts";

const listsDir = join(import.meta.dirname, "..", "tool-lists");
const lists = readdirSync(listsDir)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map(
    (file) =>
      JSON.parse(readFileSync(join(listsDir, file), "utf8")) as { server: string; tools: ToolDefinition[] },
  );
const tools = lists.flatMap((list) =>
  list.tools.map((definition) => ({ ...definition, name: `${list.server}_${definition.name}` })),
);

function recall(index: ToolIndex, tasks: readonly ToolSearchTask[], verbose = false) {
  let at1 = 0;
  let at5 = 0;
  for (const { task, tool } of tasks) {
    const found = index.search(task, 5).map((hit) => hit.definition.name);
    if (found[0] === tool) at1++;
    if (found.includes(tool)) at5++;
    else if (verbose) console.log(`  miss: ${task} → ${tool}; got ${found.slice(0, 3).join(", ")}`);
  }
  return { at1: at1 / tasks.length, at5: at5 / tasks.length };
}

const verbose = process.argv.includes("-v");
// Variants to compare: JSON overrides of the shipped settings, one per argument.
const variants = process.argv.slice(2).filter((argument) => !argument.startsWith("-"));
for (const variant of ["{}", ...variants]) {
  const overrides = JSON.parse(variant) as Partial<ToolIndexSettings>;
  const settings = {
    ...TOOL_INDEX_SETTINGS,
    ...overrides,
    fields: { ...TOOL_INDEX_SETTINGS.fields, ...overrides.fields },
  };
  const index = new ToolIndex(tools, settings);
  const rows = [
    ["tuned", TOOL_SEARCH_TASKS],
    ["held-out", TOOL_SEARCH_HELD_OUT_TASKS],
    ["unseen", TOOL_SEARCH_UNSEEN_TASKS],
  ] as const;
  const figures = rows.map(([name, set]) => {
    const { at1, at5 } = recall(index, set, verbose);
    return `${name} ${at1.toFixed(3)}/${at5.toFixed(3)}`;
  });
  console.log(`${variant.padEnd(40)} ${figures.join("  ")}`);
  // The "nothing fits" threshold: share of no-fit requests answered so, and recall@5 over all
  // three sets when a search under the threshold loads nothing.
  const all = rows.flatMap(([, set]) => set);
  const tops = all.map(({ task, tool }) => {
    const hits = index.search(task, 5);
    return { top: hits[0]?.relevance ?? 0, hit: hits.some((hit) => hit.definition.name === tool) };
  });
  const noFit = TOOL_SEARCH_NO_FIT_TUNING_TASKS.map((task) => index.search(task, 5)[0]?.relevance ?? 0);
  if (verbose) console.log(`  no-fit tops: ${noFit.map((top) => top.toFixed(2)).join(" ")}`);
  const line: string[] = [];
  for (let threshold = 0; threshold <= 0.6; threshold += Number(process.env.STEP ?? 0.05)) {
    const recall = tops.filter(({ top, hit }) => hit && top >= threshold).length / all.length;
    const nothing = noFit.filter((top) => top < threshold).length / noFit.length;
    line.push(`${threshold.toFixed(2)}:${recall.toFixed(3)}/${nothing.toFixed(2)}`);
  }
  console.log(`  threshold:r@5/nothing-fits  ${line.join(" ")}`);
}

// Query latency over 1,000 tools (the 254 captured ones repeated with new names).
if (process.argv.includes("--latency")) {
  const many = Array.from({ length: 4 }, (_, copy) =>
    tools.map((definition) => ({ ...definition, name: `${definition.name}_${copy}` })),
  ).flat();
  const built = performance.now();
  const index = new ToolIndex(many.slice(0, 1_000));
  const buildMs = performance.now() - built;
  const queries = TOOL_SEARCH_TASKS.map(({ task }) => task);
  for (const query of queries) index.search(query, 5);
  const started = performance.now();
  for (let round = 0; round < 10; round++) for (const query of queries) index.search(query, 5);
  const perQuery = (performance.now() - started) / (10 * queries.length);
  console.log(`1,000 tools: index built in ${buildMs.toFixed(1)} ms, ${perQuery.toFixed(3)} ms per query`);
}
