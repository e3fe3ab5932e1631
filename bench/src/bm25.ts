// Plain BM25 over tool names and descriptions, the textbook way, as the baseline a tool search must
// beat: one document per tool (its name and description), no thesaurus, no stemming, no stop words,
// no parameters; k1 = 1.2, b = 0.75, IDF log(1 + (N − n + 0.5) / (n + 0.5)).

/** Lower-case words (letters and digits of any script), camelCase split; `_`, `-`, `.` separate. */
export function bm25Tokenize(text: string): string[] {
  return (
    text
      .replace(/([a-z\d])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A BM25 index over documents named by `name`. */
export interface BM25Index {
  /** The names of the documents scoring above 0, best first (ties in document order), at most `limit`. */
  search(query: string, limit: number): string[];
}

/** Builds the index: `documents` are `{ name, text }`, `text` what is indexed. */
export function createBM25Index(
  documents: readonly { name: string; text: string }[],
  options: { k1?: number; b?: number } = {},
): BM25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const termCounts = documents.map((document) => {
    const counts = new Map<string, number>();
    for (const term of bm25Tokenize(document.text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const lengths = termCounts.map((counts) => [...counts.values()].reduce((sum, count) => sum + count, 0));
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / (documents.length || 1);
  const documentFrequency = new Map<string, number>();
  for (const counts of termCounts)
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const total = documents.length;
  const idf = (term: string) => {
    const n = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (total - n + 0.5) / (n + 0.5));
  };
  return {
    search(query, limit) {
      const terms = [...new Set(bm25Tokenize(query))].filter((term) => documentFrequency.has(term));
      const scored = termCounts.map((counts, index) => {
        let score = 0;
        const length = lengths[index] ?? 0;
        for (const term of terms) {
          const frequency = counts.get(term) ?? 0;
          if (frequency === 0) continue;
          score +=
            (idf(term) * (frequency * (k1 + 1))) / (frequency + k1 * (1 - b + (b * length) / averageLength));
        }
        return { index, score };
      });
      return scored
        .filter((entry) => entry.score > 0)
        .sort((x, y) => y.score - x.score || x.index - y.index)
        .slice(0, limit)
        .map((entry) => documents[entry.index]?.name ?? "");
    },
  };
}
