/**
 * How a tool search reads text, the same for the index and for a query: accents folded (NFKD,
 * marks dropped: "café" meets "cafe"), words split on case changes (a brand-like word such as
 * "GitHub" kept whole as well) and on anything that is not a
 * letter or a digit of any script, lower case, stop words left out, plurals and `-ing` / `-ed`
 * endings of Latin words folded, so "files" and "listing" meet "file" and "list". Han, kana and
 * Hangul runs, written without spaces, become overlapping two-character terms ("天气预报" →
 * "天气", "气预", "预报"), so a query meets a description in any wording. (Porter's stemmer,
 * from the `stemmer` package, was measured instead and ranked worse on both benchmark task sets.)
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  const folded = text.normalize("NFKD").replace(/\p{M}+/gu, "");
  const words = folded
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  // A word written with a case change inside ("GitHub", "YouTube") is also kept whole, so that
  // "github" in a request meets it; its parts still meet "git" or "hub".
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (/^\p{Lu}\p{Ll}+\p{Lu}\p{Ll}+$/u.test(word)) words.push(word.toLowerCase());
  }
  for (const word of words) {
    if (word.length === 0) continue;
    if (!CJK.test(word)) {
      if (word.length > 1 && !STOP_WORDS.has(word)) terms.push(searchTerm(word));
      continue;
    }
    // A word mixing scripts ("mcp服务器"): each run apart, the CJK ones as bigrams.
    for (const run of word.match(CJK_RUNS) ?? []) {
      if (!CJK.test(run)) {
        if (run.length > 1 && !STOP_WORDS.has(run)) terms.push(searchTerm(run));
        continue;
      }
      const characters = [...run];
      if (characters.length === 1) terms.push(run);
      for (let index = 0; index + 1 < characters.length; index++) {
        terms.push(characters[index]! + characters[index + 1]!);
      }
    }
  }
  return terms;
}

/** One lower-case word as the search keeps it: a light stem for words of Latin letters. */
export function searchTerm(word: string): string {
  if (!/^[a-z0-9]+$/.test(word)) return word;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("es") && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

const CJK_CLASS = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}";
const CJK = new RegExp(`[${CJK_CLASS}]`, "u");
const CJK_RUNS = new RegExp(`[${CJK_CLASS}]+|[^${CJK_CLASS}]+`, "gu");

const STOP_WORDS = new Set(
  "a an and are as at be by for from in into is it of on or that the this to with you your can will do does i me my".split(
    " ",
  ),
);
