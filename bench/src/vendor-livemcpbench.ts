// Vendors the two LiveMCPBench files the tool-search benchmark needs into bench/livemcpbench/,
// trimmed to what it reads (see bench/livemcpbench/README.md), from a local git copy of
// icip-cas/LiveMCPBench.
// Run: pnpm --filter @junction/bench vendor-livemcpbench <path of the repository's git directory>
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const gitDir = process.argv[2];
if (!gitDir) {
  process.stderr.write("usage: vendor-livemcpbench <git directory of icip-cas/LiveMCPBench>\n");
  process.exit(2);
}
const git = (...args: string[]) =>
  execFileSync("git", ["-C", gitDir, ...args], { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
const commit = git("rev-parse", "HEAD").trim();
const show = (path: string) => git("show", `${commit}:${path}`);

interface SourceServer {
  name: string;
  description: string;
  category: string;
  web: string;
  organization?: string;
  tools: Record<
    string,
    {
      server_name: string;
      version: string;
      tools: { name: string; description?: string; inputSchema: unknown; annotations?: unknown }[];
    }
  >;
}
interface SourceTask {
  task_id: string;
  Question: string;
  category: string;
  "Annotator Metadata": { Tools: string; "Number of tools": string };
}

const out = join(import.meta.dirname, "..", "livemcpbench");
const source = (path: string) => ({ repository: "icip-cas/LiveMCPBench", commit, path });

const servers = (JSON.parse(show("tools/LiveMCPTool/tools.json")) as SourceServer[]).map((server) => {
  const entries = Object.values(server.tools);
  if (entries.length !== 1) throw new TypeError(`${server.name}: ${entries.length} server entries, not 1`);
  const [entry] = entries as [(typeof entries)[number]];
  return {
    name: server.name,
    serverName: entry.server_name,
    version: entry.version,
    description: server.description,
    category: server.category,
    web: server.web,
    tools: entry.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: tool.inputSchema,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    })),
  };
});
writeFileSync(
  join(out, "tools.json"),
  `${JSON.stringify({ source: source("tools/LiveMCPTool/tools.json"), servers }, null, 2)}\n`,
);

const tasks = (JSON.parse(show("annotated_data/all_annotations.json")) as SourceTask[]).map((task) => ({
  task_id: task.task_id,
  Question: task.Question,
  category: task.category,
  Tools: task["Annotator Metadata"].Tools,
  "Number of tools": task["Annotator Metadata"]["Number of tools"],
}));
writeFileSync(
  join(out, "annotations.json"),
  `${JSON.stringify({ source: source("annotated_data/all_annotations.json"), tasks }, null, 2)}\n`,
);
writeFileSync(join(out, "LICENSE"), show("LICENSE"));
process.stdout.write(
  `vendored ${servers.length} servers, ${servers.reduce((sum, server) => sum + server.tools.length, 0)} tools, ${tasks.length} tasks at ${commit}\n`,
);

// The fixed split (tuning half, held-out half) by its rule, recorded once so that it never moves.
const { liveMCPBenchSplitIds, liveMCPBenchTasks } = await import("./livemcpbench.ts");
const split = liveMCPBenchSplitIds(liveMCPBenchTasks());
writeFileSync(join(out, "split.json"), `${JSON.stringify(split, null, 2)}\n`);
process.stdout.write(`split: ${split.tuning.length} tuning, ${split.heldOut.length} held out\n`);
