// The three searches the tool-search benchmark compares on the same tools and queries: Junction's
// (`search_tools` through a real Agent with default settings and the scripted model), plain BM25
// (bm25.ts) and the Vercel AI SDK's default `toolSearch()` (through `generateText` with the SDK's
// own mock model, so only its retrieval is measured).
import { Agent, InMemoryEmbeddingCache, type MCPEntry, type ToolSearchOptions } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import type { Tool as JunctionTool } from "@junction/types";
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool, toolSearch } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { createBM25Index } from "./bm25.ts";

/** A pool of tools as an Agent gets them (`mcps`) and as they are listed (names as the Agent sees them). */
export interface ToolPool {
  mcps: MCPEntry[];
  tools: { name: string; description?: string; inputSchema: unknown; server: string }[];
}

/** What one search answered. */
export interface SearchAnswer {
  /** The tools it returned, best first. */
  ranked: string[];
  /** It said that nothing fits (or returned nothing). */
  nothingFits: boolean;
  /** Its answer carries a confidence signal (a score, a confidence word, or "nothing fits"). */
  hasConfidence: boolean;
}

/** A search engine under test: answers a query over the pool it was made for. */
export interface SearchEngine {
  name: string;
  search(query: string): Promise<SearchAnswer>;
}

/** The listed tools of a pool, read from its sources as the Agent reads them. */
export async function listPool(mcps: MCPEntry[]): Promise<ToolPool> {
  const tools: ToolPool["tools"] = [];
  for (const entry of mcps) {
    const source = "mcp" in entry ? entry.mcp : entry;
    const prefix = "mcp" in entry ? entry.prefix : undefined;
    const listed: JunctionTool[] = await source.listTools(prefix ? { prefix } : {});
    for (const listedTool of listed)
      tools.push({
        name: listedTool.name,
        server: prefix ?? (source as { name?: string }).name ?? "",
        ...(typeof listedTool.description === "string" ? { description: listedTool.description } : {}),
        inputSchema: listedTool.inputSchema,
      });
  }
  return { mcps, tools };
}

/**
 * How the harness reads Junction's `search_tools` answer, the output of its tool result (as the
 * model gets it in the next request). Two forms:
 *
 * - An object with `structuredContent: { results, loaded?, nothingFits? }` (what the search emits
 *   since issue 28, also on its `tool-search` event): the ranked tools are `loaded` (the tools the
 *   model was given, best first, which it can call from its next step), else the names in
 *   `results`. With `nothingFits: true` the answer says nothing fits well and `loaded` holds only
 *   the closest few it still gave the model (or nothing): those count, and the names the text
 *   lists without loading them do not (the model could not call them without another search).
 *   A confidence signal: `nothingFits` is a boolean, or a result has a numeric `score` or a
 *   `confidence`.
 * - Text: the ranked tools are the lines `- <name>…` in order, `<name>` the first run of letters,
 *   digits, `_`, `-` and `.` after "- " (what follows is not read); "nothing fits" is the words
 *   "nothing fits" or "no tool fits" / "no tool matches" (any case), or no tool listed; a
 *   confidence signal is one of those phrases, the word "confidence" or "score", or "high fit",
 *   "medium fit" or "low fit".
 */
export function readSearchToolsAnswer(output: unknown): SearchAnswer {
  const structured =
    typeof output === "object" && output !== null
      ? (output as { structuredContent?: unknown }).structuredContent
      : undefined;
  if (typeof structured === "object" && structured !== null && "results" in structured) {
    const { results, loaded, nothingFits } = structured as {
      results: { name: string; score?: unknown; confidence?: unknown }[];
      loaded?: string[];
      nothingFits?: unknown;
    };
    const said = nothingFits === true;
    const ranked = Array.isArray(loaded) ? [...loaded] : said ? [] : results.map((result) => result.name);
    return {
      ranked,
      nothingFits: said || ranked.length === 0,
      hasConfidence:
        typeof nothingFits === "boolean" ||
        results.some((result) => typeof result.score === "number" || result.confidence !== undefined),
    };
  }
  const text = typeof output === "string" ? output : JSON.stringify(output ?? "");
  const ranked = [...text.matchAll(/^- ([A-Za-z0-9_.-]+)/gm)].map((match) => match[1] as string);
  const saysNothingFits = /nothing fits|no tool (fits|matches)/i.test(text);
  return {
    ranked,
    nothingFits: saysNothingFits || ranked.length === 0,
    hasConfidence: saysNothingFits || /\b(confidence|score)\b|\b(high|medium|low) fit\b/i.test(text),
  };
}

/**
 * Junction's search: a fresh Agent per query (default settings, or `toolSearch` given, e.g. the
 * local model's `embed`), the scripted model calling `search_tools`.
 */
