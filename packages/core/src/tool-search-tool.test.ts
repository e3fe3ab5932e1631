import { describe, expect, it } from "vitest";
import type { ToolSearchHit } from "./tool-search-index.js";
import { SMALL_CATALOG_TOOLS, toolSearchFit, toolSearchResult } from "./tool-search-tool.js";

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

describe("toolSearchResult", () => {
  it("rounds the relevance to two decimals and names its confidence", () => {
    expect(toolSearchResult(hit("a", 0.384))).toEqual({ name: "a", score: 0.38, confidence: "high" });
    expect(toolSearchResult(hit("b", 0.2))).toEqual({ name: "b", score: 0.2, confidence: "medium" });
    expect(toolSearchResult(hit("c", 0.1949))).toEqual({ name: "c", score: 0.19, confidence: "low" });
  });
});
