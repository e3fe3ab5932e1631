// Tool-search retrieval, three searches side by side on the same tools and queries: Junction's
// `search_tools` (a real Agent, default settings, the scripted model searching with the task as its
// query), plain BM25 and the AI SDK's default `toolSearch()`. Task sets: our three over the 18
// captured servers (tuned on), the blind set (written without seeing the search), LiveMCPBench's
// tuning half and its held-out half (70 servers served as real MCP servers); the tasks no tool can
// do ("nothing fits"); and index build and query time over 527 and 1,054 tools.
import { Agent, type MCPEntry, type ToolSearchOptions } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import type { MiniLMEmbedder } from "@junction/embed-minilm";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { createBM25Index } from "./bm25.ts";
import {
  type LiveMCPBenchTask,
  liveMCPBenchCommit,
  liveMCPBenchServers,
  liveMCPBenchSplit,
  liveMCPBenchTasks,
} from "./livemcpbench.ts";
import { serveLiveMCPBench } from "./livemcpbench-servers.ts";
import { atServerLevel, type RankedAnswer, summarize } from "./retrieval-metrics.ts";
import { TOOL_SEARCH_BLIND_TASKS, TOOL_SEARCH_NO_TOOL_TASKS } from "./tool-search-blind-tasks.ts";
import {
  aiSDKEngine,
  aiSDKScript,
  aiSDKTools,
  bm25Engine,
  junctionEngine,
  listPool,
  type SearchAnswer,
  type SearchEngine,
  type ToolPool,
} from "./tool-search-engines.ts";
import { TOOL_SEARCH_HELD_OUT_TASKS } from "./tool-search-held-out-tasks.ts";
import { TOOL_SEARCH_TASKS, type ToolSearchTask } from "./tool-search-tasks.ts";
import { TOOL_SEARCH_UNSEEN_TASKS } from "./tool-search-unseen-tasks.ts";

/** A task as every set is run: the query and its gold units. */
interface BenchTask {
  query: string;
  gold: string[][];
}

/** One task set's figures for one search. */
export interface SetFigures {
  engine: string;
  tasks: number;
  recallAt1: number;
  recallAt5: number;
  multiTool: number;
  ndcgAt5?: number;
  /** nDCG@5 over every task. */
  ndcgAt5All: number;
  /** The same answers at server level (`atServerLevel`): a gold tool counts when a tool of its server is returned. */
  server: { recallAt1: number; recallAt5: number; ndcgAt5All: number };
  /** Tasks whose gold was not in the top 5, as "query → wanted …, got …". */
  misses: string[];
  /** Positive tasks on which the search said nothing fits. */
  saidNothingFits: number;
  /** Answers that carried a confidence signal. */
  withConfidence: number;
}

/** One task set: its label, where its tools come from, and each search's figures. */
export interface SetResult {
  label: string;
  pool: "18 captured servers" | "LiveMCPBench";
  note: string;
  figures: SetFigures[];
}

/** The "nothing fits" measure on the tasks no tool can do, per search. */
export interface NothingFitsFigures {
  engine: string;
  tasks: number;
  saidNothingFits: number;
  /** Of those, answers that still gave the model tools (Junction's closest few, when they are a medium fit). */
  loadedAnyway: number;
  withConfidence: number;
}

/** Index build and query time of each search over one pool. */
export interface LatencyFigures {
  tools: number;
  /** The Agent's `tools-deferred` warnings in the search's run (how many tools it searched). */
  deferred: string[];
  rows: { engine: string; buildMs?: number; firstQueryMs: number; queryMs: number; how: string }[];
}

/** A first search over the 18 captured servers' tools by a new Agent with a new embedder whose disk cache holds every tool's vector. */
export interface FirstSearchFigures {
  tools: number;
  rows: { case: string; ms: number; modelLoads: number; embedded: number }[];
}

/** The local model the benchmark runs Junction's search with too. */
export interface LocalModel {
  /** The engine's name in the tables. */
  name: string;
  /** What the Agent is given besides `embed` (its fusion). */
  toolSearch: Omit<ToolSearchOptions, "embed">;
  /** A new embedder on the shared disk cache (new memory, model not loaded). */
  fresh: () => MiniLMEmbedder;
}

