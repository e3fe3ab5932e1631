// Code mode (issue 35): Junction's `codeMode` with `quickjsSandbox()` against the AI SDK's
// `@ai-sdk/code-mode`, measured in the same run on the same tasks and the same real MCP servers
// over stdio: warm and cold starts (Node, and Bun and Deno where installed), the cost of a
// program's MCP call over a direct one, how fast a memory bomb is stopped, and on the task suite
// of code-mode-tasks.ts the input tokens and the share of the tools' payload kept out of the
// model's context.
// Run: pnpm --filter @junction/bench bench:code-mode [--smoke]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { DEFAULT_SANDBOX_LIMITS } from "@junction/sandbox-quickjs";
import { notes } from "../servers/fixture-text.mjs";
import { trackerIssues } from "../servers/issue-tracker-data.mjs";
import {
  type BombFigures,
  benchMemoryBombs,
  benchNativeLoop,
  benchNestedCalls,
  benchRuntimeBombs,
  benchStarts,
  FRAMEWORKS,
  type Framework,
  findRuntimes,
  junctionSandbox,
  NATIVE_LOOP,
  type NativeLoopFigures,
  type NestedCallFigures,
  type Runtime,
  type StartFigures,
} from "./code-mode-sandbox-timings.ts";
import { codeModeTasks, taskServers } from "./code-mode-tasks.ts";
import { runAISDKTask, runJunctionTask, type TaskRun, type TaskVariant } from "./code-mode-token-runs.ts";
import { formatMs, formatRatio, table } from "./stats.ts";

/** How much a run measures: a full run, or a smoke run (once each, a handful of calls). */
export const CODE_MODE_SETTINGS = {
  full: {
    processes: 7,
    warmups: 20,
    samples: 200,
    nestedCalls: 50,
    nestedWarmupRounds: 10,
    nestedRounds: 30,
    bombRounds: 3,
  },
  smoke: {
    processes: 1,
    warmups: 3,
    samples: 5,
    nestedCalls: 3,
    nestedWarmupRounds: 1,
    nestedRounds: 1,
    bombRounds: 1,
  },
} as const;

/** Junction's targets (issue 35), and the AI SDK's own figures quoted there. */
export const CODE_MODE_TARGETS = {
  warmMs: 1.5,
  coldMs: 150,
  nestedCallMs: 0.25,
  bombMs: 1_000,
  fanOutTokenCut: 0.85,
  payloadKeptOut: 0.995,
  controlExtra: 0.05,
} as const;
const AI_SDK_QUOTED = {
  warm: "5.1 ms",
  cold: "712 ms",
  nested: "0.80–0.93 ms",
  tokenCut: "−83%",
  payload: "99.8%",
  control: "+16.2%",
} as const;

export interface TokenSummary {
  framework: "Junction" | "AI SDK";
  /** Fan-out suite: code mode's input tokens against direct calls, a call per turn (and a wave per turn). */
  fanOutCut: number;
  fanOutCutWaves: number;
  /** Fan-out suite: the share of the tools' result bytes that did not reach the model. */
  payloadKeptOut: number;
  /** The one-call control: code mode on (the model calls directly) against code mode off. */
  controlExtra: number;
  requestsDirect: number;
  requestsCode: number;
}

export interface CodeModeFigures {
  runtimes: Runtime[];
  starts: StartFigures[];
  nested: NestedCallFigures[];
  bombs: BombFigures[];
  nativeLoop: NativeLoopFigures[];
  runs: TaskRun[];
  tokens: TokenSummary[];
}

const FAN_OUT_VARIANTS: TaskVariant[] = ["direct, call per turn", "direct, wave per turn", "code mode"];

/** Runs every task of the suite through both frameworks in every variant, on fresh servers each time. */
async function benchTokens(log: (line: string) => void): Promise<TaskRun[]> {
  const servers = taskServers();
  const sandbox = junctionSandbox();
  try {
    const runs: TaskRun[] = [];
    for (const task of codeModeTasks(servers.notesDir)) {
      const variants =
        task.kind === "fan-out" ? FAN_OUT_VARIANTS : (["direct, call per turn", "code mode"] as const);
      for (const variant of variants) {
        log(`bench: code mode: ${task.name} (${variant})…`);
        for (const run of [
          await runJunctionTask({ task, variant, servers, sandbox }),
          await runAISDKTask({ task, variant, servers }),
        ]) {
          const expected = task.waves.flat().length;
          if (run.calls !== expected)
            throw new Error(
              `${run.framework}, ${task.name} (${variant}): ${run.calls} tool calls, expected ${expected}`,
            );
          runs.push(run);
        }
      }
    }
    return runs;
  } finally {
    servers.cleanup();
  }
}

