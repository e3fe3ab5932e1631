// The code-mode bench's timings: a warm start and a cold first run of a trivial program (in a
// fresh process, on Node and on Bun and Deno where they are installed), the cost of a program's
// MCP call over the same call made directly through the same client, and how long a memory bomb
// runs before it is stopped. Junction's `quickjsSandbox()` (@junction/sandbox-quickjs) against the
// AI SDK's `@ai-sdk/code-mode` (its QuickJS runner `run`, one worker thread per execution), both
// with their default limits.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  experimental_codeModeTool as codeModeTool,
  experimental_runCodeMode as runCodeMode,
} from "@ai-sdk/code-mode";
import { experimental_createMCPClient as createAISDKMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport as AISDKStdioTransport } from "@ai-sdk/mcp/mcp-stdio";
import { Agent, RUN_PROGRAM } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { quickjsSandbox } from "@junction/sandbox-quickjs";
import type { JSONValue, Sandbox } from "@junction/types";
import { type Tool as AISDKTool, generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { echoServerPath } from "./mcp-clients.ts";
import { ownCPUMicros } from "./process-cpu.ts";
import { median, shuffled, withLongestStall } from "./stats.ts";

const run = promisify(execFile);
const benchDir = fileURLToPath(new URL("..", import.meta.url));

export type Framework = "Junction" | "AI SDK";
export const FRAMEWORKS: Framework[] = ["Junction", "AI SDK"];

/** A runtime the start-up figures are measured on. */
export interface Runtime {
  name: "Node" | "Bun" | "Deno";
  /** The executable, or why there is none. */
  executable?: string;
  version?: string;
  missing?: string;
}

export interface StartFigures {
  runtime: Runtime["name"];
  framework: Framework;
  /** Fresh processes measured. */
  processes: number;
  /** Module load + the first trivial program, median over the processes. */
  coldMs: number;
  /** The next (up to) ten executions after the cold one: median of the processes' medians. */
  earlyMs: number;
  /** A new execution of a trivial program once warm: median of the processes' medians. */
  warmMs: number;
}

// What a fresh process runs: code-mode-child.mjs, from a file on every runtime (see there why).
const childScript = fileURLToPath(new URL("./code-mode-child.mjs", import.meta.url));

type ChildTask =
  | { task: "start"; framework: Framework; warmups: number; samples: number }
  | { task: "bombs"; bombs: Record<string, string>; rounds: number };

function commandFor(runtime: Runtime, task: ChildTask): [string, string[]] {
  const argument = JSON.stringify(task);
  switch (runtime.name) {
    case "Node":
    case "Bun":
      return [runtime.executable!, [childScript, argument]];
    case "Deno":
      return [runtime.executable!, ["run", "--allow-all", "--quiet", childScript, argument]];
    default: {
      const unknown: never = runtime.name;
      throw new Error(`no command for ${String(unknown)}`);
    }
  }
}

/** Runs one task in a fresh process of `runtime` (in the bench's folder, for its modules); its JSON line. */
async function runChild<Result>(runtime: Runtime, task: ChildTask): Promise<Result> {
  const [command, args] = commandFor(runtime, task);
  let stdout: string;
  try {
    ({ stdout } = await run(command, args, { cwd: benchDir, encoding: "utf8", timeout: 120_000 }));
  } catch (error) {
    const detail = task.task === "start" ? `start, ${task.framework}` : "memory bombs";
    throw new Error(
      `code mode ${detail} on ${runtime.name}: ${(error as { stderr?: string }).stderr?.slice(-600) ?? error}`,
    );
  }
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Result;
}

/**
 * Node (this process's executable), and Bun and Deno: from `BUN` / `DENO`, else the bench's own
 * (its devDependencies `bun` and `deno`, the versions the runtime scenarios of tests/ pin, so a
 * `pnpm install` brings them), else the PATH; a missing one says how to get it.
 */
export async function findRuntimes(): Promise<Runtime[]> {
  const onPath = (name: string) =>
    (process.env.PATH ?? "")
      .split(delimiter)
      .map((dir) => join(dir, name))
      .find((candidate) => existsSync(candidate));
  const installed = (file: string) => {
    const candidate = join(benchDir, "node_modules", file);
    return existsSync(candidate) ? candidate : undefined;
  };
  const found: Runtime[] = [{ name: "Node", executable: process.execPath, version: process.version }];
  for (const [name, variable, command, binary] of [
    ["Bun", "BUN", "bun", "bun/bin/bun.exe"],
    ["Deno", "DENO", "deno", "deno/deno"],
  ] as const) {
    const executable = process.env[variable] ?? installed(binary) ?? onPath(command);
    if (!executable) {
      found.push({
        name,
        missing: `not installed (\`pnpm install\` brings the bench's own, or \`npm install --global ${command}\`, or set ${variable} to its path)`,
      });
      continue;
    }
    try {
      const { stdout } = await run(executable, ["--version"], { encoding: "utf8" });
      found.push({
        name,
        executable,
        version: stdout
          .trim()
          .split("\n")[0]!
          .replace(/^deno /, "")
          .replace(/ \(.*\)$/, ""),
      });
    } catch (error) {
      found.push({ name, missing: `${executable} did not run: ${(error as Error).message.split("\n")[0]}` });
    }
  }
  return found;
}

/** Cold and warm starts: `processes` fresh processes per runtime and framework, interleaved. */
export async function benchStarts(parts: {
  runtimes: Runtime[];
  processes: number;
  warmups: number;
  samples: number;
}): Promise<StartFigures[]> {
  const { runtimes, processes, warmups, samples } = parts;
  const measured = new Map<string, { cold: number[]; early: number[]; warm: number[] }>();
  for (let round = 0; round < processes; round++) {
    for (const runtime of runtimes.filter((candidate) => candidate.executable)) {
      for (const framework of shuffled(FRAMEWORKS)) {
        const figures = await runChild<{ coldMs: number; earlyMs: number; warmMs: number }>(runtime, {
          task: "start",
          framework,
          warmups,
          samples,
        });
        const key = `${runtime.name}/${framework}`;
        const entry = measured.get(key) ?? { cold: [], early: [], warm: [] };
        entry.cold.push(figures.coldMs);
        entry.early.push(figures.earlyMs);
        entry.warm.push(figures.warmMs);
        measured.set(key, entry);
      }
    }
  }
  return [...measured].map(([key, entry]) => {
    const [runtime, framework] = key.split("/") as [Runtime["name"], Framework];
    return {
      runtime,
      framework,
      processes: entry.cold.length,
      coldMs: median(entry.cold),
      earlyMs: median(entry.early),
      warmMs: median(entry.warm),
    };
  });
}

export interface NestedCallFigures {
  framework: Framework;
  /** Calls per program (and direct calls per sample). */
  calls: number;
  rounds: number;
  /** One direct call through the client, ms (median over rounds). */
  directMs: number;
  /** Per call of a program run in the sandbox alone, its host function calling the client, ms. */
  sandboxMs: number;
  /** Per call of a program run by the agent (`run_program` / `code_mode` in a model turn), ms. */
  agentMs: number;
  /**
   * The same three figures in this process's CPU time (every thread, the server's excluded: it
   * serves both kinds of call alike), ms: what another process's load on a shared machine moves
   * far less than wall time.
   */
  cpu: { directMs: number; sandboxMs: number; agentMs: number };
}

const nestedProgram = (call: string, count: number) =>
  `let last;\nfor (let i = 0; i < ${count}; i++) last = await ${call}({ text: "call " + i });\nreturn ${count};`;

/** What one framework needs to time its nested calls: the direct call, and the program run two ways. */
interface NestedContender {
  framework: Framework;
  direct(): Promise<void>;
  sandbox(count: number): Promise<void>;
  agent(count: number): Promise<void>;
  close(): Promise<void>;
}

async function junctionNested(sandbox: Sandbox): Promise<NestedContender> {
  const echo = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [echoServerPath],
    reconnect: false,
  });
  await echo.connect();
  const tool = (await echo.listTools()).find((candidate) => candidate.name === "echo")!;
  const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
  const expect = (value: unknown, count: number, where: string) => {
    if (value !== count) throw new Error(`Junction ${where}: the program returned ${JSON.stringify(value)}`);
  };
  return {
    framework: "Junction",
    direct: async () => {
      textOf(await tool.execute({ text: "call" }));
    },
    sandbox: async (count) => {
      const outcome = await sandbox.run({
        source: nestedProgram("tools.echo", count),
        functions: ["echo"],
        call: async (_name, args) => textOf(await tool.execute(args)) as JSONValue,
        clockMs: Date.now(),
        seed: 1,
      });
      expect(outcome.kind === "returned" ? outcome.value : outcome, count, "sandbox");
    },
    agent: async (count) => {
      // minTools: 1, since the echo server has one tool (code mode offers no program below 4 by default).
      const provider = scriptedModel([
        { toolCalls: [{ name: RUN_PROGRAM, input: { code: nestedProgram("tools.echo.echo", count) } }] },
        { text: "done" },
      ]);
      const agent = new Agent({
        provider,
        model: "scripted",
        mcps: [{ prefix: "echo", mcp: echo }],
        codeMode: { sandbox, minTools: 1 },
      });
      const result = await agent.send("call the echo tool").final;
      const output = JSON.stringify(provider.requests[1]?.messages.at(-1));
      if (result.text !== "done" || !output.includes(`Returned: ${count}`))
        throw new Error(`Junction agent: the program did not return ${count}: ${output.slice(0, 400)}`);
    },
    close: () => echo.close(),
  };
}