export function junctionEngine(
  pool: ToolPool,
  options: { name?: string; toolSearch?: ToolSearchOptions } = {},
): SearchEngine & { warnings: string[] } {
  const warnings: string[] = [];
  // One store of tool vectors for every Agent of this engine (one model), as an app would keep.
  const toolSearch = options.toolSearch?.embed
    ? { embedCache: new InMemoryEmbeddingCache(), ...options.toolSearch }
    : options.toolSearch;
  return {
    name: options.name ?? "Junction `search_tools`",
    warnings,
    async search(query) {
      const provider = scriptedModel({
        capabilities: { contextWindowTokens: 200_000 },
        responses: [
          { toolCalls: [{ id: "search", name: "search_tools", input: { query } }] },
          { text: "ok" },
        ],
      });
      const agent = new Agent({
        provider,
        model: "m",
        mcps: pool.mcps,
        ...(toolSearch ? { toolSearch } : {}),
      });
      try {
        const final = await agent.send(query).final;
        for (const warning of final.warnings) {
          if (warning.code === "tools-deferred" && !warnings.includes(warning.message))
            warnings.push(warning.message);
          if (warning.code === "tool-search-embedder-failed")
            throw new TypeError(`the embedder failed, the figures would be words alone: ${warning.message}`);
        }
      } finally {
        agent.close();
      }
      if (!provider.requests[0]?.tools?.some((definition) => definition.name === "search_tools"))
        throw new TypeError("the tools were not deferred: the benchmark measures nothing");
      const result = provider.requests[1]?.messages.at(-1);
      const part = result?.role === "tool" ? result.content[0] : undefined;
      if (part?.output === undefined)
        throw new TypeError(`search_tools gave no result for "${query}": ${JSON.stringify(result)}`);
      return readSearchToolsAnswer(part.output);
    },
  };
}

/** Plain BM25 over each tool's name and description (bm25.ts), top 5. */
export function bm25Engine(pool: ToolPool): SearchEngine {
  const index = createBM25Index(
    pool.tools.map((entry) => ({ name: entry.name, text: `${entry.name} ${entry.description ?? ""}` })),
  );
  return {
    name: "plain BM25",
    async search(query) {
      const ranked = index.search(query, 5);
      return { ranked, nothingFits: ranked.length === 0, hasConfidence: false };
    },
  };
}

/** The pool's tools as AI SDK tools with `deferLoading`, and the SDK's default `toolSearch()`. */
export function aiSDKTools(pool: ToolPool): ToolSet {
  const tools: ToolSet = { tool_search: toolSearch() };
  for (const entry of pool.tools)
    tools[entry.name] = tool({
      ...(entry.description ? { description: entry.description } : {}),
      inputSchema: jsonSchema(entry.inputSchema as Parameters<typeof jsonSchema>[0]),
      deferLoading: true,
      execute: async () => "ok",
    });
  return tools;
}

const mockUsage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A mock model turn that calls `toolName` with `input`, then one that answers "ok". */
export function aiSDKScript(toolName: string, input: unknown): MockLanguageModelV4 {
  let turn = 0;
  return new MockLanguageModelV4({
    doGenerate: async () =>
      turn++ === 0
        ? {
            content: [{ type: "tool-call", toolCallId: "search", toolName, input: JSON.stringify(input) }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage: mockUsage,
            warnings: [],
          }
        : {
            content: [{ type: "text", text: "ok" }],
            finishReason: { unified: "stop", raw: "stop" },
            usage: mockUsage,
            warnings: [],
          },
  });
}

/**
 * The Vercel AI SDK's default tool search (`toolSearch()` over tools with `deferLoading: true`,
 * ai 7): `generateText` with the SDK's mock model calling the search tool with the query; the
 * ranked tools are the search tool's result. Its default ranking scores each query word found in
 * a tool's name 2 and in its description 1, keeps tools scoring above 0, and returns five.
 */
export function aiSDKEngine(pool: ToolPool): SearchEngine {
  const tools = aiSDKTools(pool);
  return {
    name: "AI SDK `toolSearch()`",
    async search(query) {
      const result = await generateText({
        model: aiSDKScript("tool_search", { query }),
        tools,
        prompt: query,
        stopWhen: stepCountIs(2),
      });
      const searchResult = result.steps[0]?.toolResults.find((entry) => entry.toolName === "tool_search");
      const output = searchResult?.output as { tools?: { name: string }[] } | undefined;
      if (!output?.tools)
        throw new TypeError(`the AI SDK's toolSearch answered nothing readable for "${query}"`);
      const ranked = output.tools.map((entry) => entry.name);
      return { ranked, nothingFits: ranked.length === 0, hasConfidence: false };
    },
  };
}
