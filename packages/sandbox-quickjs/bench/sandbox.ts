// Figures for @junction/sandbox-quickjs. Build first, then run with Node 24 (it strips the types):
//   pnpm --filter @junction/sandbox-quickjs build && node packages/sandbox-quickjs/bench/sandbox.ts
//
// - module load (cold): a fresh Node process, from importing the package to the end of its first
//   run of a trivial program (the WebAssembly instantiated, sucrase loaded), median of 5 processes;
//   the WebAssembly alone (imported and instantiated in a fresh process) is shown beside it, for
//   the inlined build used and for the separate-.wasm build;
// - warm run: a trivial program on the warm engine (its snapshot written back after), median of 200;
// - host-call overhead: a program awaiting 1000 calls one after another to a host function that
//   returns at once, (its time - a trivial run's) / 1000, median of 10;
// - stop times: a memory bomb at the default 64 MiB, and while (true) at a 100 ms CPU budget,
//   from run() to its outcome, median of 5;
// - each of these again with `thread: "worker"` (the guest on a worker thread), and for both a loop
//   of huge-BigInt conversions (`String(7n ** 370000n)`, seconds a call, no interrupt checked
//   inside) at a 100 ms CPU budget: on a worker, run() to its outcome and the calling thread's
//   longest stall (10 ms timer ticks), median of 5; on the host thread the loop would hold the
//   thread for minutes, so one conversion alone is timed there, once.

import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const distEntry = new URL("../dist/index.js", import.meta.url).href;
// The tests' helper, by its file: Node runs it as TypeScript.
const { withLongestStall } = (await import(
  new URL("../test/longest-stall.ts", import.meta.url).href
)) as typeof import("../test/longest-stall.js");

interface Program {
  source: string;
  functions: string[];
  call: (name: string, args: unknown, sequence: number) => Promise<unknown>;
  clockMs: number;
  seed: number;
  limits?: Record<string, number>;
}
type Sandbox = { run(program: Program): Promise<{ kind: string; code?: string }> };
type SandboxFactory = (options?: { thread?: "host" | "worker" }) => Sandbox;