async function aiSDKNested(): Promise<NestedContender> {
  const client = await createAISDKMCPClient({
    transport: new AISDKStdioTransport({ command: process.execPath, args: [echoServerPath] }),
  });
  const echo = (await client.tools()).echo as AISDKTool;
  const options = { toolCallId: "direct", messages: [] } as never;
  return {
    framework: "AI SDK",
    direct: async () => {
      await echo.execute!({ text: "call" }, options);
    },
    sandbox: async (count) => {
      const value = await runCodeMode({ js: nestedProgram("tools.echo", count), tools: { echo } });
      if (value !== count) throw new Error(`AI SDK runCodeMode returned ${JSON.stringify(value)}`);
    },
    agent: async (count) => {
      let turn = 0;
      const usage = {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      };
      const model = new MockLanguageModelV4({
        doGenerate: async () =>
          turn++ === 0
            ? {
                content: [
                  {
                    type: "tool-call",
                    toolCallId: "program",
                    toolName: "code_mode",
                    input: JSON.stringify({ js: nestedProgram("tools.echo", count) }),
                  },
                ],
                finishReason: { unified: "tool-calls", raw: "tool_calls" },
                usage,
                warnings: [],
              }
            : {
                content: [{ type: "text", text: "done" }],
                finishReason: { unified: "stop", raw: "stop" },
                usage,
                warnings: [],
              },
      });
      const result = await generateText({
        model,
        tools: { code_mode: codeModeTool(), echo },
        experimental_toolCallers: { echo: ["code_mode"] },
        prompt: "call the echo tool",
        stopWhen: stepCountIs(3),
      });
      const programResult = result.steps[0]?.toolResults[0]?.output;
      if (result.text !== "done" || programResult !== count)
        throw new Error(`AI SDK agent: the program returned ${JSON.stringify(programResult)}`);
    },
    close: () => client.close(),
  };
}

