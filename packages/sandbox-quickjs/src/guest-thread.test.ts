import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import wasmfileVariant from "@jitl/quickjs-wasmfile-release-sync";
import type { SandboxOutcome } from "@junction/types";
import { beforeAll, describe, expect, it } from "vitest";
import { withLongestStall } from "../test/longest-stall.js";
import { program, recordingHost, THREADS } from "../test/program.js";
import { OVERRUN_NOTE } from "./guest-thread.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";
import { limitMessage, resolveSandboxLimits } from "./sandbox-limits.js";

// `thread: "worker"`: the guest on a worker thread, ended from the calling thread when one long
// native call holds it past a limit. The hostile call: a BigInt of about a million bits written in
// decimal, one native call of seconds inside which QuickJS checks no interrupt (README, "Known gaps").
const HUGE_DECIMAL = "const x = 7n ** 370000n; for (;;) String(x);";

beforeAll(() => {
  // From the sources, the worker's module is the built one (guest-thread.ts, workerEntry).
  const entry = fileURLToPath(new URL("../dist/guest-thread-worker.js", import.meta.url));
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`pnpm build\` in this package first`);
});

describe("a guest held inside one long native call", () => {
  it("is ended at its CPU limit, without holding the calling thread, and the next run is normal", async () => {
    const sandbox = quickjsSandbox({ thread: "worker", limits: { cpuMs: 100 } });
    const startedAt = performance.now();
    const { value: outcome, stallMs } = await withLongestStall(() =>
      sandbox.run(program(`console.log("about to convert"); console.warn("é".repeat(3)); ${HUGE_DECIMAL}`)),
    );
    const tookMs = performance.now() - startedAt;
    expect(outcome).toEqual({
      kind: "limit",
      code: "cpu",
      message: `${limitMessage("cpu", resolveSandboxLimits({ cpuMs: 100 }))} ${OVERRUN_NOTE}`,
      // What it logged before the call that held it, kept on the calling thread.
      console: "about to convert\n[warn] ééé\n",
    });
    // One conversion alone takes seconds; the thread was ended a grace period after the limit.
    expect(tookMs).toBeLessThan(2500);
    // The calling thread's timers kept running: on the host thread this stall is the whole call.
    expect(stallMs).toBeLessThan(1000);
    expect(await sandbox.run(program("return 6 * 7;"))).toEqual({ kind: "returned", value: 42, console: "" });
  });

  it("holds the calling thread when the guest runs on it (what the worker is for)", async () => {
    const sandbox = quickjsSandbox({ limits: { cpuMs: 100 } });
    const { value: outcome, stallMs } = await withLongestStall(() =>
      sandbox.run(program("const x = 7n ** 280000n; return String(x).length;")),
    );
    // The one conversion ran to its end, past the limit (no interrupt is checked inside it), and
    // the calling thread was held all along.
    expect(outcome).toEqual({ kind: "returned", value: expect.any(Number), console: "" });
    expect(stallMs).toBeGreaterThan(1000);
  });

  it("keeps what it logged up to the console limit, cut as the guest's own capture cuts it", async () => {
    const logs = 'for (let i = 0; i < 50; i++) console.log("line " + i + " ✓ " + "🙂".repeat(i % 3));';
    const limits = { cpuMs: 100, consoleBytes: 100 };
    const stuck = await quickjsSandbox({ thread: "worker", limits }).run(program(`${logs} ${HUGE_DECIMAL}`));
    const onHost = await quickjsSandbox({ limits }).run(program(`${logs} return 1;`));
    expect(onHost.console).toContain("…cut: console output past 100 bytes was dropped");
    expect(stuck).toMatchObject({ kind: "limit", code: "cpu", console: onHost.console });
  });

  it("is ended at its wall-clock limit", async () => {
    const sandbox = quickjsSandbox({ thread: "worker", limits: { cpuMs: 60_000, wallMs: 300 } });
    const outcome = await sandbox.run(program(HUGE_DECIMAL));
    expect(outcome).toMatchObject({ kind: "limit", code: "wall-time", console: "" });
  });

  it("is ended a grace period after an abort", async () => {
    const sandbox = quickjsSandbox({ thread: "worker", limits: { cpuMs: 60_000 } });
    const controller = new AbortController();
    const startedAt = performance.now();
    setTimeout(() => controller.abort(), 50);
    const outcome = await sandbox.run(program(HUGE_DECIMAL, { signal: controller.signal }));
    expect(outcome).toEqual({ kind: "aborted", console: "" });
    expect(performance.now() - startedAt).toBeLessThan(2500);
  });

  it("is ended after an abort that came while its thread was starting", async () => {
    const sandbox = quickjsSandbox({ thread: "worker", limits: { cpuMs: 60_000 } });
    const controller = new AbortController();
    const run = sandbox.run(program(HUGE_DECIMAL, { signal: controller.signal }));
    controller.abort();
    expect(await run).toEqual({ kind: "aborted", console: "" });
  });

  it("does not hold a run beside it, which has a thread of its own", async () => {
    const sandbox = quickjsSandbox({ thread: "worker", limits: { cpuMs: 1000 } });
    const stuck = sandbox.run(program(HUGE_DECIMAL));
    const host = recordingHost(({ args }) => args);
    const beside = await sandbox.run(
      program("const a = await tools.echo(1); const b = await tools.echo(2); return a + b;", {
        functions: ["echo"],
        call: host.call,
      }),
    );
    expect(beside).toEqual({ kind: "returned", value: 3, console: "" });
    expect(await stuck).toMatchObject({ kind: "limit", code: "cpu" });
  });
});

