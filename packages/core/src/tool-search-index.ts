import type { ToolDefinition } from "@junction/types";
import { searchTerms } from "./tool-search-terms.js";
import { ACTION_TERMS, RELATED_WORD_WEIGHT, weightedQueryTerms } from "./tool-search-thesaurus.js";

/** Where a tool comes from: the source's short name and what it says about itself. */
export interface ToolSourceInfo {
  name: string;
  /** What the source says it is for (an MCP server's description or title). */
  description?: string;
  /** The source's instructions for the model (an MCP server's `instructions`). */
  instructions?: string;
}

/** A tool as the search indexes it: its definition and, for an MCP tool, its source. */
export interface SearchableTool {
  definition: ToolDefinition;
  source?: ToolSourceInfo;
}

/** One tool a search found. */
export interface ToolSearchHit {
  definition: ToolDefinition;
  /**
   * The BM25 score (fused over a request's parts), or with an embedder the reciprocal rank fusion
   * score of the lexical and the dense ranking: only comparable within one search.
   */
  score: number;
  /**
   * How well the tool fits the request, 0 to 1: its BM25 score over the largest score a tool
   * could get from the request's most telling words (`relevanceTerms`, 2 by default: the rarest
   * among the tools, a word no tool has counting as the rarest; a word of what a tool does, such
   * as "send" or "list", counting half), capped at 1. With `split`, the part it answers best.
   */
  relevance: number;
  /** With an embedder (`toolSearch.embed`): the cosine similarity of the tool's vector and the request's. */
  similarity?: number;
}

/** Knobs of the ranking, measured on the tuning sets (`bench/src/tune-tool-search.ts`). */
export interface ToolIndexSettings {
  /** Weight of a word by where it appears in the tool's definition. */
  fields: {
    name: number;
    title: number;
    parameters: number;
    parameterDescriptions: number;
    description: number;
  };
  /** Weight of the source's own BM25 score (over its name, description and instructions) in its tools' scores. */
  source: number;
  /**
   * Split a request asking for several things and merge the parts' rankings: `"rrf"` reciprocal
   * rank fusion, `"round-robin"` each part's best tool in turn, `"max"` each tool's best score
   * over its part's top score. `false`: the request is searched whole.
   */
  split: false | "rrf" | "round-robin" | "max";
  /** With `split`, the whole request's ranking is merged as one more part (the first). */
  splitKeepsWhole: boolean;
  /** With `split`, a part whose best tool's relevance is under this is left out of the merge. */
  splitMinRelevance: number;
  /**
   * How much a request's word that no tool has counts in a hit's largest possible score, against
   * the rarest word a tool has (a word only one tool has): a city or a file name in a request says
   * the tools may not fit, but is not a reason to load nothing. The same at any number of tools.
   */
  unknownWeight: number;
  /** `coverage`: share of the request's words the tool has; `score`: its score over the request's largest possible. */
  relevance: "coverage" | "score";
  /**
   * How many of the request's words (the most telling: the rarest among the tools, a word no tool
   * has counting as the rarest) its largest possible score counts, for `relevance: "score"`: a
   * request names what it wants in a few words, and the rest (names, numbers, places, further
   * asks) must not make a long request look weak. `Infinity`: every word.
   */
  relevanceTerms: number;
  /** How much a word of what a tool does ({@link ACTION_TERMS}) counts in relevance, against other words (1). */
  actionWeight: number;
  /**
   * One pass of pseudo-relevance feedback: the request is widened with the `terms` most telling
   * words of its first ranking's best `documents` tools (each word weighted by its BM25 weight in
   * them, the best at `weight`), and the tools ranked again. Relevance (and so "nothing fits")
   * stays the first pass's, on the request's own words. `false`: one pass. Measured on the tuning
   * sets (issue 37) at 1 to 5 tools, 5 to 20 words, weight 0.1 to 0.5, alone and with parameter
   * descriptions weighted: each lowered recall@5 on the old sets' answers as loaded (0.908 to
   * 0.894), so it is off.
   */
  feedback: false | { documents: number; terms: number; weight: number };
  /**
   * The weight the word "file" gets in a request that names a file (a path, or a name with a
   * file's extension: `notes/todo.md`, `/root/report.docx`, `config.yaml`) without saying "file":
   * such a request is about a file, and a file tool says so in its words. 0: off.
   */
  fileHint: number;
}