/**
 * Per MCP call, a program's call against the same call made directly through the same client
 * (the echo server over stdio): in each round, `calls` direct calls, and a program making `calls`
 * calls one after the other and one making none, run in the sandbox alone and by the agent in a
 * model turn. A program's per-call cost is (time with `calls` calls − time with none) / `calls`,
 * so starting the program (and the agent's model turns) is not counted; the figure is that minus
 * a direct call's time. Medians over the rounds, the frameworks in a fresh order each round,
 * after `warmupRounds` unmeasured ones.
 */
export async function benchNestedCalls(parts: {
  sandbox: Sandbox;
  calls: number;
  rounds: number;
  /**
   * Unmeasured rounds first: modules, JIT, worker pools and the servers warmed up. One was too
   * few: round by round, the first ~10 after it still ran 0.3–0.6 ms a call (both frameworks
   * tiering up), the rest 0.1–0.3 ms, so the median measured the warm-up.
   */
  warmupRounds: number;
}): Promise<NestedCallFigures[]> {
  const { sandbox, calls, rounds, warmupRounds } = parts;
  const contenders = [await junctionNested(sandbox), await aiSDKNested()];
  type Samples = { direct: number[]; sandbox: number[]; agent: number[] };
  const empty = (): Samples => ({ direct: [], sandbox: [], agent: [] });
  const samples = new Map<Framework, { wall: Samples; cpu: Samples }>(
    contenders.map((contender) => [contender.framework, { wall: empty(), cpu: empty() }]),
  );
  const time = async (work: () => Promise<void>) => {
    const started = performance.now();
    const startedCPU = ownCPUMicros();
    await work();
    return { wall: performance.now() - started, cpu: (ownCPUMicros() - startedCPU) / 1000 };
  };
  try {
    for (let round = -warmupRounds; round < rounds; round++) {
      for (const contender of shuffled(contenders)) {
        const direct = await time(async () => {
          for (let i = 0; i < calls; i++) await contender.direct();
        });
        const sandboxEmpty = await time(() => contender.sandbox(0));
        const sandboxFull = await time(() => contender.sandbox(calls));
        const agentEmpty = await time(() => contender.agent(0));
        const agentFull = await time(() => contender.agent(calls));
        if (round < 0) continue;
        const entry = samples.get(contender.framework)!;
        for (const clock of ["wall", "cpu"] as const) {
          entry[clock].direct.push(direct[clock] / calls);
          entry[clock].sandbox.push((sandboxFull[clock] - sandboxEmpty[clock]) / calls);
          entry[clock].agent.push((agentFull[clock] - agentEmpty[clock]) / calls);
        }
      }
    }
  } finally {
    await Promise.allSettled(contenders.map((contender) => contender.close()));
  }
  const perCall = (entry: Samples) => {
    const directMs = median(entry.direct);
    return {
      directMs,
      sandboxMs: median(entry.sandbox) - directMs,
      agentMs: median(entry.agent) - directMs,
    };
  };
  return contenders.map(({ framework }) => {
    const entry = samples.get(framework)!;
    return { framework, calls, rounds, ...perCall(entry.wall), cpu: perCall(entry.cpu) };
  });
}

