// Where the time of one client's Streamable HTTP calls goes, for bench/results/http-profile.md:
// `node --import ./src/resolve-typescript.ts src/profile-http-calls.ts "<client>" [--calls N] [--out DIR]`
// Connects the client (as the bench does) to the loopback echo server its row uses, warms up, then
// profiles N sequential calls and N calls eight at a time: CPU (V8's sampling profiler, self time
// by layer), bytes allocated per call (the sampling heap profiler, collected objects included) and
// the TCP connections opened. Only the client's process is profiled; the server runs in its own.
import { subscribe } from "node:diagnostics_channel";
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { contenders, startHTTPEchoServer } from "./mcp-clients.ts";

const [name = "Junction MCP", ...flags] = process.argv.slice(2);
const flag = (option: string) => {
  const index = flags.indexOf(option);
  return index === -1 ? undefined : flags[index + 1];
};
const calls = Number(flag("--calls") ?? 2000);
const out = flag("--out");
const contender = contenders.find((c) => c.name === name);
if (!contender) throw new Error(`unknown client ${JSON.stringify(name)}`);

let sockets = 0;
subscribe("net.client.socket", () => {
  sockets++;
});

const server = await startHTTPEchoServer({ server: contender.server ?? "legacy" });
const client = await contender.connect({ transport: "http", url: server.url });
const session = new Session();
session.connect();

async function loop(concurrency: number): Promise<number> {
  let started = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < calls) {
        const text = `call ${started++}`;
        if ((await client.call(text)) !== text) throw new Error("echo mismatch");
      }
    }),
  );
  return performance.now() - start;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time by layer: which package (or Node's internals) the sampled frame belongs to. */
function layers(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byLayer = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const layer = layerOf(frame.url, frame.functionName);
    const delta = profile.timeDeltas[index] ?? 0;
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + delta);
    const where = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + delta);
  });
  return { byLayer, byFunction };
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/^file:\/\/.*?\/(packages|bench)\//, "$1/");
}

function layerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "native";
  const short = shortUrl(url);
  if (short.startsWith("node:internal/deps/undici")) return "undici (fetch)";
  if (short.startsWith("node:internal/webstreams")) return "web streams";
  if (short.startsWith("node:")) return "node core";
  if (short.startsWith("packages/")) return `junction ${short.split("/")[1]}`;
  if (short.startsWith("bench/")) return "bench harness";
  const [scope, pkg] = short.split("/");
  return scope?.startsWith("@") ? `${scope}/${pkg}` : (scope ?? short);
}

async function profiled(concurrency: number) {
  await loop(concurrency); // warm-up at this concurrency
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  const socketsBefore = sockets;
  const allocMs = await loop(concurrency);
  const { profile: allocations } = (await session.post("HeapProfiler.stopSampling")) as never as {
    profile: { samples: { size: number }[] };
  };
  const bytes = allocations.samples.reduce((sum, sample) => sum + sample.size, 0);
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const cpuUsage = process.cpuUsage();
  const ms = await loop(concurrency);
  const cpu = process.cpuUsage(cpuUsage);
  const { profile } = (await session.post("Profiler.stop")) as never as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  if (out) {
    mkdirSync(out, { recursive: true });
    writeFileSync(
      join(out, `${name.replace(/[^a-z0-9]+/gi, "-")}-x${concurrency}.cpuprofile`),
      JSON.stringify(profile),
    );
  }
  return {
    concurrency,
    callsPerSecond: Math.round(calls / (ms / 1000)),
    cpuMicrosecondsPerCall: Math.round((cpu.user + cpu.system) / calls),
    bytesPerCall: Math.round(bytes / calls),
    allocationRunMs: Math.round(allocMs),
    socketsOpened: sockets - socketsBefore,
    ...layers(profile),
  };
}

const results = [await profiled(1), await profiled(8)];
await client.close();
await server.stop();
session.disconnect();

for (const result of results) {
  const total = [...result.byLayer.values()].reduce((a, b) => a + b, 0);
  const busy = total - (result.byLayer.get("(idle)") ?? 0);
  console.log(
    `\n## ${name} ×${result.concurrency}: ${result.callsPerSecond} calls/s, ${result.cpuMicrosecondsPerCall} µs CPU/call, ${result.bytesPerCall} B allocated/call, ${result.socketsOpened} TCP connections opened over ${calls} calls`,
  );
  const percent = (value: number) => `${((100 * value) / busy).toFixed(1)}%`;
  console.log("layer | µs/call | share of busy");
  for (const [layer, micros] of [...result.byLayer].sort((a, b) => b[1] - a[1])) {
    if (layer === "(idle)") continue;
    console.log(`${layer} | ${(micros / calls).toFixed(1)} | ${percent(micros)}`);
  }
  console.log("top functions (self):");
  for (const [where, micros] of [...result.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    if (where.startsWith("(idle)")) continue;
    console.log(`  ${(micros / calls).toFixed(2)} µs/call ${percent(micros)} ${where}`);
  }
}
process.exit(0);