describe("a program on a worker thread", () => {
  const sandbox = quickjsSandbox({ thread: "worker", limits: { cpuMs: 30_000 } });

  it("calls tools on the calling thread, gets their results in issue order, and logs", async () => {
    const host = recordingHost(({ name, args }) => ({ name, args }));
    const outcome = await sandbox.run(
      program(
        `const [a, b] = await Promise.all([tools.github.get_issue({ n: 1 }), tools.echo("two")]);
         console.log("got", a.args.n);
         return [a, b, await tools.echo({ __proto__: { polluted: true }, ok: 1 })];`,
        { functions: ["github.get_issue", "echo"], call: host.call },
      ),
    );
    expect(outcome).toEqual({
      kind: "returned",
      value: [
        { name: "github.get_issue", args: { n: 1 } },
        { name: "echo", args: "two" },
        { name: "echo", args: { ok: 1 } },
      ],
      console: "got 1\n",
    });
    expect(host.calls.map(({ name, sequence }) => [name, sequence])).toEqual([
      ["github.get_issue", 1],
      ["echo", 2],
      ["echo", 3],
    ]);
  });

  it("gets a tool's results as the host thread's sandbox gives them: strings, undefined, not-JSON, errors", async () => {
    const answers: Record<string, () => unknown> = {
      text: () => "a\u0000b",
      nothing: () => undefined,
      big: () => 1n,
      date: () => new Date(0),
      fails: () => {
        throw Object.assign(new Error("no such issue"), { code: "not-found" });
      },
      rejects: () => Promise.reject("plain"),
    };
    const source = `
      const seen = {};
      for (const name of ${JSON.stringify(Object.keys(answers))}) {
        try { const value = await tools[name](); seen[name] = value === undefined ? "undefined" : value; }
        catch (error) { seen[name] = [error.name, error.code, error.message]; }
      }
      return seen;`;
    const call = async (name: string) => answers[name]!() as never;
    const functions = Object.keys(answers);
    const onWorker = await sandbox.run(program(source, { functions, call }));
    const onHost = await quickjsSandbox({ limits: { cpuMs: 30_000 } }).run(
      program(source, { functions, call }),
    );
    expect(onWorker).toEqual(onHost);
    expect(onWorker).toEqual({
      kind: "returned",
      value: {
        text: "a\u0000b",
        nothing: "undefined",
        // The rest of the message is the runtime's own (V8's, JavaScriptCore's).
        big: [
          "ToolError",
          "result-not-json",
          expect.stringMatching(/^The tool's result is not JSON: .*BigInt/),
        ],
        date: "1970-01-01T00:00:00.000Z",
        fails: ["ToolError", "not-found", "no such issue"],
        rejects: ["ToolError", "tool-error", "plain"],
      },
      console: "",
    });
  });

  it("ends with the guest's own limits and errors, as on the host thread", async () => {
    const outcomes: SandboxOutcome[] = await Promise.all([
      sandbox.run(program("for (;;) {}", { limits: { cpuMs: 100 } })),
      sandbox.run(program("const a = []; for (;;) a.push('x'.repeat(1024));")),
      sandbox.run(program("throw new TypeError('nope');")),
    ]);
    const cpuMessage = limitMessage("cpu", resolveSandboxLimits({ cpuMs: 100 }));
    expect(outcomes[0]).toMatchObject({ kind: "limit", code: "cpu", console: "" });
    // Stopped by the guest's own check, unless a busy machine let the watchdog end it first.
    expect([cpuMessage, `${cpuMessage} ${OVERRUN_NOTE}`]).toContain(
      (outcomes[0] as { message: string }).message,
    );
    expect(outcomes[1]).toMatchObject({ kind: "limit", code: "memory" });
    expect(outcomes[2]).toEqual({
      kind: "threw",
      error: { name: "TypeError", message: "nope" },
      console: "",
    });
  });

  it("refuses a program built wrong on the calling thread, naming what is wrong", async () => {
    await expect(sandbox.run({ ...program("return 1;"), call: "no" as never })).rejects.toThrow(
      "The program's call must be a function that answers tool calls.",
    );
    await expect(sandbox.run(program("return 1;", { limits: { cpuMs: 0 } }))).rejects.toThrow(
      'Sandbox limit "cpuMs" must be a positive number; got 0.',
    );
  });

  it("answers an abort before the run without starting it", async () => {
    expect(await sandbox.run(program("return 1;", { signal: AbortSignal.abort() }))).toEqual({
      kind: "aborted",
      console: "",
    });
  });
});

describe("the calling thread's context", () => {
  it("answers each tool call in the async context of the run that made it, as on the host thread, however threads are reused", async () => {
    const context = new AsyncLocalStorage<string>();
    for (const thread of THREADS) {
      const sandbox = quickjsSandbox({ thread, limits: { cpuMs: 30_000 } });
      const seen: [string, string | undefined][] = [];
      const run = (name: string) =>
        context.run(name, () =>
          sandbox.run(
            program("for (let i = 0; i < 3; i++) await tools.note(); return 1;", {
              functions: ["note"],
              call: async () => {
                seen.push([name, context.getStore()]);
                await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
                return null;
              },
            }),
          ),
        );
      // Rounds of two at once, then one alone: the idle thread made in one run's context serves another's.
      for (let round = 0; round < 3; round++) await Promise.all([run(`a${round}`), run(`b${round}`)]);
      await run("alone");
      expect(seen).toHaveLength(21);
      expect(
        seen.filter(([name, store]) => name !== store),
        thread,
      ).toEqual([]);
    }
  });
});

describe("quickjsSandbox's thread option", () => {
  it("refuses a variant with a worker thread, and a thread it does not know", () => {
    expect(() => quickjsSandbox({ thread: "worker", variant: wasmfileVariant })).toThrow(
      'quickjsSandbox({ thread: "worker" }) runs the default QuickJS build in its worker; a `variant` cannot be passed to a thread.',
    );
    expect(() => quickjsSandbox({ thread: "process" as never })).toThrow(
      'quickjsSandbox\'s thread must be "host" or "worker"; got "process".',
    );
  });
});
