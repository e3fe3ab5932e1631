// An MCP Apps server for the playground's lifecycle tests, over stdio with the official SDK. Its
// view is built on the published ext-apps 2.x `App` class (its self-contained bundle inlined into
// the one HTML document, as an app author's bundler would). `show-lifecycle` opens it; `record`
// is an app-only tool (`_meta.ui.visibility: ["app"]`) that appends an event to `--record-file`,
// so a test sees what the view did (its teardown) after the view is gone.
import { appendFileSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const MIME = "text/html;profile=mcp-app";
const option = (name) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const recordFile = option("--record-file");

/** The SDK's bundle as an inline module: its `export{…}` list becomes local names (App and the theming helpers). */
function appClassScript() {
  const bundle = readFileSync(
    fileURLToPath(import.meta.resolve("@modelcontextprotocol/ext-apps/app-with-deps")),
    "utf8",
  );
  const exported = /export\{([^}]*)\};?\s*$/.exec(bundle);
  if (!exported) throw new Error("The ext-apps bundle ends with no export list.");
  const names = exported[1].split(",").map((entry) => entry.trim().split(/\s+as\s+/));
  const locals = ["App", "applyHostStyleVariables", "applyHostFonts", "applyDocumentTheme"].map((wanted) => {
    const found = names.find(([, name]) => name === wanted);
    if (!found) throw new Error(`The ext-apps bundle exports no ${wanted}.`);
    return `const ${wanted} = ${found[0]};`;
  });
  return `${bundle.slice(0, exported.index)}\n${locals.join("\n")}\n`;
}
const lifecycle = readFileSync(new URL("./mcp-apps/sdk-lifecycle.html", import.meta.url), "utf8").replace(
  "/*APP_CLASS*/",
  () => appClassScript(),
);

const silent = readFileSync(new URL("./mcp-apps/silent.html", import.meta.url), "utf8");
const permissions = readFileSync(new URL("./mcp-apps/permissions.html", import.meta.url), "utf8");

const objectSchema = (properties = {}, required = []) => ({ type: "object", properties, required });
const readOnly = { readOnlyHint: true, openWorldHint: false };
const tools = [
  {
    name: "show-lifecycle",
    description: "Show the lifecycle app.",
    inputSchema: objectSchema({ note: { type: "string" } }),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/lifecycle.html" } },
  },
  {
    name: "show-waiting",
    description: "Show the lifecycle app for a call that only ends when it is cancelled.",
    inputSchema: objectSchema({ note: { type: "string" } }),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/lifecycle.html" } },
  },
  {
    name: "show-silent",
    description: "Show an app that sends initialized only when asked.",
    inputSchema: objectSchema({ note: { type: "string" } }),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/silent.html" } },
  },
  {
    name: "show-permissions",
    description: "Show an app whose resource declares camera and clipboardWrite permissions.",
    inputSchema: objectSchema(),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/permissions.html" } },
  },
  {
    name: "count-up",
    description: "Reports progress 1, 2, 3 of 3, then ends once release is called (app-only).",
    inputSchema: objectSchema(),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/lifecycle.html", visibility: ["app"] } },
  },
  {
    name: "release",
    description: "Lets a waiting count-up end (app-only).",
    inputSchema: objectSchema(),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/lifecycle.html", visibility: ["app"] } },
  },
  {
    name: "record",
    description: "Records an event of the lifecycle app (app-only).",
    inputSchema: objectSchema({ event: { type: "string" } }, ["event"]),
    annotations: readOnly,
    _meta: { ui: { resourceUri: "ui://sdk/lifecycle.html", visibility: ["app"] } },
  },
];

const server = new Server({ name: "mcp-apps-sdk-test-server", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
let release = () => {};
const text = (value) => ({ content: [{ type: "text", text: value }] });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case "show-waiting":
      // Ends only when the client cancels it (notifications/cancelled), which is recorded.
      return new Promise((_, reject) =>
        extra.signal.addEventListener("abort", () => {
          if (recordFile) appendFileSync(recordFile, "show-waiting cancelled\n");
          reject(new Error("cancelled"));
        }),
      );
    case "show-lifecycle":
      return text(`lifecycle: ${args.note ?? "no note"}`);
    case "show-silent":
      return text(`silent: ${args.note ?? "no note"}`);
    case "show-permissions":
      return text("permissions");
    case "count-up": {
      const progressToken = request.params._meta?.progressToken;
      if (progressToken === undefined) return text("no progress token");
      for (const progress of [1, 2, 3])
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress, total: 3, message: `step ${progress}` },
        });
      // Ends only when the view calls release: the progress reached it while the call still ran.
      await new Promise((resolve) => {
        release = resolve;
      });
      return text("counted to 3");
    }
    case "release":
      release();
      return text("released");
    case "record":
      if (recordFile) appendFileSync(recordFile, `${String(args.event)}\n`);
      return text(`recorded ${String(args.event)}`);
    default:
      return { content: [{ type: "text", text: `no tool ${request.params.name}` }], isError: true };
  }
});
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [
    { uri: "ui://sdk/lifecycle.html", name: "lifecycle.html", mimeType: MIME },
    { uri: "ui://sdk/silent.html", name: "silent.html", mimeType: MIME },
    { uri: "ui://sdk/permissions.html", name: "permissions.html", mimeType: MIME },
  ],
}));
const documents = {
  "ui://sdk/lifecycle.html": lifecycle,
  "ui://sdk/silent.html": silent,
  "ui://sdk/permissions.html": permissions,
};
// Only the permissions app declares any (and not all four: what is not declared is not granted).
const metas = { "ui://sdk/permissions.html": { ui: { permissions: { camera: {}, clipboardWrite: {} } } } };
server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const text = documents[request.params.uri];
  if (text === undefined) throw new Error(`No resource ${request.params.uri}`);
  const _meta = metas[request.params.uri];
  return { contents: [{ uri: request.params.uri, mimeType: MIME, text, ...(_meta ? { _meta } : {}) }] };
});
await server.connect(new StdioServerTransport());
