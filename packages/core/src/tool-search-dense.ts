import type { Embedder, Warning } from "@junction/types";
import { errorMessage, JunctionError } from "@junction/types";
import { sha256Hex } from "./run-digests.js";
import type { SearchableTool, ToolIndex, ToolSearchHit } from "./tool-search-index.js";

/**
 * Where a tool search keeps its tools' vectors, by tool digest ({@link toolEmbeddingDigest}):
 * the in-memory default ({@link InMemoryEmbeddingCache}), or a store of yours that outlives the
 * process. A store shared by several embedders must keep each embedder's vectors apart (one
 * store per model): the digest names the tool's text, not the model.
 */
export interface EmbeddingCache {
  get(digest: string): number[] | undefined | Promise<number[] | undefined>;
  set(digest: string, vector: number[]): void | Promise<void>;
}

/** An {@link EmbeddingCache} in a `Map`: what an Agent uses when `toolSearch.embedCache` is not given. */
export class InMemoryEmbeddingCache implements EmbeddingCache {
  readonly #vectors = new Map<string, number[]>();

  get(digest: string): number[] | undefined {
    return this.#vectors.get(digest);
  }

  set(digest: string, vector: number[]): void {
    this.#vectors.set(digest, vector);
  }

  /** How many vectors it holds. */
  get size(): number {
    return this.#vectors.size;
  }
}

/**
 * Reciprocal rank fusion's constant for the lexical and the dense ranking (Cormack, Clarke and
 * Büttcher, SIGIR 2009): a tool's fused score is the sum over both rankings of 1 / (60 + its rank),
 * rank 1 first. 60 is the paper's value; a larger one flattens the difference between ranks.
 */
export const DENSE_RRF_K = 60;

/** How deep each ranking goes into the fusion: tools below this rank in both are left out. */
const FUSION_DEPTH = 50;

/**
 * The text a tool is embedded from, one part a line: its name in words (`github_create_issue` →
 * "github create issue", `getUser` → "get User"), title, description, each parameter's name and
 * description, and its source's description (an MCP server's: what the server is for). Chosen on
 * the tuning sets with all-MiniLM-L6-v2 (bench/src/tune-tool-search-recall.ts; core's README).
 */
export function toolEmbeddingText(tool: SearchableTool): string {
  const { definition } = tool;
  const lines = [nameInWords(definition.name)];
  const title = definition.annotations?.title;
  if (typeof title === "string" && title.length > 0) lines.push(title);
  if (definition.description) lines.push(definition.description);
  const properties = (definition.inputSchema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties === "object" && properties !== null)
    for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
      const description = (schema as { description?: unknown } | null)?.description;
      lines.push(
        typeof description === "string" && description.length > 0 ? `${name}: ${description}` : name,
      );
    }
  const sourceDescription = tool.source?.description;
  if (typeof sourceDescription === "string" && sourceDescription.length > 0) lines.push(sourceDescription);
  return lines.join("\n");
}