/** Two memory bombs: many small objects (the collector's worst case), and 1 MB strings. */
export const MEMORY_BOMBS = {
  "small objects": "const keep = [];\nwhile (true) keep.push({ n: keep.length, text: 'x' + keep.length });",
  "1 MB strings": "const keep = [];\nwhile (true) keep.push('x'.repeat(1 << 20) + keep.length);",
} as const;

export interface BombFigures {
  runtime: Runtime["name"];
  framework: Framework;
  bomb: keyof typeof MEMORY_BOMBS;
  rounds: number;
  /** From the start of the execution to its end, ms (the slowest of the rounds). */
  stopMs: number;
  /** How it ended, as the framework reports it: each distinct ending of the rounds, joined by " / ". */
  ending: string;
}

/** Each bomb run `rounds` times per framework with its default limits; the figure is the slowest. */
export async function benchMemoryBombs(parts: { sandbox: Sandbox; rounds: number }): Promise<BombFigures[]> {
  const { sandbox, rounds } = parts;
  const results: BombFigures[] = [];
  for (const [bomb, source] of Object.entries(MEMORY_BOMBS) as [keyof typeof MEMORY_BOMBS, string][]) {
    const times = new Map<Framework, { ms: number[]; endings: Set<string> }>();
    for (let round = 0; round < rounds; round++) {
      for (const framework of shuffled(FRAMEWORKS)) {
        const started = performance.now();
        let ending: string;
        if (framework === "Junction") {
          const outcome = await sandbox.run({
            source,
            functions: [],
            call: async () => null,
            clockMs: 0,
            seed: 1,
          });
          ending = outcome.kind === "limit" ? `limit: ${outcome.code}` : outcome.kind;
        } else {
          try {
            await runCodeMode({ js: source, tools: {} });
            ending = "returned";
          } catch (error) {
            const { name, code, message } = error as { name?: string; code?: string; message?: string };
            ending = `${name}${code ? ` (${code})` : ""}: ${(message ?? "").split("\n")[0]!.slice(0, 80)}`;
          }
        }
        const ms = performance.now() - started;
        const entry = times.get(framework) ?? { ms: [], endings: new Set<string>() };
        entry.ms.push(ms);
        // Every round's ending, not only the first: a slow round may have met the CPU limit first.
        entry.endings.add(ending);
        times.set(framework, entry);
      }
    }
    for (const framework of FRAMEWORKS) {
      const entry = times.get(framework)!;
      results.push({
        runtime: "Node",
        framework,
        bomb,
        rounds,
        stopMs: Math.max(...entry.ms),
        ending: [...entry.endings].join(" / "),
      });
    }
  }
  return results;
}

