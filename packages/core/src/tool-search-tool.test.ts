import { describe, expect, it } from "vitest";
import type { ToolSearchHit } from "./tool-search-index.js";
import {
  MOST_LOADED_TOOLS,
  SMALL_CATALOG_TOOLS,
  searchRequestOf,
  searchRequestSchema,
  toolSearchFit,
  toolSearchResult,
} from "./tool-search-tool.js";

function hit(name: string, relevance: number): ToolSearchHit {
  return {
    definition: { name, description: name, inputSchema: { type: "object" } },
    score: relevance,
    relevance,
  };
}

describe("toolSearchFit", () => {
  const found = [hit("a", 0.3), hit("b", 0.25), hit("c", 0.2), hit("d", 0.1)];

  it("offers everything found when the best fits well", () => {
    const fitting = [hit("a", 0.38), ...found.slice(1)];
    expect(toolSearchFit(fitting)).toEqual({ nothingFits: false, offered: fitting });
  });

  it("offers the three closest when the best is a medium fit", () => {
    expect(toolSearchFit(found)).toEqual({ nothingFits: true, offered: found.slice(0, 3) });
  });

  it("offers the closest one when the best is a low fit of a small catalog: a budget, not a floor; nothing when nothing shares a word", () => {
    const low = [hit("a", 0.19), hit("b", 0.1)];
    expect(toolSearchFit(low)).toEqual({ nothingFits: true, offered: [low[0]] });
    expect(toolSearchFit(low, { catalogSize: SMALL_CATALOG_TOOLS })).toEqual({
      nothingFits: true,
      offered: [low[0]],
    });
    expect(toolSearchFit(low, { lowFitTools: 0 })).toEqual({ nothingFits: true, offered: [] });
    expect(toolSearchFit(low, { lowFitTools: 2 })).toEqual({ nothingFits: true, offered: low });
    expect(toolSearchFit([])).toEqual({ nothingFits: true, offered: [] });
    // Found by a dense ranking only: no word in common, nothing loaded.
    expect(toolSearchFit([hit("a", 0)])).toEqual({ nothingFits: true, offered: [] });
  });

  it("offers nothing on a low fit of a larger catalog ranked by words alone, unless told how many to offer", () => {
    const low = [hit("a", 0.19), hit("b", 0.1)];
    expect(toolSearchFit(low, { catalogSize: SMALL_CATALOG_TOOLS + 1 })).toEqual({
      nothingFits: true,
      offered: [],
    });
    expect(toolSearchFit(low, { catalogSize: 250, lowFitTools: 1 }).offered).toEqual([low[0]]);
    // Fused with a dense ranking, the closest may be the meaning's first: it loads.
    expect(toolSearchFit(low, { catalogSize: 250, denseRanked: true }).offered).toEqual([low[0]]);
    // A medium fit offers its closest three whatever the catalog.
    expect(toolSearchFit(found, { catalogSize: 250 }).offered).toEqual(found.slice(0, 3));
  });

  it("follows the thresholds, the fused best relevance and a fit by similarity it is given", () => {
    expect(toolSearchFit(found, { minRelevance: 0.3 }).nothingFits).toBe(false);
    expect(toolSearchFit(found, { minClosestRelevance: 0.31 }).offered).toEqual([found[0]]);
    expect(toolSearchFit(found, { bestRelevance: 0.5 }).nothingFits).toBe(false);
    expect(toolSearchFit(found, { fitsBySimilarity: true })).toEqual({ nothingFits: false, offered: found });
  });
});

describe("searchRequestOf", () => {
  const options = { tool: "search_tools", maxResults: 5 };
  const limitOf = (input: unknown) => {
    const read = searchRequestOf(input, options);
    return "limit" in read ? read.limit : undefined;
  };

  it("reads the request and a limit within 1 to MOST_LOADED_TOOLS, else the default", () => {
    expect(searchRequestOf({ query: "weather", limit: 3 }, options)).toEqual({ query: "weather", limit: 3 });
    expect(searchRequestOf({ query: "weather", limit: 50 }, options)).toEqual({
      query: "weather",
      limit: MOST_LOADED_TOOLS,
    });
    expect(limitOf({ query: "weather", limit: 0 })).toBe(1);
    expect(limitOf({ query: "weather", limit: 2.5 })).toBe(5);
    expect(limitOf({ query: "weather", limit: "3" })).toBe(5);
  });

  it("reads at most the request's first 1,000 characters", () => {
    const read = searchRequestOf({ query: "x".repeat(5_000) }, options);
    expect("query" in read ? read.query.length : undefined).toBe(1_000);
  });

  it("names the tool and what it needs when there is no request", () => {
    for (const input of [{}, { query: "  " }, { query: 3 }, "weather", null, ["weather"]]) {
      expect(searchRequestOf(input, options)).toEqual({
        error: 'search_tools needs {"query": a non-empty string}.',
      });
    }
  });

  it("gives the schema those arguments follow", () => {
    expect(searchRequestSchema({ maxResults: 5, limit: "How many tools to load at most" })).toMatchObject({
      required: ["query"],
      properties: {
        limit: { maximum: MOST_LOADED_TOOLS, description: "How many tools to load at most (default 5)." },
      },
    });
  });
});

describe("toolSearchResult", () => {
  it("rounds the relevance to two decimals and names its confidence", () => {
    expect(toolSearchResult(hit("a", 0.384))).toEqual({ name: "a", score: 0.38, confidence: "high" });
    expect(toolSearchResult(hit("b", 0.2))).toEqual({ name: "b", score: 0.2, confidence: "medium" });
    expect(toolSearchResult(hit("c", 0.1949))).toEqual({ name: "c", score: 0.19, confidence: "low" });
  });
});
