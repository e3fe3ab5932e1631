import type { Embedder, ToolDefinition } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import { scriptedModel } from "./testing/index.js";
import {
  DenseToolIndex,
  fusedSearch,
  InMemoryEmbeddingCache,
  toolEmbeddingDigest,
  toolEmbeddingText,
} from "./tool-search-dense.js";
import { ToolIndex } from "./tool-search-index.js";
import type { ToolSearchOutput } from "./tool-search-tool.js";
import { searchToolsTool } from "./tool-search-tool.js";

/**
 * A deterministic embedder for tests: one dimension per concept, a text's vector counts the
 * words of each concept it has (so "rain" and "forecast" meet, though no word is shared).
 */
const CONCEPTS: Record<string, string[]> = {
  weather: ["weather", "forecast", "rain", "sunny", "temperature"],
  file: ["file", "document", "folder"],
  mail: ["mail", "email", "message", "inbox"],
};
function conceptEmbedder(calls: string[][] = []): Embedder {
  return async (texts) => {
    calls.push([...texts]);
    return texts.map((text) => {
      const words = text.toLowerCase().split(/[^a-z]+/);
      // A small constant dimension keeps a text with no concept from being the zero vector.
      return [
        ...Object.values(CONCEPTS).map((group) => words.filter((word) => group.includes(word)).length),
        0.01,
      ];
    });
  };
}

const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});
const TOOLS = [
  tool("get_forecast", "Returns the forecast for a city.", { city: { description: "The city's name" } }),
  tool("read_document", "Reads a document from disk.", { path: {} }),
  tool("send_mail", "Sends a mail to someone.", { to: {} }),
];
const searchable = TOOLS.map((definition) => ({ definition }));

