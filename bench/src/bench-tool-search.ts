// Tool search on the captured tool lists of real MCP servers (tool-lists/, from
// capture-tool-lists.ts): retrieval (recall@1 and @5 of search_tools over TOOL_SEARCH_TASKS) and the
// first request's size with every tool sent against deferred-with-search, through each provider's
// real request builder (its vendor SDK against a local wire fake).
// Run: pnpm --filter @junction/bench bench:tool-search
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, estimateJSONTokens, type MCPEntry } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { anthropic } from "@junction/provider-anthropic";
import { bedrock } from "@junction/provider-bedrock";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { gemini } from "@junction/provider-gemini";
import { openai } from "@junction/provider-openai";
import type { ModelProvider, Tool, ToolDefinition } from "@junction/types";
import { startWireFake } from "@junction/wire-fake";
import { startBedrockFake } from "@junction/wire-fake/bedrock";
import { TOOL_SEARCH_HELD_OUT_TASKS } from "./tool-search-held-out-tasks.ts";
import { TOOL_SEARCH_TASKS, type ToolSearchTask } from "./tool-search-tasks.ts";
import { TOOL_SEARCH_UNSEEN_TASKS } from "./tool-search-unseen-tasks.ts";

interface CapturedList {
  server: string;
  package: string;
  version: string;
  tools: ToolDefinition[];
}

const listsDir = join(import.meta.dirname, "..", "tool-lists");

/** Every captured server as an MCP entry prefixed with its name, as an app would add it. */
export function capturedServers(): { lists: CapturedList[]; mcps: MCPEntry[] } {
  const lists = readdirSync(listsDir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(listsDir, file), "utf8")) as CapturedList);
  const mcps = lists.map((list) => ({
    prefix: list.server,
    mcp: {
      name: list.server,
      listTools: async (options?: { prefix?: string }): Promise<Tool[]> =>
        list.tools.map((definition) => ({
          ...definition,
          name: options?.prefix ? `${options.prefix}_${definition.name}` : definition.name,
          execute: async () => "ok",
        })),
    },
  }));
  return { lists, mcps };
}

/** Recall@1 and @5 of `search_tools` over a set of tasks. */
export async function benchRetrieval(taskSet: readonly ToolSearchTask[]): Promise<{
  tasks: number;
  recallAt1: number;
  recallAt5: number;
  misses: string[];
}> {
  const { mcps } = capturedServers();
  let at1 = 0;
  let at5 = 0;
  const misses: string[] = [];
  for (const { task, tool } of taskSet) {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 200_000 },
      responses: [
        { toolCalls: [{ id: "s", name: "search_tools", input: { query: task, limit: 5 } }] },
        { text: "ok" },
      ],
    });
    const agent = new Agent({ provider, model: "m", mcps });
    await agent.send(task).final;
    agent.close();
    const result = provider.requests[1]?.messages.at(-1);
    // search_tools' structuredContent: { query, results: [{ name, score, confidence }], loaded, nothingFits }.
    const output = result?.role === "tool" ? result.content[0]?.output : undefined;
    const structured = (output as { structuredContent?: { results?: { name: string }[] } } | undefined)
      ?.structuredContent;
    const found = (structured?.results ?? []).map((entry) => entry.name);
    if (!provider.requests[0]?.tools?.some((definition) => definition.name === "search_tools")) {
      throw new TypeError("the tools were not deferred: the benchmark measures nothing");
    }
    if (found[0] === tool) at1++;
    if (found.includes(tool)) at5++;
    else misses.push(`${task} → wanted ${tool}, got ${found.slice(0, 3).join(", ") || "nothing"}`);
  }
  const tasks = taskSet.length;
  return { tasks, recallAt1: at1 / tasks, recallAt5: at5 / tasks, misses };
}

interface SizeFigures {
  provider: string;
  model: string;
  tools: number;
  allToolsTokens: number;
  deferredTokens: number;
  share: number;
  /** With the vendor's own search (where the model has one): what the model sees up front. */
  native?: { model: string; bodyTokens: number; visibleTokens: number; share: number };
}

/**
 * A first request's body as the model sees it up front with the vendor's own search, by each
 * vendor's documentation: Anthropic keeps a `defer_loading` tool out of the context until found;
 * OpenAI shows a deferred function's name and description and a namespace's name and description,
 * not the functions in it.
 */