function summarizeTokens(runs: TaskRun[]): TokenSummary[] {
  return FRAMEWORKS.map((framework) => {
    const of = (kind: TaskRun["kind"], variant: TaskVariant) =>
      runs.filter((run) => run.framework === framework && run.kind === kind && run.variant === variant);
    const sum = (list: TaskRun[], field: "inputTokens" | "producedBytes" | "reachedBytes" | "requests") =>
      list.reduce((total, run) => total + run[field], 0);
    const code = of("fan-out", "code mode");
    const direct = of("fan-out", "direct, call per turn");
    return {
      framework,
      fanOutCut: 1 - sum(code, "inputTokens") / sum(direct, "inputTokens"),
      fanOutCutWaves:
        1 - sum(code, "inputTokens") / sum(of("fan-out", "direct, wave per turn"), "inputTokens"),
      payloadKeptOut: 1 - sum(code, "reachedBytes") / sum(code, "producedBytes"),
      controlExtra:
        sum(of("control", "code mode"), "inputTokens") /
          sum(of("control", "direct, call per turn"), "inputTokens") -
        1,
      requestsDirect: sum([...direct, ...of("control", "direct, call per turn")], "requests"),
      requestsCode: sum([...code, ...of("control", "code mode")], "requests"),
    };
  });
}

/** Every code-mode figure, in one run. */
export async function benchCodeMode(parts: {
  smoke: boolean;
  log: (line: string) => void;
}): Promise<CodeModeFigures> {
  const { smoke, log } = parts;
  const settings = CODE_MODE_SETTINGS[smoke ? "smoke" : "full"];
  // Bun and Deno where they are installed (a smoke run too: one process each), else a row saying so.
  const runtimes = await findRuntimes();
  const skipped = runtimes.filter((runtime) => !runtime.executable);
  log(
    `bench: code mode: cold and warm starts on ${runtimes
      .filter((runtime) => runtime.executable)
      .map((runtime) => `${runtime.name} ${runtime.version}`)
      .join(", ")}${skipped.map((runtime) => `; ${runtime.name} SKIPPED: ${runtime.missing}`).join("")}…`,
  );
  const starts = await benchStarts({
    runtimes,
    processes: settings.processes,
    warmups: settings.warmups,
    samples: settings.samples,
  });
  log("bench: code mode: a program's MCP calls against direct ones…");
  const sandbox = junctionSandbox();
  const nested = await benchNestedCalls({
    sandbox,
    calls: settings.nestedCalls,
    rounds: settings.nestedRounds,
    warmupRounds: settings.nestedWarmupRounds,
  });
  log("bench: code mode: memory bombs…");
  const bombs = [
    ...(await benchMemoryBombs({ sandbox, rounds: settings.bombRounds })),
    ...(await benchRuntimeBombs({ runtimes, rounds: settings.bombRounds })),
  ];
  log("bench: code mode: a loop of huge-BigInt conversions…");
  const nativeLoop = await benchNativeLoop({ smoke });
  const runs = await benchTokens(log);
  return { runtimes, starts, nested, bombs, nativeLoop, runs, tokens: summarizeTokens(runs) };
}

/** What is missing or not a number of the right sign (run.ts fails the run on any). */
export function codeModeProblems(figures: CodeModeFigures): string[] {
  const wrong: string[] = [];
  const positive = (label: string, value: number) => {
    if (!(Number.isFinite(value) && value > 0)) wrong.push(`code mode: ${label} is ${value}`);
  };
  for (const f of figures.starts) {
    positive(`${f.framework} cold start on ${f.runtime}`, f.coldMs);
    positive(`${f.framework} warm start on ${f.runtime}`, f.warmMs);
  }
  if (!figures.starts.some((f) => f.runtime === "Node")) wrong.push("code mode: no start measured on Node");
  for (const f of figures.nested) {
    positive(`${f.framework} direct MCP call`, f.directMs);
    // A difference of two timings: finite, but not always positive in a one-round run.
    if (!Number.isFinite(f.sandboxMs) || !Number.isFinite(f.agentMs))
      wrong.push(`code mode: ${f.framework} nested call cost is not finite`);
  }
  for (const f of figures.bombs)
    positive(`${f.framework} stop of the ${f.bomb} bomb on ${f.runtime}`, f.stopMs);
  for (const f of figures.nativeLoop) {
    if (f.skipped !== undefined) continue;
    positive(`${f.framework} stop of the native loop`, f.stopMs);
    positive(`${f.framework} stall during the native loop`, f.stallMs);
  }
  for (const f of figures.runs)
    positive(`${f.framework} input tokens on ${f.task} (${f.variant})`, f.inputTokens);
  return wrong;
}