const trivial = (source: string, more: Partial<Program> = {}): Program => ({
  source,
  functions: [],
  call: async () => null,
  clockMs: 0,
  seed: 1,
  ...more,
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function expectOutcome(
  sandbox: Sandbox,
  program: Program,
  { kind, code }: { kind: string; code?: string },
) {
  const outcome = await sandbox.run(program);
  if (outcome.kind !== kind || outcome.code !== code) {
    throw new Error(`expected ${kind} ${code ?? ""}, got ${JSON.stringify(outcome)}`);
  }
}

/** In a fresh process: the first run's time, or (with --instantiate) the WebAssembly's alone. */
async function coldChild(): Promise<void> {
  const start = performance.now();
  if (process.argv.includes("--instantiate")) {
    const core = await import("quickjs-emscripten-core");
    const variant = process.argv.includes("--wasmfile")
      ? (await import("@jitl/quickjs-wasmfile-release-sync")).default
      : (await import("@jitl/quickjs-singlefile-mjs-release-sync")).default;
    await core.newQuickJSWASMModuleFromVariant(variant);
  } else {
    const { quickjsSandbox } = (await import(distEntry)) as { quickjsSandbox: SandboxFactory };
    const thread = process.argv.includes("--worker") ? "worker" : "host";
    await expectOutcome(quickjsSandbox({ thread }), trivial("return 1;"), { kind: "returned" });
  }
  process.stdout.write(String(performance.now() - start));
}

function coldRuns(self: string, flags: string[]): number[] {
  return Array.from({ length: 5 }, () =>
    Number(execFileSync(process.execPath, [self, "--cold", ...flags], { encoding: "utf8" })),
  );
}

/** The warm figures of one sandbox: a trivial run, the per-call overhead, the stop times. */
async function warmFigures(sandbox: Sandbox) {
  await expectOutcome(sandbox, trivial("return 1;"), { kind: "returned" });
  const warm: number[] = [];
  for (let run = 0; run < 200; run++) {
    warm.push(await timed(() => expectOutcome(sandbox, trivial("return 1;"), { kind: "returned" })));
  }
  const warmMedian = median(warm);

  const perCall: number[] = [];
  const thousandCalls = trivial("for (let i = 0; i < 1000; i++) await tools.echo({ i }); return 'done';", {
    functions: ["echo"],
    call: async () => 1,
    limits: { maxCalls: 1000 },
  });
  for (let run = 0; run < 10; run++) {
    perCall.push(
      (await timed(() => expectOutcome(sandbox, thousandCalls, { kind: "returned" }))) - warmMedian,
    );
  }

  const bomb: number[] = [];
  const spin: number[] = [];
  for (let run = 0; run < 5; run++) {
    bomb.push(
      await timed(() =>
        expectOutcome(
          sandbox, // A CPU budget that cannot end it first, even on a busy machine.
          trivial("let a = []; for (;;) a.push('x'.repeat(1e6));", { limits: { cpuMs: 60_000 } }),
          { kind: "limit", code: "memory" },
        ),
      ),
    );
    spin.push(
      await timed(() =>
        expectOutcome(sandbox, trivial("while (true) {}", { limits: { cpuMs: 100 } }), {
          kind: "limit",
          code: "cpu",
        }),
      ),
    );
  }
  return { warm: warmMedian, perCall: median(perCall) / 1000, bomb: median(bomb), spin: median(spin) };
}

async function main(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const firstRuns = coldRuns(self, []);
  const workerFirstRuns = coldRuns(self, ["--worker"]);
  const instantiations = coldRuns(self, ["--instantiate"]);
  const wasmfileInstantiations = coldRuns(self, ["--instantiate", "--wasmfile"]);

  const { quickjsSandbox } = (await import(distEntry)) as { quickjsSandbox: SandboxFactory };
  const host = await warmFigures(quickjsSandbox());
  const workerSandbox = quickjsSandbox({ thread: "worker" });
  const worker = await warmFigures(workerSandbox);

  const hugeDecimal = { limits: { cpuMs: 100 } };
  const workerNative: { ms: number; stallMs: number }[] = [];
  for (let run = 0; run < 5; run++) {
    workerNative.push(
      await withLongestStall(() =>
        expectOutcome(workerSandbox, trivial("const x = 7n ** 370000n; for (;;) String(x);", hugeDecimal), {
          kind: "limit",
          code: "cpu",
        }),
      ),
    );
  }
  const hostNative = await withLongestStall(() =>
    expectOutcome(
      quickjsSandbox(),
      trivial("const x = 7n ** 370000n; return String(x).length;", hugeDecimal),
      {
        kind: "returned",
      },
    ),
  );

  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const both = (of: (figures: typeof host) => number) =>
    `${ms(of(host))} (on a worker thread: ${ms(of(worker))})`;
  console.log(
    `@junction/sandbox-quickjs on Node ${process.version} (${process.platform} ${process.arch}), load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `module load (cold), import to first run done: ${ms(median(firstRuns))} (on a worker thread: ${ms(median(workerFirstRuns))}; the WebAssembly alone, imported and instantiated: ${ms(median(instantiations))}; the separate-.wasm build instead: ${ms(median(wasmfileInstantiations))}; median of 5 processes each)`,
  );
  console.log(`warm run, a trivial program on the warm engine: ${both((f) => f.warm)} (median of 200)`);
  console.log(`host-call overhead: ${both((f) => f.perCall)} per call (1000 awaited calls, median of 10)`);
  console.log(`memory bomb stopped at the 64 MiB limit: ${both((f) => f.bomb)} (median of 5)`);
  console.log(`while (true) stopped at a 100 ms CPU budget: ${both((f) => f.spin)} (median of 5)`);
  console.log(
    `a loop of huge-BigInt conversions at a 100 ms CPU budget, on a worker thread: stopped in ${ms(median(workerNative.map((run) => run.ms)))}, the calling thread's longest stall ${ms(median(workerNative.map((run) => run.stallMs)))} (median of 5); on the host thread one conversion alone holds it ${ms(hostNative.stallMs)}, and the loop runs about a hundred of them`,
  );
}

if (process.argv.includes("--cold")) await coldChild();
else await main();
