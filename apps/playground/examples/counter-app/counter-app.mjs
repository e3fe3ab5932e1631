// The counter MCP App (the io.modelcontextprotocol/ui extension): a tool, `show-counter`, whose
// result the host shows as an app, and two tools only the app may call: `increment`
// (unannotated, so the person approves each call) and `peek` (read-only and closed-world, so it
// runs unasked). Shared by the example server the playground offers in one click
// (./server.mjs) and by the playground's MCP Apps tests.
import { readFileSync } from "node:fs";

/** The MIME type of an MCP App document. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The app's resource URI. */
export const COUNTER_URI = "ui://apps/counter.html";

const objectSchema = (properties = {}, required = []) => ({ type: "object", properties, required });

/** The counter's tools, as `tools/list` gives them. */
export const counterTools = [
  {
    name: "show-counter",
    description: "Show the counter app, starting at a number.",
    inputSchema: objectSchema({ start: { type: "number" } }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { resourceUri: COUNTER_URI } },
  },
  {
    name: "increment",
    description: "Adds one to a count (called by the counter app).",
    inputSchema: objectSchema({ count: { type: "number" } }, ["count"]),
    _meta: { ui: { visibility: ["app"] } },
  },
  {
    name: "peek",
    description: "Tells what the server sees (read-only).",
    inputSchema: objectSchema(),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { visibility: ["app"] } },
  },
];

const text = (value, structuredContent) => ({
  content: [{ type: "text", text: value }],
  ...(structuredContent ? { structuredContent } : {}),
});

/** The result of one of the counter's tools, or `undefined` for another name. */
export function callCounterTool(name, args = {}) {
  switch (name) {
    case "show-counter": {
      const count = typeof args.start === "number" ? args.start : 0;
      return text(`The counter starts at ${count}.`, { count });
    }
    case "increment": {
      const count = typeof args.count === "number" ? args.count : 0;
      return text(`The count is now ${count + 1}.`, { count: count + 1 });
    }
    case "peek":
      return text("peeked: the server is fine");
    default:
      return undefined;
  }
}

/**
 * The app's HTML with its configuration: `allowedOrigin` is one origin the app fetches once
 * started (declared in its CSP; none by default, so the app has no network at all).
 */
export function counterDocument(config = {}) {
  return withAppConfig(readFileSync(new URL("./counter.html", import.meta.url), "utf8"), config);
}

/** An app document with `config` in place of its `/*CONFIG*\/` comment, as `const CONFIG = …`. */
export function withAppConfig(html, config) {
  return html.replace("/*CONFIG*/", `const CONFIG = ${JSON.stringify(config).replaceAll("<", "\\u003c")};`);
}
