// Where a served tool call's time goes on the *server* side, for bench/results/mcp-server-profile.md:
//   node --import ./src/resolve-typescript.ts src/profile-served-calls.ts \
//     [--rounds N] [--calls N] [--settings stdio:2026-07-28,http:2025-11-25] [--cpu-prof DIR]
// Starts `servers/served-echo.mjs` (the bench's echo servers) for Junction and the raw SDK v2 server
// in turn, in every setting and a fresh order each round, connects the official SDK v2 client, warms
// up, then makes N sequential calls and N calls eight at a time. For each it reads the server
// process's own CPU time (every thread's, from /proc) around the calls: CPU µs per call is a
// figure another engineer's load on the shared machine barely moves, unlike wall time. Prints each
// round's figures and, per setting, the median and the spread (min–max) of Junction's ratio to the
// raw server's. `--cpu-prof DIR` also writes V8 CPU profiles of the servers (one per process) there.
import { once } from "node:events";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type ProtocolEra, SERVED_ECHO, type ServerTransport, startServedHTTP } from "./measure-server.ts";
import { processCPUMicros } from "./process-cpu.ts";
import { median, shuffled } from "./stats.ts";

type Library = "junction" | "raw-sdk";
interface Setting {
  transport: ServerTransport;
  era: ProtocolEra;
}
interface Figures {
  /** Server CPU µs per call, sequential and eight at a time. */
  cpu1: number;
  cpu8: number;
  /** Calls per second, sequential and eight at a time (wall time: noisy on a shared machine). */
  rate1: number;
  rate8: number;
}

const flags = process.argv.slice(2);
const flag = (option: string) => {
  const index = flags.indexOf(option);
  return index === -1 ? undefined : flags[index + 1];
};
const rounds = Number(flag("--rounds") ?? 3);
const callsFlag = flag("--calls");
// Enough calls for a second or more of server CPU time per figure.
const callsFor = (transport: ServerTransport) => Number(callsFlag ?? (transport === "stdio" ? 20_000 : 3000));
const cpuProfileDir = flag("--cpu-prof");
const settings: Setting[] = (
  flag("--settings") ?? "stdio:2025-11-25,stdio:2026-07-28,http:2025-11-25,http:2026-07-28"
)
  .split(",")
  .map((entry) => {
    const [transport, era] = entry.split(":") as [ServerTransport, ProtocolEra];
    return { transport, era };
  });

// A server killed by the client (HTTP) must still write its CPU profile: exit on SIGTERM.
const nodeFlags = cpuProfileDir
  ? [
      "--cpu-prof",
      `--cpu-prof-dir=${cpuProfileDir}`,
      "--import",
      'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))',
    ]
  : [];

async function measure(library: Library, setting: Setting): Promise<Figures> {
  const http = setting.transport === "http" ? await startServedHTTP(library, nodeFlags) : undefined;
  const stdio = http
    ? undefined
    : new StdioClientTransport({ command: process.execPath, args: [...nodeFlags, SERVED_ECHO, library] });
  const client = new Client(
    { name: "profile-served-calls", version: "1.0.0" },
    setting.era === "2026-07-28" ? { versionNegotiation: { mode: "auto" } } : {},
  );
  await client.connect(http ? new StreamableHTTPClientTransport(new URL(http.url)) : stdio!);
  const negotiated = client.getNegotiatedProtocolVersion();
  if (negotiated !== setting.era) throw new Error(`${library}: negotiated ${negotiated}, not ${setting.era}`);
  const pid = http ? http.child.pid! : stdio!.pid!;
  const call = async (text: string) => {
    const result = await client.callTool({ name: "echo", arguments: { text } });
    const first = (result.content as { type: string; text?: string }[])[0];
    if (first?.type !== "text" || first.text !== text) throw new Error(`${library}: wrong result`);
  };
  const run = async (count: number, concurrency: number) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < count) await call(`call ${started++}`);
      }),
    );
  };
  const calls = callsFor(setting.transport);
  try {
    await run(1000, 8);
    const figures = {} as Figures;
    for (const concurrency of [1, 8] as const) {
      const cpuBefore = processCPUMicros(pid);
      const start = performance.now();
      await run(calls, concurrency);
      const seconds = (performance.now() - start) / 1000;
      figures[`cpu${concurrency}`] = (processCPUMicros(pid) - cpuBefore) / calls;
      figures[`rate${concurrency}`] = calls / seconds;
    }
    return figures;
  } finally {
    await client.close();
    if (http) {
      http.child.kill();
      if (http.child.exitCode === null && http.child.signalCode === null) await once(http.child, "exit");
    }
  }
}

const ratios = new Map<string, { cpu1: number[]; cpu8: number[]; rate1: number[]; rate8: number[] }>();
const label = (setting: Setting) => `${setting.transport} ${setting.era}`;
for (let round = 1; round <= rounds; round++) {
  for (const setting of shuffled(settings)) {
    const figures = new Map<Library, Figures>();
    for (const library of shuffled<Library>(["junction", "raw-sdk"])) {
      figures.set(library, await measure(library, setting));
    }
    const ours = figures.get("junction")!;
    const raw = figures.get("raw-sdk")!;
    const entry = ratios.get(label(setting)) ?? { cpu1: [], cpu8: [], rate1: [], rate8: [] };
    entry.cpu1.push(ours.cpu1 / raw.cpu1);
    entry.cpu8.push(ours.cpu8 / raw.cpu8);
    entry.rate1.push(ours.rate1 / raw.rate1);
    entry.rate8.push(ours.rate8 / raw.rate8);
    ratios.set(label(setting), entry);
    const show = (f: Figures) =>
      `cpu/call ×1 ${f.cpu1.toFixed(0)} µs ×8 ${f.cpu8.toFixed(0)} µs, calls/s ×1 ${f.rate1.toFixed(0)} ×8 ${f.rate8.toFixed(0)}`;
    process.stderr.write(
      `round ${round} ${label(setting)}\n  junction ${show(ours)}\n  raw-sdk  ${show(raw)}\n`,
    );
  }
}

const spread = (values: number[]) =>
  `${median(values).toFixed(2)}× (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
process.stdout.write(
  "| setting | server CPU/call ×1 | server CPU/call ×8 | calls/s ×1 | calls/s ×8 |\n| --- | --- | --- | --- | --- |\n",
);
for (const [name, entry] of ratios) {
  process.stdout.write(
    `| ${name} | ${spread(entry.cpu1)} | ${spread(entry.cpu8)} | ${spread(entry.rate1)} | ${spread(entry.rate8)} |\n`,
  );
}