/** A tool's name as words: its separators (`_`, `-`, `.`) as spaces, a case change as a space. */
function nameInWords(name: string): string {
  return name.replace(/[_\-.]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2");
}

/** The digest a tool's vector is cached under: SHA-256 (hex) of {@link toolEmbeddingText}. */
export function toolEmbeddingDigest(tool: SearchableTool): Promise<string> {
  return sha256Hex(toolEmbeddingText(tool));
}

/**
 * A dense ranking over tools: each tool's vector computed once per digest (looked up in `cache`,
 * the missing ones embedded in one call), the query embedded per search, tools ranked by cosine
 * similarity. Throws what the embedder throws, and a `JunctionError` (`tool-execution-failed`)
 * when it answers the wrong number of vectors, vectors of mixed lengths (a cached vector of another
 * model's length included) or a value that is not a finite number.
 */
export class DenseToolIndex {
  readonly #tools: readonly SearchableTool[];
  readonly #embed: Embedder;
  readonly #cache: EmbeddingCache;
  #vectors: Promise<Float64Array[]> | undefined;

  constructor(parts: { tools: readonly SearchableTool[]; embed: Embedder; cache: EmbeddingCache }) {
    this.#tools = parts.tools;
    this.#embed = parts.embed;
    this.#cache = parts.cache;
  }

  /** Every tool with its cosine similarity to `query`, most similar first. */
  async rank(query: string, signal?: AbortSignal): Promise<{ tool: number; similarity: number }[]> {
    const vectors = this.#toolVectorsOnce(signal);
    // Asked for while the tools' vectors are still being read: a first search waits for both at once.
    const [tools, answered] = await Promise.all([
      vectors,
      this.#embed([query], signal ? { signal } : undefined),
    ]);
    const [queryVector] = checkVectors(answered, 1);
    const dimension = tools[0]?.length;
    if (dimension !== undefined && queryVector!.length !== dimension)
      throw embedderError(
        `the query's vector has ${queryVector!.length} dimensions, the tools' ${dimension}`,
      );
    const unitQuery = normalized(queryVector!);
    return tools
      .map((vector, tool) => ({ tool, similarity: dot(unitQuery, vector) }))
      .sort((a, b) => b.similarity - a.similarity || a.tool - b.tool);
  }

  /** The tools' vectors, computed once; a failure is not kept, so the next search tries again (the embedder may have been down for a moment). */
  #toolVectorsOnce(signal: AbortSignal | undefined): Promise<Float64Array[]> {
    if (this.#vectors) return this.#vectors;
    const vectors = this.#toolVectors(signal);
    this.#vectors = vectors;
    vectors.catch(() => {
      if (this.#vectors === vectors) this.#vectors = undefined;
    });
    return vectors;
  }

  async #toolVectors(signal: AbortSignal | undefined): Promise<Float64Array[]> {
    const digests = await Promise.all(this.#tools.map(toolEmbeddingDigest));
    const vectors: (number[] | undefined)[] = await Promise.all(
      digests.map((digest) => this.#cache.get(digest)),
    );
    const missing: number[] = [];
    vectors.forEach((vector, tool) => {
      if (vector === undefined) missing.push(tool);
    });
    if (missing.length > 0) {
      const embedded = checkVectors(
        await this.#embed(
          missing.map((tool) => toolEmbeddingText(this.#tools[tool]!)),
          signal ? { signal } : undefined,
        ),
        missing.length,
      );
      await Promise.all(
        missing.map(async (tool, order) => {
          vectors[tool] = embedded[order]!;
          await this.#cache.set(digests[tool]!, embedded[order]!);
        }),
      );
    }
    const all = checkVectors(vectors as number[][], this.#tools.length);
    return all.map(normalized);
  }
}

/** The embedder's answer checked: `count` vectors of one length, every value a finite number. */
function checkVectors(vectors: unknown, count: number): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count)
    throw embedderError(
      `it answered ${Array.isArray(vectors) ? `${vectors.length} vectors` : typeof vectors} for ${count} texts`,
    );
  let dimension: number | undefined;
  for (const vector of vectors) {
    if (!Array.isArray(vector) || vector.length === 0)
      throw embedderError("a vector is not a non-empty array of numbers");
    dimension ??= vector.length;
    if (vector.length !== dimension)
      throw embedderError(`its vectors have ${dimension} and ${vector.length} dimensions`);
    for (const value of vector)
      if (typeof value !== "number" || !Number.isFinite(value))
        throw embedderError(`a vector holds ${String(value)}, not a finite number`);
  }
  return vectors as number[][];
}

function embedderError(what: string): JunctionError {
  return new JunctionError("tool-execution-failed", `The tool search's embedder answered wrongly: ${what}.`);
}

function normalized(vector: readonly number[]): Float64Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  const unit = new Float64Array(vector.length);
  if (norm > 0) for (let index = 0; index < vector.length; index++) unit[index] = vector[index]! / norm;
  return unit;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

/**
 * How a tool search fuses its lexical and its dense ranking: `"rrf"`, reciprocal rank fusion
 * ({@link DENSE_RRF_K}: ranks only), or `"mix"`, a convex combination of the two scores, each
 * min-max normalised over the candidates (the two rankings' first 50 tools): `(1 − w) ·
 * (relevance − least) / (most − least) + w · (similarity − least) / (most − least)`, `w` the mix
 * weight ({@link DEFAULT_MIX_WEIGHT}). (Each over its theoretical range instead, TM2C2 of Bruch,
 * Gai and Ingber, TOIS 2023, was the mix until issue 37: min-max did better on the tuning sets.)
 */
export type ToolSearchFusion = "rrf" | "mix";

/**
 * The dense ranking's weight in the `"mix"` fusion, chosen on the tuning sets with
 * all-MiniLM-L6-v2 (bench/src/tune-tool-search-recall.ts; see core's README, "Tool search").
 */
export const DEFAULT_MIX_WEIGHT = 0.6;

/**
 * The best `limit` tools for `query` by the lexical ranking (`index`) and the dense one (`dense`)
 * fused by `fusion` ({@link ToolSearchFusion}; reciprocal rank fusion, {@link DENSE_RRF_K}, by
 * default), each ranking counted to its 50th tool. Each hit keeps its lexical `relevance` (0 for a
 * tool only the dense ranking found) and gets its cosine `similarity`; `score` is the fused score.
 * `bestRelevance` is the lexical ranking's best (so "nothing fits" is judged on words as without
 * an embedder), `bestSimilarity` the dense one's. Throws what {@link DenseToolIndex.rank} throws.
 */
export async function fusedSearch(parts: {
  index: ToolIndex;
  dense: DenseToolIndex;
  query: string;
  limit: number;
  signal?: AbortSignal;
  /** @default "rrf" */
  fusion?: ToolSearchFusion;
  /** With `"rrf"`: how much the dense ranking's reciprocal ranks count against the lexical one's (1). @default 1 */
  denseWeight?: number;
  /** With `"mix"`: the dense score's weight, from 0 (words only) to 1 (meaning only). @default DEFAULT_MIX_WEIGHT */
  mixWeight?: number;
}): Promise<{ hits: ToolSearchHit[]; bestRelevance: number; bestSimilarity: number }> {
  const { index, dense } = parts;
  const denseRanking = await dense.rank(parts.query, parts.signal);
  const lexical = index.search(parts.query, FUSION_DEPTH);
  const tools = index.tools;
  const similarityOf = new Map<number, number>();
  for (const { tool, similarity } of denseRanking) similarityOf.set(tool, similarity);
  const orderOf = new Map(tools.map((tool, order) => [tool.definition, order]));
  const bestRelevance = lexical.reduce((best, hit) => Math.max(best, hit.relevance), 0);
  const bestSimilarity = denseRanking[0]?.similarity ?? 0;
  const fused = new Map<number, { tool: number; score: number; relevance: number; lexicalRank: number }>();
  lexical.forEach((hit, rank) => {
    const tool = orderOf.get(hit.definition)!;
    fused.set(tool, { tool, score: 0, relevance: hit.relevance, lexicalRank: rank });
  });
  for (const { tool } of denseRanking.slice(0, FUSION_DEPTH))
    if (!fused.has(tool))
      fused.set(tool, { tool, score: 0, relevance: 0, lexicalRank: Number.POSITIVE_INFINITY });
  if ((parts.fusion ?? "rrf") === "mix") {
    const weight = parts.mixWeight ?? DEFAULT_MIX_WEIGHT;
    const entries = [...fused.values()];
    const lexicalPart = minMax(entries.map((entry) => entry.relevance));
    const densePart = minMax(entries.map((entry) => similarityOf.get(entry.tool)!));
    entries.forEach((entry, order) => {
      entry.score = (1 - weight) * lexicalPart(order) + weight * densePart(order);
    });
  } else {
    lexical.forEach((hit, rank) => {
      fused.get(orderOf.get(hit.definition)!)!.score += 1 / (DENSE_RRF_K + rank + 1);
    });
    denseRanking.slice(0, FUSION_DEPTH).forEach(({ tool }, rank) => {
      fused.get(tool)!.score += (parts.denseWeight ?? 1) / (DENSE_RRF_K + rank + 1);
    });
  }
  // A tool the request names exactly stays first, as in the lexical ranking.
  const named = new Set(index.namedTools(parts.query).map((definition) => orderOf.get(definition)!));
  const hits = [...fused.values()]
    .sort(
      (a, b) =>
        Number(named.has(b.tool)) - Number(named.has(a.tool)) ||
        b.score - a.score ||
        a.lexicalRank - b.lexicalRank ||
        a.tool - b.tool,
    )
    .slice(0, parts.limit)
    .map(({ tool, score, relevance }) => ({
      definition: tools[tool]!.definition,
      score,
      relevance,
      similarity: similarityOf.get(tool)!,
    }));
  return { hits, bestRelevance, bestSimilarity };
}

/** Each value's place between the least and the most of `values`, 0 to 1 (1 for all when they are equal). */
function minMax(values: readonly number[]): (order: number) => number {
  const least = Math.min(...values);
  const span = Math.max(...values) - least;
  return (order) => (span > 0 ? (values[order]! - least) / span : 1);
}

/** The warning a failed embedder gives (once per Agent): the search goes on with the lexical ranking. */
export function embedderFailedWarning(error: unknown): Warning {
  const said = errorMessage(error);
  const reason = /[.!?]$/.test(said) ? said : `${said}.`;
  return {
    code: "tool-search-embedder-failed",
    message:
      `The tool search's embedder (toolSearch.embed) failed, so the search ranked tools by their words alone: ${reason} ` +
      "Check the embedder's key and model, or leave toolSearch.embed unset.",
  };
}