const percent = (share: number, digits = 1) => `${(share * 100).toFixed(digits)}%`;
const signed = (share: number) => `${share >= 0 ? "+" : "−"}${Math.abs(share * 100).toFixed(1)}%`;
const kilobytes = (bytes: number) => (bytes / 1024).toFixed(1);

/** A package's version, from the manifest above its entry (`entry`: a file of it, where it has no main entry). */
function versionOf(name: string, entry = name): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(entry));
  while (dir !== dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (parsed.name === name) return parsed.version ?? "?";
    }
    dir = dirname(dir);
  }
  return "?";
}

/** The section `pnpm bench` prints and writes: the headline table, then each measurement. */
export function codeModeSection(figures: CodeModeFigures): string {
  const { starts, nested, bombs, nativeLoop, runs, tokens } = figures;
  const fixtureNotes = notes();
  const noteBytes = fixtureNotes.map((note) => Buffer.byteLength(note.text));
  const toolCount =
    runs.find((run) => run.framework === "AI SDK" && run.variant !== "code mode")?.toolsOffered ?? 0;
  const start = (runtime: string, framework: string) =>
    starts.find((f) => f.runtime === runtime && f.framework === framework);
  const nestedOf = (framework: string) => nested.find((f) => f.framework === framework);
  const slowestBomb = (framework: string) =>
    Math.max(...bombs.filter((f) => f.runtime === "Node" && f.framework === framework).map((f) => f.stopMs));
  const tokensOf = (framework: string) => tokens.find((f) => f.framework === framework)!;
  const ours = tokensOf("Junction");
  const theirs = tokensOf("AI SDK");
  const pair = (a: number | undefined, b: number | undefined, format: (value: number) => string) => [
    a === undefined ? "—" : format(a),
    b === undefined ? "—" : format(b),
    a === undefined || b === undefined ? "—" : formatRatio(a / b),
  ];
  const headline = table(
    ["", "Junction", "AI SDK", "Junction / AI SDK", "Junction's target", "AI SDK's figure (issue 35)"],
    [
      [
        "warm start, Node (ms)",
        ...pair(start("Node", "Junction")?.warmMs, start("Node", "AI SDK")?.warmMs, formatMs),
        `≤ ${CODE_MODE_TARGETS.warmMs}`,
        AI_SDK_QUOTED.warm,
      ],
      [
        "cold first run, Node (ms)",
        ...pair(start("Node", "Junction")?.coldMs, start("Node", "AI SDK")?.coldMs, formatMs),
        `≤ ${CODE_MODE_TARGETS.coldMs}`,
        AI_SDK_QUOTED.cold,
      ],
      [
        "a program's MCP call over a direct one, through the agent (ms)",
        ...pair(nestedOf("Junction")?.agentMs, nestedOf("AI SDK")?.agentMs, formatMs),
        `≤ ${CODE_MODE_TARGETS.nestedCallMs}`,
        AI_SDK_QUOTED.nested,
      ],
      [
        "the same, the sandbox alone (ms)",
        ...pair(nestedOf("Junction")?.sandboxMs, nestedOf("AI SDK")?.sandboxMs, formatMs),
        "—",
        "—",
      ],
      [
        "memory bomb stopped after, Node (ms, slowest)",
        ...pair(slowestBomb("Junction"), slowestBomb("AI SDK"), formatMs),
        `< ${CODE_MODE_TARGETS.bombMs}`,
        "—",
      ],
      [
        "fan-out input tokens vs direct (a call per turn)",
        signed(-ours.fanOutCut),
        signed(-theirs.fanOutCut),
        "—",
        `≤ −${percent(CODE_MODE_TARGETS.fanOutTokenCut, 0)}`,
        AI_SDK_QUOTED.tokenCut,
      ],
      [
        "fan-out input tokens vs direct (a wave of calls per turn)",
        signed(-ours.fanOutCutWaves),
        signed(-theirs.fanOutCutWaves),
        "—",
        "—",
        "—",
      ],
      [
        "fan-out tool payload kept out of the context",
        percent(ours.payloadKeptOut),
        percent(theirs.payloadKeptOut),
        "—",
        `≥ ${percent(CODE_MODE_TARGETS.payloadKeptOut)}`,
        AI_SDK_QUOTED.payload,
      ],
      [
        "one-call control: input tokens with code mode on",
        signed(ours.controlExtra),
        signed(theirs.controlExtra),
        "—",
        `≤ +${percent(CODE_MODE_TARGETS.controlExtra, 0)}`,
        AI_SDK_QUOTED.control,
      ],
      [
        "model turns, whole suite (direct a call per turn → code mode)",
        `${ours.requestsDirect} → ${ours.requestsCode}`,
        `${theirs.requestsDirect} → ${theirs.requestsCode}`,
        "—",
        "—",
        "22 → 16",
      ],
    ],
  );

  const runtimeRows = figures.runtimes.flatMap((runtime) => {
    if (!runtime.executable)
      return [
        [
          runtime.name,
          `SKIPPED: ${runtime.missing ?? "not found"}`,
          "—",
          "—",
          "—",
          "—",
          "—",
          "—",
          "—",
          "—",
          "—",
        ],
      ];
    const a = start(runtime.name, "Junction");
    const b = start(runtime.name, "AI SDK");
    return [
      [
        `${runtime.name} ${runtime.version}`,
        String(a?.processes ?? 0),
        ...pair(a?.coldMs, b?.coldMs, formatMs),
        ...pair(a?.earlyMs, b?.earlyMs, formatMs),
        ...pair(a?.warmMs, b?.warmMs, formatMs),
      ],
    ];
  });
  const startsTable = table(
    [
      "runtime",
      "processes",
      "Junction cold ms",
      "AI SDK cold ms",
      "cold ratio",
      "Junction next 10 ms",
      "AI SDK next 10 ms",
      "next 10 ratio",
      "Junction warm ms",
      "AI SDK warm ms",
      "warm ratio",
    ],
    runtimeRows,
  );

  const nestedTable = table(
    ["per MCP call (echo server, stdio)", "Junction ms", "AI SDK ms", "Junction / AI SDK"],
    [
      [
        "a direct call through the client",
        ...pair(nestedOf("Junction")?.directMs, nestedOf("AI SDK")?.directMs, formatMs),
      ],
      [
        "a program's call over a direct one, the sandbox alone",
        ...pair(nestedOf("Junction")?.sandboxMs, nestedOf("AI SDK")?.sandboxMs, formatMs),
      ],
      [
        "a program's call over a direct one, through the agent",
        ...pair(nestedOf("Junction")?.agentMs, nestedOf("AI SDK")?.agentMs, formatMs),
      ],
    ],
  );

  const bombRuntimes = [...new Set(bombs.map((f) => f.runtime))];
  const bombsTable = table(
    [
      "memory bomb",
      "runtime",
      "Junction stopped after ms",
      "how it ended",
      "AI SDK stopped after ms",
      "how it ended",
    ],
    [
      ...bombRuntimes.flatMap((runtime) =>
        [...new Set(bombs.map((f) => f.bomb))].map((bomb) => {
          const of = (framework: Framework) =>
            bombs.find((f) => f.runtime === runtime && f.bomb === bomb && f.framework === framework);
          const a = of("Junction");
          const b = of("AI SDK");
          return [
            bomb,
            runtime,
            a ? formatMs(a.stopMs) : "—",
            a?.ending ?? "—",
            b ? formatMs(b.stopMs) : "not measured",
            b?.ending ?? "—",
          ];
        }),
      ),
      ...figures.runtimes
        .filter((runtime) => !runtime.executable)
        .map((runtime) => [
          "both",
          runtime.name,
          "not measured",
          runtime.missing ?? "—",
          "not measured",
          "—",
        ]),
    ],
  );

  const nativeLoopTable = table(
    [
      "a loop of huge-BigInt conversions",
      "stopped after ms",
      "the calling thread's longest stall ms",
      "how it ended",
    ],
    nativeLoop.map((f) => [
      f.framework === "Junction" ? 'Junction, `quickjsSandbox({ thread: "worker" })`' : "AI SDK",
      f.skipped ?? formatMs(f.stopMs),
      f.skipped === undefined ? formatMs(f.stallMs) : "—",
      f.ending,
    ]),
  );

  const taskNames = [...new Set(runs.map((run) => run.task))];
  const taskRows = taskNames.flatMap((task) => {
    const of = (framework: string, variant: TaskVariant) =>
      runs.find((run) => run.task === task && run.framework === framework && run.variant === variant);
    const variants = [...new Set(runs.filter((run) => run.task === task).map((run) => run.variant))];
    return variants.map((variant) => {
      const a = of("Junction", variant)!;
      const b = of("AI SDK", variant)!;
      const directA = of("Junction", "direct, call per turn")!;
      const directB = of("AI SDK", "direct, call per turn")!;
      const label =
        a.kind === "control" && variant === "code mode" ? "code mode on, called directly" : variant;
      return [
        task,
        label,
        `${a.requests} / ${b.requests}`,
        String(a.calls),
        String(a.inputTokens),
        String(b.inputTokens),
        formatRatio(a.inputTokens / b.inputTokens),
        variant === "direct, call per turn"
          ? "—"
          : `${signed(a.inputTokens / directA.inputTokens - 1)} / ${signed(b.inputTokens / directB.inputTokens - 1)}`,
        `${kilobytes(a.reachedBytes)} / ${kilobytes(b.reachedBytes)} of ${kilobytes(a.producedBytes)}`,
      ];
    });
  });
  const tokensTable = table(
    [
      "task",
      "how the model works",
      "model requests (Junction / AI SDK)",
      "tool calls",
      "Junction input tokens",
      "AI SDK input tokens",
      "Junction / AI SDK",
      "vs a call per turn (Junction / AI SDK)",
      "tool result KB that reached the model (Junction / AI SDK) of those produced",
    ],
    taskRows,
  );

  return [
    `Junction's \`codeMode\` with \`quickjsSandbox()\` (@junction/sandbox-quickjs) against \`@ai-sdk/code-mode\` ${versionOf("@ai-sdk/code-mode")} (with ai ${versionOf("ai")}), both with their default limits, measured in this run. Task set: \`bench/src/code-mode-tasks.ts\` (three fan-out tasks and a one-call control, written before it was first measured and not changed to meet a target) over two real MCP servers on stdio, started fresh for every run: @modelcontextprotocol/server-filesystem ${versionOf("@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-filesystem/dist/index.js")} over ${fixtureNotes.length} notes (${kilobytes(Math.min(...noteBytes))}–${kilobytes(Math.max(...noteBytes))} KB each), and a fake issue tracker (\`bench/servers/issue-tracker-server.mjs\`, ${trackerIssues().length} issues with bodies and comments); every agent has both servers' tools (${toolCount} of them).`,
    "",
    headline,
    "",
    startsTable,
    "",
    `Cold: a fresh process imports the framework's code-mode module and runs \`return 1;\`, timed from before the import to the result (the runtime's own start not counted); next 10: the median of the ten executions right after it (on V8, Junction's QuickJS WebAssembly runs as Liftoff's baseline code until its hot functions are tiered up to TurboFan; measured by hand, these take 2–4 ms under \`node --no-liftoff\`); warm: in the same process after ${CODE_MODE_SETTINGS.full.warmups} more runs, the median of ${CODE_MODE_SETTINGS.full.samples} new executions of the same program (Junction: \`sandbox.run()\`, each on the engine written back to its snapshot of before any run; AI SDK: \`experimental_runCodeMode()\`, a worker thread each). Medians over the processes, the frameworks alternating. The script is the same file on every runtime (\`bench/src/code-mode-child.mjs\`: \`node\`, \`bun\`, \`deno run -A\`; not \`bun -e\`, which runs WebAssembly many times slower than Bun runs a file). A runtime that is not installed is SKIPPED, and says so in each table.`,
    "",
    nestedTable,
    "",
    `Per MCP call to the echo server over stdio, through each framework's MCP client: a program making ${nested[0]?.calls ?? 0} calls one after the other (\`await tools.echo(...)\` in a loop) against ${nested[0]?.calls ?? 0} direct calls through the same client, over ${nested[0]?.rounds ?? 0} rounds after ${CODE_MODE_SETTINGS.full.nestedWarmupRounds} unmeasured ones (JIT and servers warmed up; with one, the median measured the warm-up); a program's per-call cost is its time with the calls minus its time with none, per call, so starting the program (and the agent's two model turns) is not counted. "Through the agent": the program in a scripted model turn (Junction: \`Agent\` with \`codeMode\`, each call validated, decided, journaled and reported; AI SDK: \`generateText\` with \`codeModeTool()\`); "the sandbox alone": \`sandbox.run()\` with a host function calling the client, against \`experimental_runCodeMode()\` with the MCP tool. Medians over the rounds.`,
    "",
    bombsTable,
    "",
    `From the start of the execution to its end, the slowest of ${bombs[0]?.rounds ?? 0} rounds, default limits; on Node in the bench's process, on Bun and Deno in a fresh process of each (Junction only) (Junction: \`memoryBytes\` ${DEFAULT_SANDBOX_LIMITS.memoryBytes / 2 ** 20} MiB, \`cpuMs\` ${DEFAULT_SANDBOX_LIMITS.cpuMs} ms of guest CPU, \`wallMs\` ${DEFAULT_SANDBOX_LIMITS.wallMs / 1000} s; AI SDK: \`memoryLimitBytes\` 64 MiB, \`timeoutMs\` 30 s).`,
    "",
    nativeLoopTable,
    "",
    `\`${NATIVE_LOOP.replace("\n", " ")}\`, once each, default limits: each \`String(x)\` is one native call of seconds inside QuickJS, which checks no interrupt inside it. Junction on a worker thread: ended from the calling thread ${DEFAULT_SANDBOX_LIMITS.cpuMs} ms of guest CPU plus 250 ms in; with the default \`quickjsSandbox()\` (the calling thread) the loop would hold the bench's thread for minutes, so it is not run (the sandbox's own bench times one conversion there). The AI SDK: a worker thread per execution, ended at its 30 s timeout. Longest stall: the calling thread's longest gap between 10 ms timer ticks.`,
    "",
    tokensTable,
    "",
    "Input tokens: every request the model received, counted with Junction's one estimator (`estimateRequestSize`; the AI SDK's requests converted to Junction's neutral messages first, tool definitions on the fields a provider sends: name, description, input schema). Direct: code mode off, the model calls one tool per turn (\"a call per turn\"), or every independent call of a step at once (\"a wave per turn\": list, then all reads in one turn; close to what the filesystem server's own `read_multiple_files` would cost, which the scripted direct runs do not use). Code mode: the model writes one program. The control calls one tool with code mode on, so what it adds is the program tool's definition in each request. Payload: the UTF-8 bytes of the tools' results (their text) against the bytes of tool results in the last conversation the model was sent (for a program, its whole result: the return value, and for Junction the count of calls per tool, with a line for each that did not succeed). The model's answers are scripted, the same in every variant; the stale labels are checked on the tracker after each run.",
  ].join("\n");
}