/** Everything the retrieval part of the benchmark measured. */
export interface RetrievalFigures {
  /** With the local model: its first search over the captured servers with a filled cache. */
  firstSearch?: FirstSearchFigures;
  sets: SetResult[];
  nothingFits: NothingFitsFigures[];
  latency: LatencyFigures[];
  /** The Agent's `tools-deferred` warnings, per pool (they say how many tools the search got). */
  deferred: Record<string, string[]>;
  liveMCPBenchCommit: string;
}

const fromOurs = (tasks: readonly ToolSearchTask[]): BenchTask[] =>
  tasks.map((task) => ({ query: task.task, gold: [[task.tool, ...(task.alternatives ?? [])]] }));

const fromLive = (tasks: readonly LiveMCPBenchTask[]): BenchTask[] =>
  tasks.map((task) => ({ query: task.question, gold: task.gold }));

async function runSet(
  engine: SearchEngine,
  tasks: readonly BenchTask[],
  serverOf: (tool: string) => string,
): Promise<SetFigures> {
  const answers: (RankedAnswer & SearchAnswer)[] = [];
  const misses: string[] = [];
  for (const task of tasks) {
    const answer = await engine.search(task.query);
    answers.push({ ...answer, gold: task.gold });
    const top5 = answer.ranked.slice(0, 5);
    const missing = task.gold.filter((names) => !names.some((name) => top5.includes(name)));
    if (missing.length > 0)
      misses.push(
        `${task.query.replace(/\s+/g, " ").slice(0, 160)} → wanted ${missing.map((names) => names[0]).join(", ")}; got ${top5.slice(0, 3).join(", ") || "nothing"}`,
      );
  }
  const server = summarize(answers.map((answer) => atServerLevel(answer, serverOf)));
  return {
    engine: engine.name,
    ...summarize(answers),
    server: { recallAt1: server.recallAt1, recallAt5: server.recallAt5, ndcgAt5All: server.ndcgAt5All },
    misses,
    saidNothingFits: answers.filter((answer) => answer.nothingFits).length,
    withConfidence: answers.filter((answer) => answer.hasConfidence).length,
  };
}