export function modelVisibleBody(body: unknown): unknown {
  if (typeof body !== "object" || body === null || !Array.isArray((body as { tools?: unknown }).tools))
    return body;
  const tools = (body as { tools: Record<string, unknown>[] }).tools.flatMap((tool) => {
    if (tool.type === "namespace")
      return [{ type: "namespace", name: tool.name, description: tool.description }];
    if (tool.defer_loading !== true) return [tool];
    if (tool.type === "function")
      return [{ type: "function", name: tool.name, description: tool.description }];
    return [];
  });
  return { ...body, tools };
}

/** The first request's body with every tool sent and with the default deferral, per provider. */
export async function benchFirstRequest(): Promise<SizeFigures[]> {
  const { mcps, lists } = capturedServers();
  const tools = lists.reduce((sum, list) => sum + list.tools.length, 0);
  const sse = await startWireFake();
  const aws = await startBedrockFake();
  const providers: {
    model: string;
    provider: () => ModelProvider;
    fake: { requests: { body: unknown }[] };
    /** A model of the same provider with the vendor's own tool search, measured too. */
    nativeModel?: string;
  }[] = [
    {
      model: "claude-sonnet-4-6",
      provider: () => anthropic({ apiKey: "k", baseURL: sse.url, maxRetries: 0 }),
      fake: sse,
      nativeModel: "claude-sonnet-4-6",
    },
    {
      model: "gpt-5.1",
      provider: () => openai({ apiKey: "k", baseURL: `${sse.url}/v1`, maxRetries: 0 }),
      fake: sse,
      nativeModel: "gpt-5.4",
    },
    {
      model: "gemini-2.5-flash",
      provider: () => gemini({ apiKey: "k", baseURL: sse.url, apiVersion: "v1beta", maxRetries: 0 }),
      fake: sse,
    },
    {
      model: "gpt-4o",
      provider: () => chatCompletions({ baseURL: `${sse.url}/v1`, maxRetries: 0 }),
      fake: sse,
    },
    {
      model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      provider: () =>
        bedrock({
          region: "us-east-1",
          credentials: { accessKeyId: "AKIDFAKE", secretAccessKey: "fake" },
          baseURL: aws.url,
          maxRetries: 0,
        }),
      fake: aws,
    },
  ];
  const figures: SizeFigures[] = [];
  try {
    for (const entry of providers) {
      const firstBody = async (options: { model: string; mode: "auto" | "off"; native: boolean }) => {
        const before = entry.fake.requests.length;
        const agent = new Agent({
          provider: entry.provider(),
          model: options.model,
          mcps,
          toolSearch: { mode: options.mode, native: options.native },
        });
        // The fake answers with an error: only the request it recorded counts here.
        await agent.send("hello").final.catch(() => undefined);
        agent.close();
        const body = entry.fake.requests[before]?.body;
        if (body === undefined) throw new TypeError(`${entry.provider().name}: no request recorded`);
        return body;
      };
      // Junction's own search on every provider (the vendor's own search is measured apart below).
      const allToolsTokens = estimateJSONTokens(
        await firstBody({ model: entry.model, mode: "off", native: false }),
      );
      const deferredTokens = estimateJSONTokens(
        await firstBody({ model: entry.model, mode: "auto", native: false }),
      );
      let native: SizeFigures["native"];
      if (entry.nativeModel) {
        const body = await firstBody({ model: entry.nativeModel, mode: "auto", native: true });
        const text = JSON.stringify(body);
        if (!text.includes('"defer_loading":true'))
          throw new TypeError(
            `${entry.provider().name} ${entry.nativeModel}: the native search deferred nothing`,
          );
        const visibleTokens = estimateJSONTokens(modelVisibleBody(body));
        native = {
          model: entry.nativeModel,
          bodyTokens: estimateJSONTokens(body),
          visibleTokens,
          share: visibleTokens / allToolsTokens,
        };
      }
      figures.push({
        provider: entry.provider().name,
        model: entry.model,
        tools,
        allToolsTokens,
        deferredTokens,
        share: deferredTokens / allToolsTokens,
        ...(native ? { native } : {}),
      });
    }
  } finally {
    await sse.close();
    await aws.close();
  }
  return figures;
}

/** What the tool-search benchmark measured, for the targets. */
export interface ToolSearchFigures {
  recallAt5: number;
  /** Recall@5 on the held-out tasks (written before the thesaurus; their misses seen while it was written). */
  heldOutRecallAt5: number;
  /** Recall@5 on the unseen tasks (committed before the thesaurus, first run once it was final). */
  unseenRecallAt5: number;
  /** The largest first-request share (deferred against every tool) of any provider, Junction's search or the vendor's. */
  worstShare: { label: string; share: number };
}

