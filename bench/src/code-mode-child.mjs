// What a fresh process runs for the code-mode bench (code-mode-sandbox-timings.ts), unchanged on
// Node, Bun and Deno: `node file`, `bun file`, `deno run -A file`. A file, not `-e` / `eval`:
// `bun -e` runs WebAssembly far slower than Bun runs it from a file (a 15,000-turn QuickJS loop:
// 165–750 ms against 4–20 ms, measured here), which no application would see.
//
// Its one argument is a JSON task, and it prints one JSON line:
//   {"task":"start","framework":"Junction"|"AI SDK","warmups":N,"samples":N}
//     → {"coldMs","earlyMs","warmMs"}: the framework's module imported and one trivial program
//       run (cold), then `warmups` more (the first ten: early) and `samples` timed ones (warm).
//   {"task":"bombs","bombs":{"name":"source",…},"rounds":N}
//     → {"name":{"stopMs","ending"},…}: Junction's sandbox with its default limits, each bomb run
//       `rounds` times; the slowest, and every round's ending ("limit: cpu / limit: memory").
const TRIVIAL = "return 1;";

async function junctionProgram() {
  const { quickjsSandbox } = await import("@junction/sandbox-quickjs");
  const sandbox = quickjsSandbox();
  return {
    run: (source) => sandbox.run({ source, functions: [], call: async () => null, clockMs: 0, seed: 1 }),
    check: (outcome) => {
      if (outcome.kind !== "returned" || outcome.value !== 1)
        throw new Error(`unexpected outcome ${JSON.stringify(outcome)}`);
    },
  };
}

async function aiSDKProgram() {
  const { experimental_runCodeMode: runCodeMode } = await import("@ai-sdk/code-mode");
  return {
    run: (source) => runCodeMode({ js: source, tools: {} }),
    check: (value) => {
      if (value !== 1) throw new Error(`unexpected value ${JSON.stringify(value)}`);
    },
  };
}

const middle = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function start({ framework, warmups, samples }) {
  const started = performance.now();
  const { run, check } = framework === "Junction" ? await junctionProgram() : await aiSDKProgram();
  check(await run(TRIVIAL));
  const coldMs = performance.now() - started;
  const early = [];
  for (let i = 0; i < warmups; i++) {
    const t = performance.now();
    check(await run(TRIVIAL));
    if (i < 10) early.push(performance.now() - t);
  }
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    check(await run(TRIVIAL));
    times.push(performance.now() - t);
  }
  return { coldMs, earlyMs: middle(early), warmMs: middle(times) };
}

async function bombs({ bombs: sources, rounds }) {
  const { run } = await junctionProgram();
  const figures = {};
  for (const [name, source] of Object.entries(sources)) {
    let stopMs = 0;
    // Every round's ending, not only the last: a slow round may have met the CPU limit first.
    const endings = new Set();
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const outcome = await run(source);
      stopMs = Math.max(stopMs, performance.now() - started);
      endings.add(outcome.kind === "limit" ? `limit: ${outcome.code}` : outcome.kind);
    }
    figures[name] = { stopMs, ending: [...endings].join(" / ") };
  }
  return figures;
}

const task = JSON.parse(process.argv[2] ?? "{}");
const tasks = { start, bombs };
if (!tasks[task.task]) throw new Error(`code-mode-child: unknown task ${JSON.stringify(task.task)}`);
console.log(JSON.stringify(await tasks[task.task](task)));
// The AI SDK keeps a worker pool alive.
process.exit(0);
