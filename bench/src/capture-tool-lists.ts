// Captures the tool lists of real MCP servers from npm, at pinned versions, into bench/tool-lists/,
// so the tool-search benchmarks run on real definitions without installing the servers each time.
// Run: pnpm --filter @junction/bench capture-tool-lists [name…]   (installs into ~/.cache/junction-mcp-servers)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MCP } from "@junction/mcp-client";

interface ServerSpec {
  /** The file name under tool-lists/ and the name the benchmark reports. */
  name: string;
  package: string;
  version: string;
  /** The bin to run, when the package has several. */
  bin?: string;
  args?: (workdir: string) => string[];
  /** Placeholder credentials: listing tools needs none, but some servers refuse to start without them. */
  env?: Record<string, string>;
}

/** The servers of issue 22's measurement, pinned to the versions captured. */
export const SERVERS: ServerSpec[] = [
  {
    name: "everything",
    package: "@modelcontextprotocol/server-everything",
    version: "2026.8.31",
    args: () => ["stdio"],
  },
  {
    name: "filesystem",
    package: "@modelcontextprotocol/server-filesystem",
    version: "2026.8.31",
    args: (dir) => [dir],
  },
  { name: "memory", package: "@modelcontextprotocol/server-memory", version: "2026.8.31" },
  {
    name: "sequential-thinking",
    package: "@modelcontextprotocol/server-sequential-thinking",
    version: "2026.8.31",
  },
  {
    name: "github",
    package: "@modelcontextprotocol/server-github",
    version: "2025.4.8",
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "placeholder" },
  },
  { name: "playwright", package: "@playwright/mcp", version: "0.0.83" },
  { name: "chrome-devtools", package: "chrome-devtools-mcp", version: "1.11.0" },
  { name: "context7", package: "@upstash/context7-mcp", version: "4.1.1" },
  {
    name: "notion",
    package: "@notionhq/notion-mcp-server",
    version: "2.5.2",
    env: { NOTION_TOKEN: "placeholder" },
  },
  {
    name: "firecrawl",
    package: "firecrawl-mcp",
    version: "3.26.0",
    env: { FIRECRAWL_API_KEY: "fc-placeholder" },
  },
  { name: "tavily", package: "tavily-mcp", version: "0.2.22", env: { TAVILY_API_KEY: "tvly-placeholder" } },
  { name: "exa", package: "exa-mcp-server", version: "3.4.1", env: { EXA_API_KEY: "placeholder" } },
  {
    name: "brave-search",
    package: "@modelcontextprotocol/server-brave-search",
    version: "0.6.2",
    env: { BRAVE_API_KEY: "placeholder" },
  },
  { name: "mongodb", package: "mongodb-mcp-server", version: "3.0.4" },
  {
    name: "sentry",
    package: "@sentry/mcp-server",
    version: "0.39.0",
    args: () => ["--access-token=placeholder"],
  },
  {
    name: "figma",
    package: "figma-developer-mcp",
    version: "0.13.2",
    args: () => ["--stdio", "--figma-api-key=placeholder"],
  },
  { name: "kubernetes", package: "mcp-server-kubernetes", version: "4.1.7" },
  { name: "shopify-dev", package: "@shopify/dev-mcp", version: "1.16.0" },
];

const root = join(homedir(), ".cache", "junction-mcp-servers");
const out = join(dirname(new URL(import.meta.url).pathname), "..", "tool-lists");

function install(spec: ServerSpec): { entry: string; version: string } {
  const prefix = join(root, spec.name);
  mkdirSync(prefix, { recursive: true });
  execFileSync(
    "npm",
    [
      "install",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      `${spec.package}@${spec.version}`,
    ],
    {
      stdio: "inherit",
    },
  );
  const packageDir = join(prefix, "node_modules", spec.package);
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const bins = typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  const bin = spec.bin ? bins[spec.bin] : Object.values(bins)[0];
  if (typeof bin !== "string") throw new TypeError(`${spec.package} has no bin to run`);
  return { entry: join(packageDir, bin), version: manifest.version };
}

async function capture(spec: ServerSpec): Promise<void> {
  const { entry, version } = install(spec);
  const workdir = mkdtempSync(join(tmpdir(), `junction-${spec.name}-`));
  const mcp = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [entry, ...(spec.args?.(workdir) ?? [])],
    cwd: workdir,
    ...(spec.env ? { env: spec.env } : {}),
  });
  try {
    await mcp.connect();
    const tools = await mcp.listToolDefinitions();
    writeFileSync(
      join(out, `${spec.name}.json`),
      `${JSON.stringify({ server: spec.name, package: spec.package, version, tools }, null, 2)}\n`,
    );
    console.log(`${spec.name}: ${tools.length} tools (${spec.package}@${version})`);
  } finally {
    await mcp.close();
  }
}

const only = process.argv.slice(2);
mkdirSync(out, { recursive: true });
for (const spec of SERVERS.filter((server) => only.length === 0 || only.includes(server.name))) {
  try {
    await capture(spec);
  } catch (error) {
    console.error(`${spec.name}: not captured: ${error instanceof Error ? error.message : String(error)}`);
  }
}
