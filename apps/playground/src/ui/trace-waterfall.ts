import { formatDuration, type TraceSpan, waterfallRows } from "../shared/trace-waterfall.js";
import { h } from "./dom.js";

/**
 * A turn's trace as a waterfall: one row per span (run → model calls → tool calls → MCP
 * requests), indented by nesting, with a bar placed on the turn's timeline, its duration,
 * tokens, and the error of a span that failed. Every name and value is text, never markup.
 */
export function traceWaterfall(spans: TraceSpan[]): HTMLElement {
  const rows = waterfallRows(spans);
  if (rows.length === 0) {
    return h(
      "div",
      { class: "waterfall empty muted", testid: "trace-waterfall" },
      "This run's trace is no longer kept: the playground keeps the traces of its last 100 runs.",
    );
  }
  const total = Math.max(...spans.map((span) => span.endMs)) - Math.min(...spans.map((span) => span.startMs));
  return h(
    "div",
    { class: "waterfall", testid: "trace-waterfall" },
    h(
      "div",
      { class: "waterfall-header" },
      h("span", { class: "waterfall-name" }, "span"),
      h("span", { class: "waterfall-timeline muted" }, `0 – ${formatDuration(total)}`),
    ),
    ...rows.map((row) => {
      const bar = h("div", { class: `waterfall-bar ${row.category}`, title: formatDuration(row.durationMs) });
      bar.style.left = `${row.offsetPercent}%`;
      bar.style.width = `${row.widthPercent}%`;
      const name = h(
        "span",
        { class: "waterfall-name", title: row.name },
        row.name,
        row.detail ? h("span", { class: "muted" }, ` · ${row.detail}`) : null,
      );
      name.style.paddingLeft = `${row.depth * 16}px`;
      return h(
        "div",
        {
          class: `waterfall-row${row.error !== undefined ? " failed" : ""}`,
          testid: "trace-row",
          title: row.error ?? "",
        },
        name,
        h("span", { class: "waterfall-track" }, bar),
        h("span", { class: "waterfall-duration", testid: "trace-duration" }, formatDuration(row.durationMs)),
        h("span", { class: "waterfall-tokens muted" }, row.tokens ?? ""),
        row.error !== undefined
          ? h("span", { class: "waterfall-error", testid: "trace-error" }, row.error)
          : null,
      );
    }),
  );
}