describe("tool search: dense ranking fused with the lexical one", () => {
  it("embeds a tool from its name in words, title, description, parameters and its source's description", () => {
    expect(
      toolEmbeddingText({
        definition: { ...TOOLS[0]!, annotations: { title: "Forecast" } },
      }),
    ).toBe("get forecast\nForecast\nReturns the forecast for a city.\ncity: The city's name");
    expect(
      toolEmbeddingText({
        definition: tool("weather.getDailyForecast-v2", "Returns the forecast."),
        source: { name: "weather", description: "Weather for any city, from the national service." },
      }),
    ).toBe(
      "weather get Daily Forecast v2\nReturns the forecast.\nWeather for any city, from the national service.",
    );
    // A source without a description adds nothing.
    expect(
      toolEmbeddingText({ definition: tool("send_mail", "Sends a mail."), source: { name: "mail" } }),
    ).toBe("send mail\nSends a mail.");
  });

  it("finds the tool a request names in other words than the tool's, which the lexical ranking misses", async () => {
    const index = new ToolIndex(searchable);
    expect(index.search("will it rain tomorrow", 5)).toEqual([]);
    const dense = new DenseToolIndex({
      tools: searchable,
      embed: conceptEmbedder(),
      cache: new InMemoryEmbeddingCache(),
    });
    const { hits, bestSimilarity } = await fusedSearch({
      index,
      dense,
      query: "will it rain tomorrow",
      limit: 2,
    });
    expect(hits.map((hit) => hit.definition.name)).toEqual(["get_forecast", "read_document"]);
    expect(hits[0]).toMatchObject({ relevance: 0, score: 1 / 61 });
    expect(hits[0]!.similarity).toBeCloseTo(1, 3);
    expect(bestSimilarity).toBeCloseTo(1, 3);
  });

  it("ranks a tool both rankings put first above one only one of them has", async () => {
    const index = new ToolIndex(searchable);
    const dense = new DenseToolIndex({
      tools: searchable,
      embed: conceptEmbedder(),
      cache: new InMemoryEmbeddingCache(),
    });
    const { hits } = await fusedSearch({ index, dense, query: "send a mail to my boss", limit: 3 });
    expect(hits[0]).toMatchObject({ score: 2 / 61 });
    expect(hits[0]!.definition.name).toBe("send_mail");
    expect(hits[0]!.relevance).toBeGreaterThan(0.3);
  });

  it("embeds each tool once per digest: later searches and a rebuilt index embed only the query and what changed", async () => {
    const calls: string[][] = [];
    const embed = conceptEmbedder(calls);
    const cache = new InMemoryEmbeddingCache();
    const dense = new DenseToolIndex({ tools: searchable, embed, cache });
    await dense.rank("rain");
    await dense.rank("inbox");
    // The first search asks for the query's vector at once, while the tools' are being looked up.
    expect(calls).toEqual([["rain"], searchable.map(toolEmbeddingText), ["inbox"]]);
    expect(cache.size).toBe(3);
    expect(cache.get(await toolEmbeddingDigest(searchable[1]!))).toEqual([0, 2, 0, 0.01]);

    calls.length = 0;
    const changed = [searchable[0]!, searchable[1]!, { definition: tool("send_mail", "Sends an email.") }];
    await new DenseToolIndex({ tools: changed, embed, cache }).rank("rain");
    expect(calls).toEqual([["rain"], ["send mail\nSends an email."]]);
  });

  it("embeds the query while the tools' vectors are still being embedded, not after", async () => {
    let inFlight = 0;
    let most = 0;
    const embed = conceptEmbedder();
    const dense = new DenseToolIndex({
      tools: searchable,
      embed: async (texts) => {
        most = Math.max(most, ++inFlight);
        // Both calls are made before either answers: a search that waited for the tools first sees 1.
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return embed(texts);
      },
      cache: new InMemoryEmbeddingCache(),
    });
    const ranked = await dense.rank("rain");
    expect(most).toBe(2);
    expect(searchable[ranked[0]!.tool]!.definition.name).toBe("get_forecast");
  });

  it.each([
    ["throws", async () => Promise.reject(new TypeError("connection refused")), "connection refused"],
    ["answers too few vectors", async () => [[1, 0]], "it answered 1 vectors for 3 texts"],
    [
      "answers vectors of mixed lengths",
      async (texts: string[]) => texts.map((_, i) => (i === 1 ? [1] : [1, 0])),
      "its vectors have 2 and 1 dimensions",
    ],
    [
      "answers NaN",
      async (texts: string[]) => texts.map(() => [Number.NaN, 1]),
      "a vector holds NaN, not a finite number",
    ],
  ] as const)(
    "an embedder that %s: the search ranks by words alone and says why once",
    async (_, embed, reason) => {
      const failures: unknown[] = [];
      const loaded = new Set<string>();
      const search = searchToolsTool({
        index: new ToolIndex(searchable),
        loaded,
        dense: new DenseToolIndex({
          tools: searchable,
          embed: embed as Embedder,
          cache: new InMemoryEmbeddingCache(),
        }),
        onEmbedderFailed: (error) => failures.push(error),
      });
      const lexical = searchToolsTool({ index: new ToolIndex(searchable), loaded: new Set() });
      const result = await search.execute({ query: "send a mail" });
      expect(result).toEqual(await lexical.execute({ query: "send a mail" }));
      expect((result as { structuredContent: ToolSearchOutput }).structuredContent.loaded).toEqual([
        "send_mail",
      ]);
      expect(failures).toHaveLength(1);
      expect((failures[0] as Error).message).toContain(reason);
    },
  );

  it("a query vector of another length than the tools' is a failure", async () => {
    const embed: Embedder = async (texts) => texts.map((text) => (text === "rain" ? [1, 0] : [1, 0, 0]));
    const dense = new DenseToolIndex({ tools: searchable, embed, cache: new InMemoryEmbeddingCache() });
    await expect(dense.rank("rain")).rejects.toThrow(
      "The tool search's embedder answered wrongly: the query's vector has 2 dimensions, the tools' 3.",
    );
  });

  it("nothing fits stays lexical unless minSimilarity is set: then a close enough vector fits; a tool only the vectors found is not loaded on a low fit", async () => {
    const make = (minSimilarity?: number) =>
      searchToolsTool({
        index: new ToolIndex(searchable),
        loaded: new Set(),
        dense: new DenseToolIndex({
          tools: searchable,
          embed: conceptEmbedder(),
          cache: new InMemoryEmbeddingCache(),
        }),
        ...(minSimilarity !== undefined ? { minSimilarity } : {}),
      });
    const output = async (minSimilarity?: number, query = "will it rain tomorrow") =>
      ((await make(minSimilarity).execute({ query, limit: 1 })) as { structuredContent: ToolSearchOutput })
        .structuredContent;
    expect(await output()).toEqual({
      query: "will it rain tomorrow",
      results: [{ name: "get_forecast", score: 0, confidence: "low" }],
      loaded: [],
      nothingFits: true,
    });
    expect(await output(0.8)).toMatchObject({ loaded: ["get_forecast"], nothingFits: false });
    // No concept in common: the best similarity is far under 0.8, so nothing fits still.
    expect(await output(0.8, "book a table for two")).toMatchObject({ loaded: [], nothingFits: true });
  });

  it("mixes the two scores, each min-max normalised over the candidates: (1 − w) · relevance′ + w · similarity′", async () => {
    const index = new ToolIndex(searchable);
    const dense = new DenseToolIndex({
      tools: searchable,
      embed: conceptEmbedder(),
      cache: new InMemoryEmbeddingCache(),
    });
    // No word in common: the lexical part is 0 for every tool, the dense part decides.
    const { hits, bestSimilarity } = await fusedSearch({
      index,
      dense,
      query: "will it rain tomorrow",
      limit: 3,
      fusion: "mix",
      mixWeight: 0.4,
    });
    expect(hits.map((hit) => hit.definition.name)).toEqual(["get_forecast", "read_document", "send_mail"]);
    // Every relevance is 0, so the lexical part is the same (1) for all; the most similar tool scores 1.
    expect(hits[0]!.score).toBeCloseTo(1, 9);
    const least = Math.min(...hits.map((hit) => hit.similarity!));
    for (const hit of hits)
      expect(hit.score).toBeCloseTo(0.6 + (0.4 * (hit.similarity! - least)) / (bestSimilarity - least), 9);
    expect(hits[2]!.score).toBeCloseTo(0.6, 9);
    // "send" is a word of send_mail, "weather" a concept of get_forecast: the weight chooses.
    const first = async (mixWeight: number) =>
      (await fusedSearch({ index, dense, query: "send the weather", limit: 1, fusion: "mix", mixWeight }))
        .hits[0];
    expect(await first(0)).toMatchObject({ score: 1 });
    expect((await first(0))!.definition.name).toBe("send_mail");
    expect((await first(1))!.definition.name).toBe("get_forecast");
    expect((await first(1))!.score).toBeCloseTo(1, 9);
    // "Nothing fits" is still judged on words: the mix's first tool shares none with the request.
    const search = searchToolsTool({
      index,
      loaded: new Set(),
      dense,
      fusion: "mix",
      mixWeight: 1,
    });
    const result = (await search.execute({ query: "will it rain tomorrow", limit: 1 })) as {
      structuredContent: ToolSearchOutput;
    };
    expect(result.structuredContent).toEqual({
      query: "will it rain tomorrow",
      results: [{ name: "get_forecast", score: 0, confidence: "low" }],
      loaded: [],
      nothingFits: true,
    });
  });

  it("toolSearch.fusion and mixWeight reach the Agent's search; bad values are refused by name", async () => {
    const firstLoaded = async (toolSearch: Record<string, unknown>) => {
      const provider = scriptedModel([
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query: "send the weather", limit: 1 } }] },
        { text: "done" },
      ]);
      const agent = new Agent({
        provider,
        model: "m",
        tools: TOOLS.map((definition) => ({ ...definition, defer: true, execute: async () => "ok" })),
        toolSearch: { embed: conceptEmbedder(), minRelevance: 0, ...toolSearch },
      });
      const handle = agent.send("send the weather");
      const loaded: string[] = [];
      for await (const event of handle) if (event.type === "tool-search") loaded.push(...event.loaded);
      await handle.final;
      agent.close();
      return loaded;
    };
    expect(await firstLoaded({ fusion: "mix", mixWeight: 0 })).toEqual(["send_mail"]);
    expect(await firstLoaded({ fusion: "mix", mixWeight: 1 })).toEqual(["get_forecast"]);
    const provider = scriptedModel([{ text: "done" }]);
    expect(() => new Agent({ provider, model: "m", toolSearch: { fusion: "sum" as "mix" } })).toThrow(
      'toolSearch.fusion must be "rrf" or "mix", not "sum".',
    );
    expect(() => new Agent({ provider, model: "m", toolSearch: { mixWeight: 1.5 } })).toThrow(
      "toolSearch.mixWeight must be a number from 0 to 1, not 1.5.",
    );
  });

  it("without an embedder the search answers at once, as before", () => {
    const result = searchToolsTool({ index: new ToolIndex(searchable), loaded: new Set() }).execute({
      query: "mail",
    });
    expect(result).not.toBeInstanceOf(Promise);
  });
});
