/**
 * How a tool search reads text, the same for the index and for a query: words split on case
 * changes, digits, `_`, `-`, `.` and spaces, lower case, stop words left out, plurals and `-ing`
 * / `-ed` endings folded, so "files" and "listing" meet "file" and "list". (Porter's stemmer, from
 * the `stemmer` package, was measured instead and ranked worse on both benchmark task sets.)
 */
export function searchTerms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map(searchTerm);
}

/** One lower-case word as the search keeps it: a light stem. */
export function searchTerm(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("es") && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

const STOP_WORDS = new Set(
  "a an and are as at be by for from in into is it of on or that the this to with you your can will do does i me my".split(
    " ",
  ),
);