/** The benchmark as a markdown section (retrieval, then the first request's size per provider) and its figures. */
export async function benchToolSearch(): Promise<{ section: string; figures: ToolSearchFigures }> {
  const retrieval = await benchRetrieval(TOOL_SEARCH_TASKS);
  const heldOut = await benchRetrieval(TOOL_SEARCH_HELD_OUT_TASKS);
  const unseen = await benchRetrieval(TOOL_SEARCH_UNSEEN_TASKS);
  const sizes = await benchFirstRequest();
  const shares = sizes.flatMap((row) => [
    { label: `${row.provider} ${row.model}, Junction's search`, share: row.share },
    ...(row.native
      ? [{ label: `${row.provider} ${row.native.model}, its own search`, share: row.native.share }]
      : []),
  ]);
  const worstShare = shares.reduce((worst, entry) => (entry.share > worst.share ? entry : worst));
  return {
    section: toolSearchSection({ retrieval, heldOut, unseen }, sizes),
    figures: {
      recallAt5: retrieval.recallAt5,
      heldOutRecallAt5: heldOut.recallAt5,
      unseenRecallAt5: unseen.recallAt5,
      worstShare,
    },
  };
}

type Retrieval = Awaited<ReturnType<typeof benchRetrieval>>;

function toolSearchSection(
  sets: { retrieval: Retrieval; heldOut: Retrieval; unseen: Retrieval },
  sizes: SizeFigures[],
): string {
  const { retrieval, heldOut, unseen } = sets;
  const { lists } = capturedServers();
  return [
    `On ${lists.length} real MCP servers' tool lists (captured by \`pnpm --filter @junction/bench capture-tool-lists\` at pinned versions: ${lists.map((list) => `${list.package}@${list.version}`).join(", ")}).`,
    "",
    `Retrieval of \`search_tools\` (BM25, limit 5) over ${retrieval.tasks} natural-language tasks, each naming the one tool that does it: recall@1 **${retrieval.recallAt1.toFixed(3)}**, recall@5 **${retrieval.recallAt5.toFixed(3)}** (target recall@5 ≥ 0.9). Search words are widened with a thesaurus of how people name what tools do (\`tool-search-thesaurus.ts\`). The first set was written after seeing the tool names, and its misses were seen while the thesaurus was written. So were those of ${heldOut.tasks} held-out tasks (\`tool-search-held-out-tasks.ts\`, written before the thesaurus): recall@1 **${heldOut.recallAt1.toFixed(3)}**, recall@5 **${heldOut.recallAt5.toFixed(3)}**. ${unseen.tasks} unseen tasks (\`tool-search-unseen-tasks.ts\`), committed before the thesaurus and first run once it was final, are the fair measure: recall@1 **${unseen.recallAt1.toFixed(3)}**, recall@5 **${unseen.recallAt5.toFixed(3)}**.`,
    "",
    "First request, whole body in tokens by Junction's estimator, every tool sent against deferred with Junction's `search_tools` (the default automatic mode, `native: false`: Anthropic uses the client-side search here too):",
    "",
    "| provider | model | tools | every tool | deferred | share |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...sizes.map(
      (row) =>
        `| ${row.provider} | ${row.model} | ${row.tools} | ${row.allToolsTokens} | ${row.deferredTokens} | ${(row.share * 100).toFixed(1)}% |`,
    ),
    "",
    "With the vendor's own search (`native: true`, the default on these models): every definition is in the body, deferred ones marked `defer_loading` (OpenAI: one namespace per server, described by the server and its tools' names), and the vendor keeps them out of the model's context until its search finds them. The model-visible size counts the body as each vendor documents showing it (Anthropic: nothing of a deferred tool; OpenAI: a namespace's name and description):",
    "",
    "| provider | model | every tool | body with native search | model sees up front | share |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...sizes.flatMap((row) =>
      row.native
        ? [
            `| ${row.provider} | ${row.native.model} | ${row.allToolsTokens} | ${row.native.bodyTokens} | ${row.native.visibleTokens} | ${(row.native.share * 100).toFixed(1)}% |`,
          ]
        : [],
    ),
    "",
    ...[
      { title: "Tasks missed at 5", misses: retrieval.misses },
      { title: "Held-out tasks missed at 5", misses: heldOut.misses },
      { title: "Unseen tasks missed at 5", misses: unseen.misses },
    ].flatMap(({ title, misses }) =>
      misses.length > 0 ? [`${title}:`, "", ...misses.map((miss) => `- ${miss}`), ""] : [],
    ),
  ].join("\n");
}

if (import.meta.main) process.stdout.write(`${(await benchToolSearch()).section}\n`);
