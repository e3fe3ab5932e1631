// Tool search: retrieval of Junction's search_tools beside plain BM25 and the AI SDK's toolSearch()
// on our task sets over the captured tool lists of 18 real MCP servers (tool-lists/, from
// capture-tool-lists.ts) and on LiveMCPBench (bench-tool-search-retrieval.ts), and the first
// request's size with every tool sent against deferred-with-search, through each provider's real
// request builder (its vendor SDK against a local wire fake).
// Run: pnpm --filter @junction/bench bench:tool-search [--smoke]
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { Agent, DEFAULT_MIX_WEIGHT, estimateJSONTokens, type MCPEntry } from "@junction/core";
import { miniLM } from "@junction/embed-minilm";
import { anthropic } from "@junction/provider-anthropic";
import { bedrock } from "@junction/provider-bedrock";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { gemini } from "@junction/provider-gemini";
import { openai } from "@junction/provider-openai";
import type { ModelProvider, Tool, ToolDefinition } from "@junction/types";
import { startWireFake } from "@junction/wire-fake";
import { startBedrockFake } from "@junction/wire-fake/bedrock";
import {
  benchRetrieval,
  type RetrievalFigures,
  retrievalMisses,
  retrievalSection,
} from "./bench-tool-search-retrieval.ts";

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
  retrieval: RetrievalFigures;
  /** The largest first-request share (deferred against every tool) of any provider, Junction's search or the vendor's. */
  worstShare: { label: string; share: number };
}

/** The benchmark as a markdown section (retrieval, then the first request's size per provider) and its figures. */
export async function benchToolSearch(
  options: { smoke?: boolean; log?: (line: string) => void } = {},
): Promise<{ section: string; figures: ToolSearchFigures }> {
  const { mcps } = capturedServers();
  // The local model embeds about a thousand texts the first time (70–150 ms of CPU each), kept in
  // its own disk cache for the next run; a smoke run (CI) leaves it out.
  const localModel = options.smoke
    ? undefined
    : {
        name: `Junction \`search_tools\` + MiniLM (mix ${DEFAULT_MIX_WEIGHT})`,
        toolSearch: { fusion: "mix" as const },
        fresh: () => miniLM(),
      };
  if (options.smoke) options.log?.("bench: tool search: the local model (MiniLM) is left out of smoke runs");
  const retrieval = await benchRetrieval({
    captured: mcps,
    smoke: options.smoke ?? false,
    ...(options.log ? { log: options.log } : {}),
    ...(localModel ? { localModel } : {}),
  });
  const sizes = await benchFirstRequest();
  const shares = sizes.flatMap((row) => [
    { label: `${row.provider} ${row.model}, Junction's search`, share: row.share },
    ...(row.native
      ? [{ label: `${row.provider} ${row.native.model}, its own search`, share: row.native.share }]
      : []),
  ]);
  const worstShare = shares.reduce((worst, entry) => (entry.share > worst.share ? entry : worst));
  return {
    section: toolSearchSection(retrieval, sizes, options.smoke ?? false),
    figures: { retrieval, worstShare },
  };
}

/** A set's figures for one search, by the set's label and the search's name prefix. */
export function setFigures(figures: ToolSearchFigures, label: string, engine: string) {
  return figures.retrieval.sets
    .find((set) => set.label === label)
    ?.figures.find((row) => row.engine.startsWith(engine));
}

function toolSearchSection(retrieval: RetrievalFigures, sizes: SizeFigures[], smoke: boolean): string {
  const { lists } = capturedServers();
  return [
    `Our task sets run on ${lists.length} real MCP servers' tool lists (captured by \`pnpm --filter @junction/bench capture-tool-lists\` at pinned versions: ${lists.map((list) => `${list.package}@${list.version}`).join(", ")}). The first set (\`tool-search-tasks.ts\`) was written after seeing the tool names and its misses were seen while the thesaurus was written; so were the held-out set's (\`tool-search-held-out-tasks.ts\`); the unseen set (\`tool-search-unseen-tasks.ts\`) was committed before the thesaurus and first run once it was final; the blind set (\`tool-search-blind-tasks.ts\`, issue 28) was written from the tool lists alone by someone who never read the search's code, and committed before anything ran on it. Only the blind set and LiveMCPBench's held-out half are fair measures of tasks nobody tuned to.${smoke ? " **Smoke run: 3 tasks per set; these figures say nothing.**" : ""}`,
    "",
    retrievalSection(retrieval),
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
    retrievalMisses(retrieval),
  ].join("\n");
}

if (import.meta.main) {
  // A full run also writes bench/results/tool-search.md (`pnpm bench` writes the same section into
  // latest.md); a smoke run writes nothing.
  const smoke = process.argv.includes("--smoke");
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { section } = await benchToolSearch({ smoke, log });
  process.stdout.write(`${section}\n`);
  if (!smoke) {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    writeFileSync(
      new URL("../results/tool-search.md", import.meta.url),
      `# Tool search\n\nMeasured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC at commit ${commit}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}. Reproduce with \`pnpm --filter @junction/bench bench:tool-search\`.\n\n${section}\n`,
    );
    log("bench: written to bench/results/tool-search.md");
  }
}