/** The settings the search ships with (chosen on the tuning sets; see the README's tool-search section). */
export const TOOL_INDEX_SETTINGS: ToolIndexSettings = {
  fields: { name: 3, title: 2, parameters: 1.5, parameterDescriptions: 0, description: 1 },
  source: 0.5,
  split: false,
  splitKeepsWhole: false,
  splitMinRelevance: 0,
  // BM25's IDF of a word no tool has, over that of a word one tool has, on the 250 and 527 tools
  // the thresholds were tuned on (1.21, 1.19): they keep their meaning there, and on fewer tools.
  unknownWeight: 1.2,
  relevance: "score",
  relevanceTerms: 2,
  actionWeight: 0.5,
  feedback: false,
  // Chosen on the tuning sets (issue 37, bench/src/tune-tool-search-recall.ts): 0.3 to 2 tried.
  fileHint: 1,
};

// BM25's usual constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;
// Reciprocal rank fusion's constant (Cormack et al.): how fast a lower rank stops counting.
const RRF_K = 60;

/** A BM25 field index over documents given as weighted term frequencies. */
class BM25 {
  readonly #postings = new Map<string, { document: number; frequency: number }[]>();
  readonly #lengths: number[] = [];
  readonly #averageLength: number;

  constructor(documents: readonly Map<string, number>[]) {
    let total = 0;
    documents.forEach((frequencies, document) => {
      let length = 0;
      for (const [term, frequency] of frequencies) {
        length += frequency;
        let list = this.#postings.get(term);
        if (!list) {
          list = [];
          this.#postings.set(term, list);
        }
        list.push({ document, frequency });
      }
      this.#lengths.push(length);
      total += length;
    });
    this.#averageLength = documents.length > 0 ? Math.max(1, total / documents.length) : 1;
  }

  get size(): number {
    return this.#lengths.length;
  }

