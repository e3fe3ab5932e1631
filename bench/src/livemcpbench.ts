// LiveMCPBench (icip-cas/LiveMCPBench, Apache-2.0), vendored in bench/livemcpbench/: its 70 MCP
// servers' 527 tools, its 95 tasks with their annotated tools mapped to the names the Agent sees,
// and the fixed split into a tuning half and a held-out half. See bench/livemcpbench/README.md.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const dataDir = join(import.meta.dirname, "..", "livemcpbench");

/** One LiveMCPBench server as vendored: its display name, its MCP server name and its tools. */
export interface LiveMCPBenchServer {
  /** The display name, e.g. "Fetch MCP Server". */
  name: string;
  /** The MCP server's own name (`serverInfo.name`), e.g. "fetch". */
  serverName: string;
  version: string;
  description: string;
  category: string;
  web: string;
  /** A tool's description is `null` where the source has none. */
  tools: { name: string; description?: string | null; inputSchema: Record<string, unknown> }[];
}

/** A task as the annotation file has it (the fields the benchmark reads). */
interface LiveMCPBenchRawTask {
  task_id: string;
  Question: string;
  category: string;
  /** The annotator's tool names, one a line, numbered: "1. list_directory\n2. write_file". */
  Tools: string;
}

/**
 * A LiveMCPBench task for the benchmark: the question, and its gold tools as units, each unit
 * the names (as the Agent sees them, `<prefix>_<tool>`) any of which counts as that tool.
 */
export interface LiveMCPBenchTask {
  id: string;
  question: string;
  category: string;
  gold: string[][];
  /** Annotated tool names that no vendored tool matches, left out of `gold`. */
  unmatched: string[];
}

/** The vendored servers, in the file's order. */
export function liveMCPBenchServers(): LiveMCPBenchServer[] {
  return (JSON.parse(readFileSync(join(dataDir, "tools.json"), "utf8")) as { servers: LiveMCPBenchServer[] })
    .servers;
}

/** The commit of icip-cas/LiveMCPBench the data was vendored from. */
export function liveMCPBenchCommit(): string {
  return (JSON.parse(readFileSync(join(dataDir, "tools.json"), "utf8")) as { source: { commit: string } })
    .source.commit;
}

/** The prefix a server's tools get: its MCP server name, lower-case, runs of other characters as "-". */
export function liveMCPBenchPrefix(serverName: string): string {
  return serverName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * Annotated names that are no vendored tool's name, and the tool that does what the annotation
 * means (the annotation predates a rename in the server, or names the server's tool loosely).
 * Keys are the annotated names; values `[serverName, toolName]`.
 */
const RENAMED: Record<string, [string, string]> = {
  // BioMCP's trial tools are all `trial_*_getter`: the references one.
  trial_references: ["biomcp", "trial_references_getter"],
  // The DuckDuckGo server's one search tool.
  "ddg-search": ["duckduckgo-search", "duckduckgo_web_search"],
  // The Maven server's "latest version" tool is `get_latest_release`.
  get_maven_latest_version: ["maven-deps-server", "get_latest_release"],
  // Desktop Commander's `execute_command` became `start_process` (it starts a shell command).
  execute_command: ["desktop-commander", "start_process"],
};

/**
 * Tool names several servers share, narrowed to the servers whose tool does what the tasks that
 * name it ask. Names not listed here count on every server that has them (`write_file`,
 * `read_file`: the filesystem server and Desktop Commander both write and read local files;
 * `search_papers`: both arXiv servers search arXiv).
 */
const SHARED_NAME_SERVERS: Record<string, string[]> = {
  // Web pages (a résumé page, apple.com, an arXiv abstract): the Fetch server, not BioMCP's `fetch`.
  fetch: ["fetch"],
  // Local folders (/root/music, /root/pdf/...): not Basic Memory's notes folders.
  list_directory: ["filesystem", "desktop-commander"],
  // Named by one task only, which writes a Word document.
  add_table: ["word-document-server"],
};

/** The 95 tasks with their gold tools as the Agent names them. */
export function liveMCPBenchTasks(): LiveMCPBenchTask[] {
  const servers = liveMCPBenchServers();
  const byToolName = new Map<string, string[]>();
  for (const server of servers)
    for (const tool of server.tools) {
      const names = byToolName.get(tool.name) ?? [];
      names.push(`${liveMCPBenchPrefix(server.serverName)}_${tool.name}`);
      byToolName.set(tool.name, names);
    }
  const raw = (
    JSON.parse(readFileSync(join(dataDir, "annotations.json"), "utf8")) as { tasks: LiveMCPBenchRawTask[] }
  ).tasks;
  return raw.map((task) => {
    const annotated = task.Tools.split("\n")
      .map((line) => line.replace(/^\s*\d+[.)]\s*/, "").trim())
      .filter((line) => line.length > 0);
    const gold: string[][] = [];
    const unmatched: string[] = [];
    for (const name of new Set(annotated)) {
      const renamed = RENAMED[name];
      const only = SHARED_NAME_SERVERS[name];
      const names = renamed
        ? [`${liveMCPBenchPrefix(renamed[0])}_${renamed[1]}`]
        : (byToolName.get(name) ?? []).filter(
            (full) => !only || only.some((server) => full === `${liveMCPBenchPrefix(server)}_${name}`),
          );
      if (names.length === 0) unmatched.push(name);
      else gold.push(names);
    }
    return { id: task.task_id, question: task.Question, category: task.category, gold, unmatched };
  });
}

/**
 * The fixed split: tasks ordered by the SHA-256 of their id (hex), the first half (48) for tuning,
 * the rest (47) held out. The held-out half is run only once the search's choices are final.
 * bench/livemcpbench/split.json records the result; `liveMCPBenchSplit` checks the rule still
 * gives it.
 */
export function liveMCPBenchSplit(tasks: LiveMCPBenchTask[]): {
  tuning: LiveMCPBenchTask[];
  heldOut: LiveMCPBenchTask[];
} {
  const ids = liveMCPBenchSplitIds(tasks);
  const recorded = JSON.parse(readFileSync(join(dataDir, "split.json"), "utf8")) as typeof ids;
  if (JSON.stringify([ids.tuning, ids.heldOut]) !== JSON.stringify([recorded.tuning, recorded.heldOut]))
    throw new TypeError("bench/livemcpbench/split.json no longer matches the split rule: the halves moved");
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const pick = (list: string[]) => list.map((id) => byId.get(id) as LiveMCPBenchTask);
  return { tuning: pick(ids.tuning), heldOut: pick(ids.heldOut) };
}

/** The split rule's halves as task ids (what split.json records). */
export function liveMCPBenchSplitIds(tasks: LiveMCPBenchTask[]): { tuning: string[]; heldOut: string[] } {
  const digest = (id: string) => createHash("sha256").update(id).digest("hex");
  const ordered = [...tasks].sort((a, b) => (digest(a.id) < digest(b.id) ? -1 : 1)).map((task) => task.id);
  const half = Math.ceil(ordered.length / 2);
  return { tuning: ordered.slice(0, half), heldOut: ordered.slice(half) };
}
