// Would a floor on words load nothing for requests no tool can do, without hiding the right tool?
// For each floor (`toolSearch.minClosestRelevance`, with `lowFitTools` 0: nothing loaded under it),
// the right tool's recall@5 of what is loaded and how many no-fit requests load nothing, on the sets
// one may tune on (tuning-pools.ts). Results: results/tool-search-recall-tuning.md, "The fresh set".
// Run in bench/: node --import ./src/resolve-typescript.ts src/tune-tool-search-no-fit-floor.ts
import { type SearchableTool, ToolIndex } from "../../packages/core/src/tool-search-index.ts";
import { toolSearchFit } from "../../packages/core/src/tool-search-tool.ts";
import { TOOL_SEARCH_NO_FIT_TUNING_TASKS } from "./tool-search-no-fit-tuning-tasks.ts";
import { captured, freshNoFit, freshTasks, live, liveTuning, oldSets, type Task } from "./tuning-pools.ts";

const FLOORS = [0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.32, 0.34];

function loaded(index: ToolIndex, query: string, floor: number): string[] {
  const { offered } = toolSearchFit(index.search(query, 5), { minClosestRelevance: floor, lowFitTools: 0 });
  return offered.map((hit) => hit.definition.name);
}

function recallAt5(pool: SearchableTool[], tasks: readonly Task[], floor: number): string {
  const index = new ToolIndex(pool);
  let found = 0;
  for (const task of tasks) {
    const names = loaded(index, task.query, floor);
    found +=
      task.gold.filter((alike) => alike.some((name) => names.includes(name))).length / task.gold.length;
  }
  return (found / tasks.length).toFixed(3);
}

function loadingNothing(queries: readonly string[], floor: number): string {
  const index = new ToolIndex(captured);
  return `${queries.filter((query) => loaded(index, query, floor).length === 0).length}/${queries.length}`;
}

const oldTasks = oldSets.flatMap(([, tasks]) => tasks);
for (const floor of FLOORS)
  console.log(
    [
      `floor ${floor.toFixed(2)}`,
      `old r5 ${recallAt5(captured, oldTasks, floor)}`,
      `live r5 ${recallAt5(live, liveTuning, floor)}`,
      `fresh r5 ${recallAt5(captured, freshTasks, floor)}`,
      `no-fit tuning loads nothing ${loadingNothing(TOOL_SEARCH_NO_FIT_TUNING_TASKS, floor)}`,
      `fresh no-fit loads nothing ${loadingNothing(freshNoFit, floor)}`,
    ].join(" | "),
  );