/** Junction's code-mode targets as rows of the Targets table: met, or **short**. */
export function codeModeTargets(figures: CodeModeFigures): string[][] {
  const verdict = (met: boolean) => (met ? "met" : "**short**");
  const rows: string[][] = [];
  const aiStart = (runtime: string) =>
    figures.starts.find((f) => f.runtime === runtime && f.framework === "AI SDK");
  for (const f of figures.starts.filter((entry) => entry.framework === "Junction")) {
    const peer = aiStart(f.runtime);
    rows.push([
      `code mode warm start ≤ ${CODE_MODE_TARGETS.warmMs} ms (${f.runtime})`,
      `${formatMs(f.warmMs)} ms (AI SDK ${peer ? formatMs(peer.warmMs) : "—"} ms)`,
      verdict(f.warmMs <= CODE_MODE_TARGETS.warmMs),
    ]);
    rows.push([
      `code mode cold first run ≤ ${CODE_MODE_TARGETS.coldMs} ms (${f.runtime})`,
      `${formatMs(f.coldMs)} ms (AI SDK ${peer ? formatMs(peer.coldMs) : "—"} ms)`,
      verdict(f.coldMs <= CODE_MODE_TARGETS.coldMs),
    ]);
  }
  for (const runtime of figures.runtimes.filter((entry) => !entry.executable))
    rows.push([
      `code mode warm and cold starts and a memory bomb on ${runtime.name}`,
      `SKIPPED: ${runtime.missing ?? "not found"}`,
      "not measured",
    ]);
  const ours = figures.nested.find((f) => f.framework === "Junction");
  const peer = figures.nested.find((f) => f.framework === "AI SDK");
  if (ours) {
    rows.push([
      `a program's MCP call ≤ ${CODE_MODE_TARGETS.nestedCallMs} ms over a direct one (through the agent)`,
      `${formatMs(ours.agentMs)} ms (the sandbox alone ${formatMs(ours.sandboxMs)} ms; AI SDK ${peer ? `${formatMs(peer.agentMs)} / ${formatMs(peer.sandboxMs)}` : "—"} ms)`,
      verdict(ours.agentMs <= CODE_MODE_TARGETS.nestedCallMs),
    ]);
  }
  for (const runtime of [...new Set(figures.bombs.map((f) => f.runtime))]) {
    const ourBombs = figures.bombs.filter((f) => f.framework === "Junction" && f.runtime === runtime);
    rows.push([
      `a memory bomb stopped in < ${CODE_MODE_TARGETS.bombMs / 1000} s (${runtime})`,
      `${ourBombs.map((f) => `${f.bomb} ${formatMs(f.stopMs)} ms (${f.ending})`).join("; ")}`,
      verdict(Math.max(...ourBombs.map((f) => f.stopMs)) < CODE_MODE_TARGETS.bombMs),
    ]);
  }
  const tokens = figures.tokens.find((f) => f.framework === "Junction")!;
  const theirs = figures.tokens.find((f) => f.framework === "AI SDK")!;
  rows.push([
    `code mode input tokens ≥ ${percent(CODE_MODE_TARGETS.fanOutTokenCut, 0)} below direct calls on fan-out (a call per turn)`,
    `${signed(-tokens.fanOutCut)} (a wave per turn ${signed(-tokens.fanOutCutWaves)}; AI SDK ${signed(-theirs.fanOutCut)})`,
    verdict(tokens.fanOutCut >= CODE_MODE_TARGETS.fanOutTokenCut),
  ]);
  rows.push([
    `code mode keeps ≥ ${percent(CODE_MODE_TARGETS.payloadKeptOut)} of the tools' payload out of the context (fan-out)`,
    `${percent(tokens.payloadKeptOut)} (AI SDK ${percent(theirs.payloadKeptOut)})`,
    verdict(tokens.payloadKeptOut >= CODE_MODE_TARGETS.payloadKeptOut),
  ]);
  rows.push([
    `code mode on costs ≤ +${percent(CODE_MODE_TARGETS.controlExtra, 0)} input tokens on a one-call task`,
    `${signed(tokens.controlExtra)} (AI SDK ${signed(theirs.controlExtra)})`,
    verdict(tokens.controlExtra <= CODE_MODE_TARGETS.controlExtra),
  ]);
  return rows;
}

if (import.meta.main) {
  // A full run also writes bench/results/code-mode.md (`pnpm bench` writes the same section into
  // latest.md); a smoke run writes nothing.
  const smoke = process.argv.includes("--smoke");
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const figures = await benchCodeMode({ smoke, log });
  const problems = codeModeProblems(figures);
  if (problems.length > 0) throw new Error(`bench: figures missing or wrong:\n  ${problems.join("\n  ")}`);
  const section = [
    codeModeSection(figures),
    ...(smoke
      ? []
      : ["", "Junction's targets:", "", table(["target", "measured", "verdict"], codeModeTargets(figures))]),
  ].join("\n");
  process.stdout.write(
    `## Code mode${smoke ? " (--smoke: a handful of samples, no targets)" : ""}\n\n${section}\n`,
  );
  if (!smoke) {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    writeFileSync(
      new URL("../results/code-mode.md", import.meta.url),
      `# Code mode\n\nMeasured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC at commit ${commit}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, load average ${loadavg()[0]!.toFixed(1)} at the end. Reproduce with \`pnpm --filter @junction/bench bench:code-mode\`.\n\n${section}\n`,
    );
    log("bench: written to bench/results/code-mode.md");
  }
}
