import { searchTerm } from "./tool-search-terms.js";

/**
 * The words a person uses for what tools do, against the words tools are named with: "save" for
 * write, "folder" for directory, "remove" for delete, "PR" for pull request. A query's words are
 * widened with their group's other words at a lower weight, so a tool named the tool's way still
 * ranks first when the query says it that way. Pure data and one pure function.
 */

/** Words that stand for one another in a tool search. A word may be in several groups. */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // What a tool does.
  ["create", "make", "new", "add", "start", "generate", "build", "open", "insert"],
  ["read", "get", "show", "view", "open", "load", "display", "fetch", "retrieve", "print", "dump", "content"],
  ["write", "save", "store", "put", "persist"],
  ["update", "edit", "change", "modify", "patch", "alter", "set"],
  ["delete", "remove", "drop", "erase", "destroy", "forget", "uninstall", "clear"],
  ["list", "enumerate", "all"],
  ["search", "find", "query", "lookup", "look", "locate", "seek"],
  ["navigate", "go", "visit", "browse", "url"],
  ["run", "execute", "exec", "invoke", "launch"],
  ["move", "rename", "relocate"],
  ["roll", "rollout", "rollback", "revert", "undo"],
  ["copy", "duplicate", "clone", "fork"],
  ["compress", "gzip", "zip"],
  // What a tool works on.
  ["directory", "folder", "dir"],
  ["size", "big", "large", "space", "storage", "bytes"],
  ["image", "picture", "photo", "png", "jpg", "jpeg", "media"],
  ["relation", "link", "relationship", "connection"],
  ["status", "state", "progress", "passed", "finished", "done", "check"],
  ["multiple", "many", "several", "together", "batch", "bulk"],
  ["log", "logging", "console"],
  ["comment", "reply"],
  ["screenshot", "capture", "snapshot"],
  ["error", "exception", "crash", "bug", "issue"],
  ["user", "account", "member", "people"],
  ["document", "doc", "documentation"],
  ["repository", "repo"],
  ["database", "db"],
  ["kubernetes", "k8s", "kube", "cluster"],
  ["environment", "env"],
  ["configuration", "config", "setting"],
];

/**
 * Words of what a tool does (the first groups above, and a few more verbs of requests): a request
 * matching a tool only by such a word ("send", "start", "check") says little about whether the
 * tool fits, so they count less in a hit's relevance.
 */
export const ACTION_TERMS: ReadonlySet<string> = new Set(
  [
    ...SYNONYM_GROUPS.slice(0, 13).flat(),
    ..."send post call play set check order schedule record pay buy book tell please want need help".split(
      " ",
    ),
  ].map(searchTerm),
);

/** Short forms that mean several words. */
const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  pr: ["pull", "request"],
  ci: ["check", "status"],
};

/** The weight of a word a query did not say, but one of its words stands for. */
export const RELATED_WORD_WEIGHT = 0.4;

/**
 * A query's terms with their weights: its own terms 1 (an abbreviation's words too), the other
 * words of their synonym groups `RELATED_WORD_WEIGHT`.
 */
export function weightedQueryTerms(terms: readonly string[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of terms) {
    weights.set(term, 1);
    for (const word of ABBREVIATION_TERMS.get(term) ?? []) weights.set(word, 1);
  }
  for (const term of terms) {
    for (const word of SYNONYM_TERMS.get(term) ?? []) {
      if (!weights.has(word)) weights.set(word, RELATED_WORD_WEIGHT);
    }
  }
  return weights;
}

/** Each term's synonyms, as terms (stemmed as the index stems). */
const SYNONYM_TERMS = (() => {
  const synonyms = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const terms = group.map(searchTerm);
    for (const term of terms) {
      const others = synonyms.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) others.add(other);
      synonyms.set(term, others);
    }
  }
  return synonyms;
})();

const ABBREVIATION_TERMS = new Map(
  Object.entries(ABBREVIATIONS).map(([short, words]) => [searchTerm(short), words.map(searchTerm)]),
);