  /** How rare `term` is: BM25's IDF, the largest for a term no document has. */
  idf(term: string): number {
    return this.idfOf(this.#postings.get(term)?.length ?? 0);
  }

  /** BM25's IDF of a term `documents` documents have. */
  idfOf(documents: number): number {
    return Math.log(1 + (this.size - documents + 0.5) / (documents + 0.5));
  }

  has(document: number, term: string): boolean {
    return this.#postings.get(term)?.some((posting) => posting.document === document) ?? false;
  }

  /** Adds each document's score for the weighted `terms` into `scores`. */
  score(terms: ReadonlyMap<string, number>, scores: Float64Array, factor = 1): void {
    for (const [term, weight] of terms) {
      const list = this.#postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const { document, frequency } of list) {
        const norm = K1 * (1 - B + (B * this.#lengths[document]!) / this.#averageLength);
        scores[document]! += (factor * weight * idf * frequency * (K1 + 1)) / (frequency + norm);
      }
    }
  }
}

/**
 * A BM25 index over tools: each tool's name, title, description, parameter names and parameter
 * descriptions (fields weighted by {@link ToolIndexSettings}), and its source's name, description
 * and instructions scored as a document of their own and added to each of its tools' scores.
 */
export class ToolIndex {
  readonly #tools: SearchableTool[];
  readonly #settings: ToolIndexSettings;
  readonly #toolIndex: BM25;
  readonly #sourceIndex: BM25;
  /** Each tool's source, as an index into the source documents (-1: none). */
  readonly #sourceOf: Int32Array;
  /** Each tool's terms with those of its source, for a hit's relevance. */
  readonly #vocabulary: Set<string>[];
  /** Each tool's name in lower case, for a request that names one. */
  readonly #names: string[];
  /** Each tool's weighted term frequencies, for a feedback pass. */
  readonly #documents: Map<string, number>[];

  constructor(tools: readonly (ToolDefinition | SearchableTool)[], settings = TOOL_INDEX_SETTINGS) {
    this.#settings = settings;
    this.#tools = tools.map((tool) => ("definition" in tool ? tool : { definition: tool }));
    this.#names = this.#tools.map(({ definition }) => definition.name.toLowerCase());
    const weights = settings.fields;
    const sources = new Map<string, number>();
    const sourceDocuments: Map<string, number>[] = [];
    const sourceTerms: Set<string>[] = [];
    this.#sourceOf = new Int32Array(this.#tools.length).fill(-1);
    const documents = this.#tools.map(({ definition, source }, order) => {
      const frequencies = new Map<string, number>();
      const add = (text: unknown, weight: number) => addTerms(frequencies, text, weight);
      add(definition.name, weights.name);
      add(definition.annotations?.title, weights.title);
      const parameters = parametersOf(definition);
      add(parameters.map(([name]) => name).join(" "), weights.parameters);
      add(parameters.map(([, description]) => description).join(" "), weights.parameterDescriptions);
      add(definition.description, weights.description);
      if (source) {
        let number = sources.get(source.name);
        if (number === undefined) {
          number = sourceDocuments.length;
          sources.set(source.name, number);
          const sourceFrequencies = new Map<string, number>();
          addTerms(sourceFrequencies, source.name, 1);
          addTerms(sourceFrequencies, source.description, 1);
          addTerms(sourceFrequencies, source.instructions, 1);
          sourceDocuments.push(sourceFrequencies);
          sourceTerms.push(new Set(sourceFrequencies.keys()));
        }
        this.#sourceOf[order] = number;
      }
      return frequencies;
    });
    this.#documents = documents;
    this.#toolIndex = new BM25(documents);
    this.#sourceIndex = new BM25(sourceDocuments);
    this.#vocabulary = documents.map((frequencies, order) => {
      const terms = new Set(frequencies.keys());
      const source = this.#sourceOf[order]!;
      if (source >= 0) for (const term of sourceTerms[source]!) terms.add(term);
      return terms;
    });
  }

  /** The IDF of a word no tool has. */
  get #unknownIdf(): number {
    return this.#toolIndex.idf("\0");
  }

  get #unknownSourceIdf(): number {
    return this.#sourceIndex.idf("\0");
  }

  /** How many tools it holds. */
  get size(): number {
    return this.#tools.length;
  }

  /** The tools it holds, in the order it was given them. */
  get tools(): readonly SearchableTool[] {
    return this.#tools;
  }

  /**
   * The best `limit` tools for `query`, best first; tools that share no word with it are left
   * out. A tool the request names exactly (see {@link ToolIndex.namedTools}) comes first, with a
   * relevance of 1. A request asking for several things ("… and then …") is searched part by part and the
   * rankings fused, so each part's best tools come near the top.
   */
  search(query: string, limit: number): ToolSearchHit[] {
    const named = this.#namedTools(query);
    if (named.length === 0) return this.#searchWords(query, limit);
    // A tool the request names exactly comes first, whatever its words score: the model (or the
    // person) knows what it wants.
    const ranked = this.#searchWords(query, limit + named.length);
    const scoreOf = new Map(ranked.map((hit) => [hit.definition, hit.score]));
    // Whole names before prefixed ones (`create_issue` before `github_create_issue`), each by score.
    const first = named
      .map((tool, order) => ({ definition: this.#tools[tool]!.definition, whole: order < named.whole }))
      .sort(
        (a, b) =>
          Number(b.whole) - Number(a.whole) ||
          (scoreOf.get(b.definition) ?? 0) - (scoreOf.get(a.definition) ?? 0),
      )
      .map(({ definition }) => ({ definition, score: scoreOf.get(definition) ?? 0, relevance: 1 }));
    const firstSet = new Set(first.map((hit) => hit.definition));
    return [...first, ...ranked.filter((hit) => !firstSet.has(hit.definition))].slice(0, limit);
  }

  /**
   * The tools a request names exactly, whole names first: a word of it written as a name of
   * several parts (`create_issue`, `createIssue`; case aside, quotes and backticks around it left
   * out) that is a tool's whole name, or the end of a tool's name after a prefix and a separator
   * (`github_create_issue`).
   */
  namedTools(query: string): ToolDefinition[] {
    return this.#namedTools(query).map((tool) => this.#tools[tool]!.definition);
  }

  #namedTools(query: string): number[] & { whole: number } {
    // Only a word written as a name (in parts: `create_issue`, `createIssue`) names a tool: a
    // tool called "search" or "fetch" is not named by a request that says "search" or "fetch",
    // nor one ending in "_github" by "GitHub".
    const words = new Set(
      query
        .split(/[^\p{L}\p{N}_.\-/:]+/u)
        .map((word) => word.replace(/^[.\-/:]+|[.\-/:]+$/g, ""))
        .filter((word) => SEPARATOR.test(word) || /^\p{Ll}+\p{Lu}/u.test(word))
        .map((word) => word.toLowerCase()),
    );
    if (words.size === 0) return Object.assign([], { whole: 0 });
    const whole: number[] = [];
    const prefixed: number[] = [];
    this.#names.forEach((name, tool) => {
      if (words.has(name)) {
        whole.push(tool);
        return;
      }
      for (const word of words) {
        const separator = name[name.length - word.length - 1];
        if (
          name.length > word.length &&
          name.endsWith(word) &&
          separator !== undefined &&
          SEPARATOR.test(separator)
        ) {
          prefixed.push(tool);
          return;
        }
      }
    });
    return Object.assign([...whole, ...prefixed], { whole: whole.length });
  }

  #searchWords(query: string, limit: number): ToolSearchHit[] {
    const split = this.#settings.split;
    const parts = split === false ? [] : requestParts(query);
    const whole = this.#rank(query);
    if (split === false || parts.length < 2) return this.#hits(whole.slice(0, limit));
    // The parts that match something well enough, the best matched first.
    const partRankings = parts
      .map((part) => this.#rank(part))
      .filter((ranking) => (ranking[0]?.relevance ?? 0) >= this.#settings.splitMinRelevance)
      .sort((a, b) => b[0]!.relevance - a[0]!.relevance);
    const rankings = [...(this.#settings.splitKeepsWhole ? [whole] : []), ...partRankings];
    if (rankings.length === 0) return this.#hits(whole.slice(0, limit));
    const byTool = new Map<number, { tool: number; score: number; relevance: number }>();
    const relevanceOf = new Map<number, number>();
    for (const ranking of rankings)
      for (const hit of ranking)
        relevanceOf.set(hit.tool, Math.max(relevanceOf.get(hit.tool) ?? 0, hit.relevance));
    if (split === "round-robin") {
      // Each part's best tool, then each part's second, …: every part gets a place near the top.
      const order: { tool: number; score: number; relevance: number }[] = [];
      const depth = Math.max(...rankings.map((ranking) => ranking.length));
      for (let rank = 0; rank < depth && order.length < limit; rank++) {
        for (const ranking of rankings) {
          const hit = ranking[rank];
          if (!hit || byTool.has(hit.tool)) continue;
          const entry = {
            tool: hit.tool,
            score: 1 / (RRF_K + rank + 1),
            relevance: relevanceOf.get(hit.tool)!,
          };
          byTool.set(hit.tool, entry);
          order.push(entry);
        }
      }
      return this.#hits(order.slice(0, limit));
    }
    for (const ranking of rankings) {
      ranking.forEach((hit, rank) => {
        const entry = byTool.get(hit.tool) ?? {
          tool: hit.tool,
          score: 0,
          relevance: relevanceOf.get(hit.tool)!,
        };
        if (split === "max") entry.score = Math.max(entry.score, hit.score / ranking[0]!.score);
        else entry.score += 1 / (RRF_K + rank + 1);
        byTool.set(hit.tool, entry);
      });
    }
    return this.#hits(
      [...byTool.values()].sort((a, b) => b.score - a.score || a.tool - b.tool).slice(0, limit),
    );
  }

  #hits(ranked: readonly { tool: number; score: number; relevance: number }[]): ToolSearchHit[] {
    return ranked.map(({ tool, score, relevance }) => ({
      definition: this.#tools[tool]!.definition,
      score,
      relevance,
    }));
  }

  /** Each tool's score for the weighted `terms`, its source's added. */
  #scores(terms: ReadonlyMap<string, number>): Float64Array {
    const scores = new Float64Array(this.#tools.length);
    this.#toolIndex.score(terms, scores);
    if (this.#settings.source > 0 && this.#sourceIndex.size > 0) {
      const sourceScores = new Float64Array(this.#sourceIndex.size);
      this.#sourceIndex.score(terms, sourceScores);
      for (let tool = 0; tool < scores.length; tool++) {
        const source = this.#sourceOf[tool]!;
        if (source >= 0 && scores[tool]! > 0) scores[tool]! += this.#settings.source * sourceScores[source]!;
      }
    }
    return scores;
  }

  /** The request's terms widened by one feedback pass over the best tools of `scores` (see {@link ToolIndexSettings.feedback}). */
  #widened(terms: ReadonlyMap<string, number>, scores: Float64Array): Map<string, number> | undefined {
    const feedback = this.#settings.feedback;
    if (feedback === false) return undefined;
    const best: number[] = [];
    scores.forEach((score, tool) => {
      if (score > 0) best.push(tool);
    });
    best.sort((a, b) => scores[b]! - scores[a]! || a - b);
    if (best.length === 0) return undefined;
    const weights = new Map<string, number>();
    for (const tool of best.slice(0, feedback.documents)) {
      const document = this.#documents[tool]!;
      let length = 0;
      for (const frequency of document.values()) length += frequency;
      for (const [term, frequency] of document) {
        if (terms.has(term)) continue;
        weights.set(term, (weights.get(term) ?? 0) + (frequency / length) * this.#toolIndex.idf(term));
      }
    }
    const chosen = [...weights]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, feedback.terms);
    if (chosen.length === 0) return undefined;
    const top = chosen[0]![1];
    const widened = new Map(terms);
    for (const [term, weight] of chosen) widened.set(term, (feedback.weight * weight) / top);
    return widened;
  }

  #rank(query: string): { tool: number; score: number; relevance: number }[] {
    const own = searchTerms(query);
    const terms = weightedQueryTerms(own);
    if (this.#settings.fileHint > 0 && !terms.has(FILE_TERM) && namesAFile(query))
      terms.set(FILE_TERM, this.#settings.fileHint);
    const first = this.#scores(terms);
    const widened = this.#widened(terms, first);
    const scores = widened ? this.#scores(widened) : first;
    const ranked: { tool: number; score: number; firstScore: number }[] = [];
    scores.forEach((score, tool) => {
      if (score > 0) ranked.push({ tool, score, firstScore: first[tool]! });
    });
    ranked.sort((a, b) => b.score - a.score || a.tool - b.tool);
    if (this.#settings.relevance === "score") {
      const contributions: number[] = [];
      // A word no tool has counts as `unknownWeight` times the rarest word a tool can have (one
      // tool's), not as BM25's IDF of a word no document has: that IDF grows against the rarest
      // known word's as the tools get fewer (×1.2 on 250 tools, ×2.1 on 3), and on a handful of
      // tools it would make the one obvious tool look like a poor fit.
      const rarest = this.#toolIndex.idfOf(1);
      for (const term of new Set(own)) {
        const known = this.#toolIndex.idf(term) < this.#unknownIdf;
        contributions.push(
          (K1 + 1) *
            (known ? this.#toolIndex.idf(term) : rarest * this.#settings.unknownWeight) *
            (ACTION_TERMS.has(term) ? this.#settings.actionWeight : 1),
        );
      }
      contributions.sort((a, b) => b - a);
      let possible = 0;
      for (const contribution of contributions.slice(0, this.#settings.relevanceTerms))
        possible += contribution;
      return ranked.map(({ tool, score, firstScore }) => ({
        tool,
        score,
        relevance: possible > 0 ? Math.min(1, firstScore / possible) : 0,
      }));
    }
    return ranked.map(({ tool, score }) => ({ tool, score, relevance: this.#relevance(tool, own) }));
  }

  /** The IDF-weighted share of the query's own words the tool (with its source) has; see {@link ToolSearchHit.relevance}. */
  #relevance(tool: number, own: readonly string[]): number {
    const vocabulary = this.#vocabulary[tool]!;
    let total = 0;
    let matched = 0;
    for (const term of new Set(own)) {
      const known =
        this.#toolIndex.idf(term) < this.#unknownIdf || this.#sourceIndex.idf(term) < this.#unknownSourceIdf;
      const idf =
        (known ? this.#toolIndex.idf(term) : this.#toolIndex.idfOf(1) * this.#settings.unknownWeight) *
        (ACTION_TERMS.has(term) ? this.#settings.actionWeight : 1);
      total += idf;
      if (vocabulary.has(term)) {
        matched += idf;
        continue;
      }
      const related = weightedQueryTerms([term]);
      for (const [word, weight] of related) {
        if (word !== term && weight < 1 && vocabulary.has(word)) {
          matched += idf * RELATED_WORD_WEIGHT;
          break;
        }
      }
    }
    return total > 0 ? matched / total : 0;
  }
}

/**
 * A request's parts when it asks for several things: split at sentence ends, semicolons, "and
 * then" / "then" / "after that", and at "and" or a comma between clauses (a part keeps at least
 * two words, else it stays with its neighbour). One part when it asks for one thing.
 */
export function requestParts(query: string): string[] {
  const pieces = query
    .split(
      /(?:[.!?;。！？；\n]+\s*|\s*,?\s+(?:and then|and also|then|after that|afterwards|also|finally|plus)\s+|\s*,?\s+and\s+|,\s+)/iu,
    )
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
  const parts: string[] = [];
  for (const piece of pieces) {
    if (parts.length > 0 && searchTerms(piece).length < 2) parts[parts.length - 1] += ` ${piece}`;
    else parts.push(piece);
  }
  if (parts.length > 1 && searchTerms(parts[0]!).length < 2) {
    const first = parts.shift()!;
    parts[0] = `${first} ${parts[0]}`;
  }
  return parts.length > 0 ? parts : [query];
}

const FILE_TERM = "file";

/**
 * Whether a request names a file: a path from a root, a home or the current folder of two parts
 * or more (`/root/figs`, `~/data/x`, `./src/a`), a relative one of three (`src/lib/parts`), a
 * Windows one (`C:\\reports`), or a name ending in a dot and a file's extension of 2 to 5 letters
 * or digits that is not a web address's (`config.yaml`, `notes/todo.md`; not `example.com`,
 * `www.site.org`, `e.g.`). A web address (`https://…`) names no file.
 */
export function namesAFile(query: string): boolean {
  for (const word of query.split(/[\s"'`()[\]{}<>,;]+/)) {
    const bare = word.replace(/[.!?:]+$/, "");
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(bare) || /^www\./i.test(bare)) continue;
    if (/^[A-Za-z]:\\/.test(bare)) return true;
    if (/^(?:~|\.{1,2})?\/[\w.-]+\/[\w.-]+/.test(bare) || /^[\w.-]+\/[\w.-]+\/[\w.-]+/.test(bare))
      return true;
    const extension = /^[\w./-]*[\w-]\.([A-Za-z][A-Za-z0-9]{1,4})$/.exec(bare)?.[1];
    if (extension && !WEB_ENDINGS.has(extension.toLowerCase())) return true;
  }
  return false;
}

/** Endings of a web address, not of a file name. */
const WEB_ENDINGS = new Set("com org net io dev ai app co edu gov uk de fr cn jp us info biz me".split(" "));

/** What separates the parts of a tool's name, and its prefix from the rest. */
const SEPARATOR = /[_.\-/:]/;

function addTerms(frequencies: Map<string, number>, text: unknown, weight: number): void {
  if (typeof text !== "string" || weight <= 0) return;
  for (const term of searchTerms(text)) frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
}

/** The input schema's top-level parameters: name and description. */
function parametersOf(definition: ToolDefinition): [string, string][] {
  const properties = (definition.inputSchema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.entries(properties as Record<string, unknown>).map(([name, schema]) => {
    const description = (schema as { description?: unknown } | null)?.description;
    return [name, typeof description === "string" ? description : ""];
  });
}