async function runNothingFits(engine: SearchEngine, tasks: readonly string[]): Promise<NothingFitsFigures> {
  let saidNothingFits = 0;
  let loadedAnyway = 0;
  let withConfidence = 0;
  for (const query of tasks) {
    const answer = await engine.search(query);
    if (answer.nothingFits) saidNothingFits++;
    if (answer.nothingFits && answer.ranked.length > 0) loadedAnyway++;
    if (answer.hasConfidence) withConfidence++;
  }
  return { engine: engine.name, tasks: tasks.length, saidNothingFits, loadedAnyway, withConfidence };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * How long each call of `toolName` takes in a real run (from its `tool-call` event to its
 * `tool-result` event, read as they stream), one call per model turn for each of `queries`: the
 * first call, then the median of the rest.
 */
async function toolCallTimes(
  mcps: MCPEntry[],
  {
    toolName,
    queries,
    local,
    toolSearch,
  }: {
    toolName: string;
    queries: readonly string[];
    local?: Parameters<typeof Agent.prototype.addTool>[0];
    toolSearch?: ToolSearchOptions;
  },
): Promise<{ first: number; rest: number; warnings: string[] }> {
  const provider = scriptedModel({
    capabilities: { contextWindowTokens: 200_000 },
    responses: [
      ...queries.map((query, index) => ({
        toolCalls: [{ id: `call${index}`, name: toolName, input: { query } }],
      })),
      { text: "ok" },
    ],
  });
  const agent = new Agent({
    provider,
    model: "m",
    mcps,
    maxSteps: queries.length + 2,
    ...(toolSearch ? { toolSearch } : {}),
  });
  if (local) agent.addTool(local);
  const started = new Map<string, number>();
  const times: number[] = [];
  const run = agent.send("latency");
  for await (const event of run) {
    if (event.type === "tool-call") started.set(event.id, performance.now());
    if (event.type === "tool-result") times.push(performance.now() - (started.get(event.id) ?? Number.NaN));
  }
  const { warnings } = await run.final;
  agent.close();
  if (times.length !== queries.length)
    throw new TypeError(`${times.length} ${toolName} results for ${queries.length} calls`);
  return {
    first: times[0] ?? 0,
    rest: median(times.slice(1)),
    warnings: warnings
      .filter((warning) => warning.code === "tools-deferred")
      .map((warning) => warning.message),
  };
}

/** Medians over rounds of each round's first and its later times. */
function overRounds(rounds: { first: number; rest: number }[]): { first: number; rest: number } {
  return {
    first: median(rounds.map((round) => round.first)),
    rest: median(rounds.map((round) => round.rest)),
  };
}

/**
 * Index build and query time over one pool, for each search: `rounds` rounds after one warm-up
 * round (so that the first measured round does not pay for compiling the code), medians over them.
 */
async function measureLatency(
  pool: ToolPool,
  queries: readonly string[],
  rounds: number,
): Promise<LatencyFigures> {
  // Junction: a search_tools call from its tool-call event to its tool-result event, beside a call of
  // a local tool that does nothing in the same kind of run (what any call costs the Agent).
  const noop = {
    name: "noop",
    description: "Does nothing.",
    inputSchema: { type: "object", properties: { query: { type: "string" } } },
    alwaysLoad: true,
    execute: async () => "ok",
  };
  const searchRounds: { first: number; rest: number }[] = [];
  let deferred: string[] = [];
  const floorRounds: { first: number; rest: number }[] = [];
  for (let round = 0; round <= rounds; round++) {
    const search = await toolCallTimes(pool.mcps, { toolName: "search_tools", queries });
    const floor = await toolCallTimes(pool.mcps, { toolName: "noop", queries, local: noop });
    deferred = search.warnings;
    if (round === 0) continue;
    searchRounds.push(search);
    floorRounds.push(floor);
  }
  const search = overRounds(searchRounds);
  const floor = overRounds(floorRounds);
  const rows: LatencyFigures["rows"] = [
    {
      engine: "Junction `search_tools`",
      firstQueryMs: search.first,
      queryMs: search.rest,
      how: `a search_tools call in a real run, tool-call event to tool-result event (a no-op local tool's call: ${floor.rest.toFixed(3)} ms); the first search of a run pays for whatever index it builds`,
    },
  ];
  const documents = pool.tools.map((entry) => ({
    name: entry.name,
    text: `${entry.name} ${entry.description ?? ""}`,
  }));
  const bm25Rounds: { build: number; first: number; rest: number }[] = [];
  for (let round = 0; round <= rounds; round++) {
    const buildStart = performance.now();
    const index = createBM25Index(documents);
    const build = performance.now() - buildStart;
    const times = queries.map((query) => {
      const start = performance.now();
      index.search(query, 5);
      return performance.now() - start;
    });
    if (round > 0) bm25Rounds.push({ build, first: times[0] ?? 0, rest: median(times.slice(1)) });
  }
  rows.push({
    engine: "plain BM25",
    buildMs: median(bm25Rounds.map((round) => round.build)),
    ...(({ first, rest }) => ({ firstQueryMs: first, queryMs: rest }))(overRounds(bm25Rounds)),
    how: "index built once; each query scores every tool",
  });
  // The AI SDK builds no index: each search tokenises every tool's name and description.
  const tools = aiSDKTools(pool);
  const noopTool = tool({
    inputSchema: jsonSchema({ type: "object", properties: { query: { type: "string" } } }),
    execute: async () => "ok",
  });
  const generationTime = async (toolName: string, query: string) => {
    const start = performance.now();
    await generateText({
      model: aiSDKScript(toolName, { query }),
      tools: { ...tools, noop: noopTool },
      prompt: query,
      stopWhen: stepCountIs(2),
    });
    return performance.now() - start;
  };
  const aiRounds: { first: number; rest: number }[] = [];
  for (let round = 0; round <= rounds; round++) {
    const differences: number[] = [];
    for (const query of queries)
      differences.push((await generationTime("tool_search", query)) - (await generationTime("noop", query)));
    if (round > 0) aiRounds.push({ first: differences[0] ?? 0, rest: median(differences.slice(1)) });
  }
  const ai = overRounds(aiRounds);
  rows.push({
    engine: "AI SDK `toolSearch()`",
    firstQueryMs: ai.first,
    queryMs: ai.rest,
    how: "a two-step generateText calling the search minus one calling a no-op tool; no index to build",
  });
  return { tools: pool.tools.length, deferred, rows };
}

/**
 * A new Agent's first `search_tools` call (tool-call event to tool-result event) over `mcps` with
 * a new embedder whose disk cache holds every tool's vector (from the runs before), in three cases:
 * the request's vector cached too (the model never loads); a new request with the model loaded
 * before the search (`embed.load()`, as at connect); a new request with nothing loaded. Medians over
 * `rounds`, each round with a new embedder and a new request.
 */
export async function measureFirstSearch(parts: {
  mcps: MCPEntry[];
  tools: number;
  localModel: LocalModel;
  cachedQuery: string;
  rounds: number;
}): Promise<FirstSearchFigures> {
  const { localModel } = parts;
  const cases: { case: string; query: (round: number) => string; load: boolean }[] = [
    { case: "request's vector cached too", query: () => parts.cachedQuery, load: false },
    {
      case: "new request, model loaded before (`embed.load()`)",
      query: (round) => `find the open pull requests of repository number ${round} ${Date.now()}`,
      load: true,
    },
    {
      case: "new request, model not loaded yet",
      query: (round) => `list the kubernetes pods of namespace number ${round} ${Date.now()}`,
      load: false,
    },
  ];
  const rows: FirstSearchFigures["rows"] = [];
  for (const entry of cases) {
    const times: number[] = [];
    let last = { modelLoads: 0, embedded: 0 };
    for (let round = 0; round < parts.rounds; round++) {
      const embed = localModel.fresh();
      if (entry.load) await embed.load();
      const before = embed.stats;
      const { first } = await toolCallTimes(parts.mcps, {
        toolName: "search_tools",
        queries: [entry.query(round)],
        toolSearch: {
          ...localModel.toolSearch,
          embed,
        },
      });
      times.push(first);
      last = {
        modelLoads: embed.stats.modelLoads - before.modelLoads,
        embedded: embed.stats.embedded - before.embedded,
      };
      await embed.close();
    }
    rows.push({ case: entry.case, ms: median(times), ...last });
  }
  return { tools: parts.tools, rows };
}

/** Runs every set with every search. `smoke`: a handful of tasks per set, a few latency queries. */
export async function benchRetrieval(options: {
  captured: MCPEntry[];
  smoke: boolean;
  log?: (line: string) => void;
  /** Also Junction's search with this local model (left out of smoke runs by the caller). */
  localModel?: LocalModel;
}): Promise<RetrievalFigures> {
  const log = options.log ?? (() => undefined);
  const take = <T>(tasks: readonly T[]) => (options.smoke ? tasks.slice(0, 3) : [...tasks]);
  const captured = await listPool(options.captured);
  const servers = liveMCPBenchServers();
  const live = await serveLiveMCPBench(servers);
  const liveDouble = await serveLiveMCPBench(servers, { copies: 2 });
  try {
    const livePool = await listPool(live.mcps);
    const { tuning, heldOut } = liveMCPBenchSplit(liveMCPBenchTasks());
    const { localModel } = options;
    const embed = localModel?.fresh();
    const withModel = (pool: ToolPool) =>
      localModel && embed
        ? [junctionEngine(pool, { name: localModel.name, toolSearch: { ...localModel.toolSearch, embed } })]
        : [];
    const capturedEngines = {
      junction: junctionEngine(captured),
      others: [...withModel(captured), bm25Engine(captured), aiSDKEngine(captured)],
    };
    const liveEngines = {
      junction: junctionEngine(livePool),
      others: [...withModel(livePool), bm25Engine(livePool), aiSDKEngine(livePool)],
    };
    const serverOf = (pool: ToolPool) => {
      const servers = new Map(pool.tools.map((entry) => [entry.name, entry.server]));
      return (name: string) => servers.get(name) ?? name;
    };
    const hard = TOOL_SEARCH_BLIND_TASKS.filter((task) => task.hard);
    const definitions: { label: string; pool: SetResult["pool"]; note: string; tasks: BenchTask[] }[] = [
      {
        label: "first set",
        pool: "18 captured servers",
        note: "tuned on",
        tasks: fromOurs(TOOL_SEARCH_TASKS),
      },
      {
        label: "held-out set",
        pool: "18 captured servers",
        note: "its misses seen while tuning",
        tasks: fromOurs(TOOL_SEARCH_HELD_OUT_TASKS),
      },
      {
        label: "unseen set",
        pool: "18 captured servers",
        note: "run once tuned",
        tasks: fromOurs(TOOL_SEARCH_UNSEEN_TASKS),
      },
      {
        label: "blind set",
        pool: "18 captured servers",
        note: "written without seeing the search",
        tasks: fromOurs(TOOL_SEARCH_BLIND_TASKS),
      },
      {
        label: "blind set, hard tasks",
        pool: "18 captured servers",
        note: "look-alike tools",
        tasks: fromOurs(hard),
      },
      {
        label: "LiveMCPBench tuning half",
        pool: "LiveMCPBench",
        note: "may be looked at while tuning",
        tasks: fromLive(tuning),
      },
      {
        label: "LiveMCPBench HELD-OUT half",
        pool: "LiveMCPBench",
        note: "run only once the search's choices are final",
        tasks: fromLive(heldOut),
      },
    ];
    const sets: SetResult[] = [];
    for (const definition of definitions) {
      const onLive = definition.pool === "LiveMCPBench";
      const engines = onLive ? liveEngines : capturedEngines;
      const figures: SetFigures[] = [];
      for (const engine of [engines.junction, ...engines.others]) {
        log(`bench: tool search: ${definition.label}, ${engine.name}…`);
        figures.push(await runSet(engine, take(definition.tasks), serverOf(onLive ? livePool : captured)));
      }
      sets.push({ label: definition.label, pool: definition.pool, note: definition.note, figures });
    }
    const noToolQueries = take(TOOL_SEARCH_NO_TOOL_TASKS.map((task) => task.task));
    const nothingFits: NothingFitsFigures[] = [];
    for (const engine of [capturedEngines.junction, ...capturedEngines.others])
      nothingFits.push(await runNothingFits(engine, noToolQueries));
    log("bench: tool search: index build and query time…");
    const latencyQueries = fromLive(tuning)
      .map((task) => task.query)
      .slice(0, options.smoke ? 3 : 21);
    const latency = [
      await measureLatency(livePool, latencyQueries, options.smoke ? 1 : 5),
      await measureLatency(await listPool(liveDouble.mcps), latencyQueries, options.smoke ? 1 : 5),
    ];
    let firstSearch: FirstSearchFigures | undefined;
    if (localModel) {
      log(`bench: tool search: ${localModel.name}, a first search with a filled cache…`);
      firstSearch = await measureFirstSearch({
        mcps: options.captured,
        tools: captured.tools.length,
        localModel,
        // A blind-set request: its vector is on disk from the run above.
        cachedQuery: TOOL_SEARCH_BLIND_TASKS[0]!.task,
        rounds: options.smoke ? 1 : 3,
      });
    }
    await embed?.close();
    return {
      ...(firstSearch ? { firstSearch } : {}),
      sets,
      nothingFits,
      latency,
      deferred: {
        "18 captured servers": capturedEngines.junction.warnings,
        LiveMCPBench: liveEngines.junction.warnings,
      },
      liveMCPBenchCommit: liveMCPBenchCommit(),
    };
  } finally {
    await live.close();
    await liveDouble.close();
  }
}

/** " (searched N)" from the Agent's `tools-deferred` warning ("N of M tools were deferred"). */
function searchedOf(deferred: string[]): string {
  const match = deferred.map((warning) => /(\d+) of (\d+) tools were deferred/.exec(warning)).find(Boolean);
  return match ? ` (searched ${match[1]})` : "";
}

const three = (value: number | undefined) => (value === undefined ? "—" : value.toFixed(3));

/** The retrieval figures as markdown. */
export function retrievalSection(figures: RetrievalFigures): string {
  const junctionHasConfidence =
    figures.nothingFits.some((row) => row.engine.startsWith("Junction") && row.withConfidence > 0) ||
    figures.sets.some((set) =>
      set.figures.some((row) => row.engine.startsWith("Junction") && row.withConfidence > 0),
    );
  const rows = figures.sets.flatMap((set) =>
    set.figures.map(
      (row) =>
        `| ${set.label} (${set.note}) | ${set.pool} | ${row.engine} | ${row.tasks} | ${three(row.recallAt1)} | ${three(row.recallAt5)} | ${row.multiTool > 0 ? `${three(row.ndcgAt5)} (${row.multiTool})` : "—"} | ${row.saidNothingFits} |`,
    ),
  );
  const nothingFitsRows = figures.nothingFits.map((row) => {
    const isJunction = row.engine.startsWith("Junction");
    const rate = `${row.saidNothingFits}/${row.tasks} (${((row.saidNothingFits / row.tasks) * 100).toFixed(0)}%)`;
    return `| ${row.engine} | ${isJunction && !junctionHasConfidence ? `n/a: no answer carries a confidence signal (${rate} said nothing fits or listed nothing)` : rate} | ${row.loadedAnyway} | ${row.saidNothingFits - row.loadedAnyway} |`;
  });
  const latencyRows = figures.latency.flatMap((pool) =>
    pool.rows.map(
      (row) =>
        `| ${pool.tools}${row.engine.startsWith("Junction") ? searchedOf(pool.deferred) : ""} | ${row.engine} | ${row.buildMs === undefined ? "—" : row.buildMs.toFixed(2)} | ${row.firstQueryMs.toFixed(2)} | ${row.queryMs.toFixed(3)} | ${row.how} |`,
    ),
  );
  const deferred = [
    ...Object.entries(figures.deferred),
    ...figures.latency.map((pool) => [`${pool.tools} tools (latency)`, pool.deferred] as const),
  ].flatMap(([pool, warnings]) => warnings.map((warning) => `- ${pool}: ${warning}`));
  const comparable = figures.sets
    .filter((set) => set.label === "blind set" || set.label.includes("HELD-OUT"))
    .flatMap((set) =>
      set.figures.map(
        (row) =>
          `| ${set.label} | ${row.engine} | ${row.tasks} | ${three(row.recallAt5)} | ${three(row.ndcgAt5All)} | ${three(row.server.recallAt5)} | ${three(row.server.ndcgAt5All)} |`,
      ),
    );
  const firstSearch = figures.firstSearch
    ? [
        `A first search over the ${figures.firstSearch.tools} tools of the 18 captured servers with a filled cache: a new Agent and a new \`miniLM()\` embedder (empty memory, model not loaded) on a disk cache that holds every tool's vector (from the runs above), one \`search_tools\` call from its tool-call event to its tool-result event (median of 3 rounds, each with a new embedder and, where new, a new request):`,
        "",
        "| case | first search (ms) | model loads | texts embedded |",
        "| --- | ---: | ---: | ---: |",
        ...figures.firstSearch.rows.map(
          (row) => `| ${row.case} | ${row.ms.toFixed(1)} | ${row.modelLoads} | ${row.embedded} |`,
        ),
        "",
      ]
    : [
        "A first search with the local model and a filled cache: not measured in this run (smoke runs leave the model out).",
        "",
      ];
  return [
    `Figures a reader can compare, on the two sets nobody tuned to: tool level (a gold tool counts when that tool is returned) and server level (it counts when any tool of its server is returned: the servers of the returned tools, each once, in order; a task's gold tools on one server count once), recall@5 and nDCG@5 (binary, over every task of the set). LiveMCPBench's published retrieval figures (arXiv 2511.01854) rank servers: compare them with the server-level columns. \`+ MiniLM\`: the same Agent with \`toolSearch: { embed: miniLM(), fusion: "mix" }\` (\`@junction/embed-minilm\`, all-MiniLM-L6-v2 on this machine; the mix, its weight and the tools' embedding text chosen on the tuning sets only, \`results/tool-search-recall-tuning.md\`); "nothing fits" is still judged on words.`,
    "",
    "| task set | search | tasks | tool recall@5 | tool nDCG@5 | server recall@5 | server nDCG@5 |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...comparable,
    "",
    ...firstSearch,
    `Each task's request is the query as is: Junction's \`search_tools\` through a real Agent (default settings; the scripted model from \`@junction/core/testing\` calls \`search_tools\` with the request), plain BM25 (\`bm25.ts\`: name and description, k1 1.2, b 0.75, no thesaurus), and the AI SDK's default \`toolSearch()\` (ai 7, every tool \`deferLoading\`, driven by the SDK's own mock model), all on the same tools. Recall@k: the share of a task's gold tools in the first k returned (a task's gold tool may be one of several alike tools on different servers: any counts); for Junction, returned means loaded (the model can call it from its next step): when its answer says nothing fits well it may still load its closest 3 (or 1 on a low fit), and those count, while the names it only mentions do not. nDCG@5 (binary) over the tasks needing several tools (their count in brackets). LiveMCPBench (icip-cas/LiveMCPBench at \`${figures.liveMCPBenchCommit.slice(0, 7)}\`, vendored in \`bench/livemcpbench/\`): 70 servers served as real MCP servers (\`McpServer\` from \`@modelcontextprotocol/server\`, their tools' real names, descriptions and input schemas, each reached by Junction's MCP client over the in-memory transport); its 95 tasks split by a fixed rule into a tuning half and a held-out half.`,
    "",
    "| task set | tools | search | tasks | recall@1 | recall@5 | nDCG@5 (multi-tool tasks) | said nothing fits |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    `"Nothing fits" on ${figures.nothingFits[0]?.tasks ?? 0} requests no tool of the 18 servers can do (\`TOOL_SEARCH_NO_TOOL_TASKS\`): how often the search said so (Junction: the words "nothing fits" in its answer, or no tool listed; the baselines: nothing returned, their only way to say it), and how many of those answers still loaded tools (Junction loads its closest 3 when the best is a medium fit, from \`MIN_CLOSEST_RELEVANCE\`, and on a low fit of these 250 tools nothing by words alone, its closest one, \`LOW_FIT_TOOLS\`, with MiniLM fused) or loaded nothing.`,
    "",
    "| search | said nothing fits | of which loaded its closest tools anyway | of which loaded nothing |",
    "| --- | ---: | ---: | ---: |",
    ...nothingFitsRows,
    "",
    "Index build and query time (ms; the query time is the median of the queries after the first; LiveMCPBench tuning-half questions; 1,054 tools = LiveMCPBench twice, the copy's servers renamed):",
    "",
    "| tools | search | index build | first query | query | how |",
    "| ---: | --- | ---: | ---: | ---: | --- |",
    ...latencyRows,
    "",
    ...(deferred.length > 0
      ? ["What the Agent said it deferred (its `tools-deferred` warnings):", "", ...deferred, ""]
      : []),
  ].join("\n");
}

/**
 * The misses of Junction's search on the sets one may tune on, as markdown lists. The blind set's
 * and LiveMCPBench's held-out half's misses are not printed: they are the measure of tasks nobody
 * tuned to, and stop being one once someone reads their misses while tuning.
 */
export function retrievalMisses(figures: RetrievalFigures): string {
  const shown = figures.sets.filter(
    (set) => !set.label.startsWith("blind") && !set.label.includes("HELD-OUT"),
  );
  return [
    ...shown.flatMap((set) => {
      const junction = set.figures.find((row) => row.engine.startsWith("Junction"));
      if (!junction || junction.misses.length === 0) return [];
      return [
        `${set.label}: tasks Junction's search missed at 5:`,
        "",
        ...junction.misses.map((miss) => `- ${miss}`),
        "",
      ];
    }),
    "The blind set's and LiveMCPBench's held-out half's misses are not printed, so that nobody tunes to them.",
    "",
  ].join("\n");
}
