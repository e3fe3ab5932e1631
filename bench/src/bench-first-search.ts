// Only the tool-search bench's "first search with a filled cache" (bench-tool-search-retrieval.ts,
// measureFirstSearch): a new Agent and a new miniLM() embedder over the 18 captured servers' tools,
// the three cases, medians over `--rounds` (default 3, as the full bench). The disk cache is filled
// first (a round outside the figures), so a run on a new machine measures the same thing.
// Run: pnpm --filter @junction/bench bench:first-search [--rounds=<n>]
import { DEFAULT_MIX_WEIGHT } from "@junction/core";
import { miniLM } from "@junction/embed-minilm";
import { capturedServers } from "./bench-tool-search.ts";
import { measureFirstSearch } from "./bench-tool-search-retrieval.ts";
import { TOOL_SEARCH_BLIND_TASKS } from "./tool-search-blind-tasks.ts";

const roundsFlag = process.argv.find((argument) => argument.startsWith("--rounds="));
const rounds = roundsFlag ? Number(roundsFlag.slice("--rounds=".length)) : 3;
if (!Number.isInteger(rounds) || rounds < 1)
  throw new TypeError(`--rounds must be a whole number above 0, not ${roundsFlag}`);

const { lists, mcps } = capturedServers();
const tools = lists.reduce((count, list) => count + list.tools.length, 0);
const localModel = {
  name: `MiniLM (mix ${DEFAULT_MIX_WEIGHT})`,
  toolSearch: { fusion: "mix" as const },
  fresh: () => miniLM(),
};
const cachedQuery = TOOL_SEARCH_BLIND_TASKS[0]!.task;
// Fills the disk cache with every tool's vector and the cached request's (not measured).
await measureFirstSearch({ mcps, tools, localModel, cachedQuery, rounds: 1 });
const figures = await measureFirstSearch({ mcps, tools, localModel, cachedQuery, rounds });
console.log(JSON.stringify(figures));
