// The tools and tasks one may tune core's tool search on, as the Agent indexes them: our three
// old sets and the fresh set over tool-lists/, and LiveMCPBench's tuning half. Never the blind set or LiveMCPBench's
// held-out half. Shared by tune-tool-search.ts and tune-tool-search-dense.ts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolDefinition } from "@junction/types";
import type { SearchableTool } from "../../packages/core/src/tool-search-index.ts";
import {
  liveMCPBenchPrefix,
  liveMCPBenchServers,
  liveMCPBenchSplit,
  liveMCPBenchTasks,
} from "./livemcpbench.ts";
import { TOOL_SEARCH_FRESH_NO_TOOL_TASKS, TOOL_SEARCH_FRESH_TASKS } from "./tool-search-fresh-tasks.ts";
import { TOOL_SEARCH_HELD_OUT_TASKS } from "./tool-search-held-out-tasks.ts";
import { TOOL_SEARCH_TASKS, type ToolSearchTask } from "./tool-search-tasks.ts";
import { TOOL_SEARCH_UNSEEN_TASKS } from "./tool-search-unseen-tasks.ts";

const listsDir = join(import.meta.dirname, "..", "tool-lists");

/** The 18 captured servers' tools as the Agent indexes them: prefixed, with their source's name. */
export const captured: SearchableTool[] = readdirSync(listsDir)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .flatMap((file) => {
    const list = JSON.parse(readFileSync(join(listsDir, file), "utf8")) as {
      server: string;
      tools: ToolDefinition[];
    };
    return list.tools.map((definition) => ({
      definition: { ...definition, name: `${list.server}_${definition.name}` },
      source: { name: list.server },
    }));
  });

/** LiveMCPBench's tools as the Agent indexes them: the source's description is its `serverInfo.description`. */
export const live: SearchableTool[] = liveMCPBenchServers().flatMap((server) => {
  const prefix = liveMCPBenchPrefix(server.serverName);
  return server.tools.map((tool) => ({
    definition: {
      name: `${prefix}_${tool.name}`,
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
    } as ToolDefinition,
    source: { name: prefix, ...(server.description ? { description: server.description } : {}) },
  }));
});

/** A request and its gold tools: each inner list is one tool needed, any of its names counts. */
export interface Task {
  query: string;
  gold: string[][];
}

/** One of our task sets as tuning tasks. */
export const ours = (tasks: readonly ToolSearchTask[]): Task[] =>
  tasks.map((task) => ({ query: task.task, gold: [[task.tool, ...(task.alternatives ?? [])]] }));

/** Our three old sets, by name (all tuned on). */
export const oldSets = [
  ["first", ours(TOOL_SEARCH_TASKS)],
  ["held-out", ours(TOOL_SEARCH_HELD_OUT_TASKS)],
  ["unseen", ours(TOOL_SEARCH_UNSEEN_TASKS)],
] as const;

/** LiveMCPBench's tuning half. */
export const liveTuning: Task[] = liveMCPBenchSplit(liveMCPBenchTasks()).tuning.map((task) => ({
  query: task.question,
  gold: task.gold,
}));

/** The fresh set (written blind, then tuned on: tool-search-fresh-tasks.ts), and its requests no tool can do. */
export const freshTasks: Task[] = ours(TOOL_SEARCH_FRESH_TASKS);
export const freshNoFit: string[] = TOOL_SEARCH_FRESH_NO_TOOL_TASKS.map((task) => task.task);
