import { h } from "./dom.js";

/** Levels shown open at first; deeper ones start folded. */
const OPEN_LEVELS = 2;
/** Entries shown per object or array; the rest are counted, not drawn. */
const SHOWN_ENTRIES = 200;

/**
 * A JSON value as a collapsible tree: objects and arrays fold (`details`), leaves are text. Built
 * from text nodes only, so a model's strings stay inert whatever they hold.
 */
export function jsonTree(value: unknown, depth = 0): HTMLElement {
  if (typeof value !== "object" || value === null) {
    return h(
      "span",
      { class: `json-leaf json-${value === null ? "null" : typeof value}` },
      JSON.stringify(value) ?? "undefined",
    );
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value as Record<string, unknown>);
  const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const node = h(
    "details",
    { class: "json-node", testid: "json-node" },
    h("summary", {}, label),
    ...entries
      .slice(0, SHOWN_ENTRIES)
      .map(([key, item]) =>
        h(
          "div",
          { class: "json-entry", testid: "json-entry" },
          h("span", { class: "json-key" }, `${key}: `),
          jsonTree(item, depth + 1),
        ),
      ),
    entries.length > SHOWN_ENTRIES
      ? h("div", { class: "muted" }, `… ${entries.length - SHOWN_ENTRIES} more`)
      : null,
  );
  if (depth < OPEN_LEVELS) (node as HTMLDetailsElement).open = true;
  return node;
}