/**
 * The bombs on the other runtimes (Bun and Deno, where installed): Junction's sandbox with its
 * default limits in a fresh process of each, each bomb `rounds` times, the slowest. The AI SDK's
 * are measured on Node only ({@link benchMemoryBombs}).
 */
export async function benchRuntimeBombs(parts: {
  runtimes: Runtime[];
  rounds: number;
}): Promise<BombFigures[]> {
  const results: BombFigures[] = [];
  for (const runtime of parts.runtimes.filter((entry) => entry.executable && entry.name !== "Node")) {
    const figures = await runChild<Record<keyof typeof MEMORY_BOMBS, { stopMs: number; ending: string }>>(
      runtime,
      { task: "bombs", bombs: MEMORY_BOMBS, rounds: parts.rounds },
    );
    for (const bomb of Object.keys(MEMORY_BOMBS) as (keyof typeof MEMORY_BOMBS)[])
      results.push({
        runtime: runtime.name,
        framework: "Junction",
        bomb,
        rounds: parts.rounds,
        ...figures[bomb],
      });
  }
  return results;
}

/**
 * A loop of huge-BigInt conversions: each `String(x)` of a BigInt of about a million bits is one
 * native call of seconds inside QuickJS, which checks no interrupt inside it.
 */
export const NATIVE_LOOP = "const x = 7n ** 370000n;\nfor (;;) String(x);";

export interface NativeLoopFigures {
  /** Junction: `quickjsSandbox({ thread: "worker" })`; the AI SDK: its runner as it is. */
  framework: Framework;
  /** Set when it was not run: why. */
  skipped?: string;
  /** From the start of the execution to its end, ms. */
  stopMs: number;
  /** The calling thread's longest time without a 10 ms timer tick meanwhile, ms. */
  stallMs: number;
  ending: string;
}

/**
 * {@link NATIVE_LOOP} once per framework, default limits: Junction on a worker thread (on the
 * calling thread the loop holds it for minutes), the AI SDK's runner (a worker thread per
 * execution, ended at its 30 s timeout; not run in a smoke run).
 */
export async function benchNativeLoop(parts: { smoke: boolean }): Promise<NativeLoopFigures[]> {
  const onWorker = quickjsSandbox({ thread: "worker" });
  const ours = await withLongestStall(() =>
    onWorker.run({ source: NATIVE_LOOP, functions: [], call: async () => null, clockMs: 0, seed: 1 }),
  );
  const results: NativeLoopFigures[] = [
    {
      framework: "Junction",
      stopMs: ours.ms,
      stallMs: ours.stallMs,
      ending: ours.value.kind === "limit" ? `limit: ${ours.value.code}` : ours.value.kind,
    },
  ];
  if (parts.smoke) {
    results.push({
      framework: "AI SDK",
      skipped: "not run in --smoke: it runs to its 30 s timeout",
      stopMs: 0,
      stallMs: 0,
      ending: "—",
    });
    return results;
  }
  const theirs = await withLongestStall(() =>
    runCodeMode({ js: NATIVE_LOOP, tools: {} }).then(
      () => "returned",
      (error: unknown) => {
        const { name, code } = error as { name?: string; code?: string };
        return `${name}${code ? ` (${code})` : ""}`;
      },
    ),
  );
  results.push({ framework: "AI SDK", stopMs: theirs.ms, stallMs: theirs.stallMs, ending: theirs.value });
  return results;
}

/** Junction's sandbox as code mode uses it by default. */
export function junctionSandbox(): Sandbox {
  return quickjsSandbox();
}
