import type { SandboxOutcome, SandboxProgram } from "@junction/types";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runOnPool } from "../test/run-on-pool.js";
import { createEnginePool, loadDefaultVariant } from "./engine-pool.js";

// Every way a run can end must hand back a sound engine, the same one, to the next run: written back
// to its snapshot, or (without one) with its runtime freed. QuickJS asserts, when a runtime is
// freed, that no value is still held: a handle the run forgot would print "Aborted(Assertion
// failed: ...)" and leave the engine broken.

let pool = createEnginePool(loadDefaultVariant);
let printed: string[];

beforeEach(() => {
  printed = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    printed.push(args.map(String).join(" "));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function run(source: string, overrides: Partial<SandboxProgram> = {}) {
  return runOnPool(pool, source, overrides);
}

const never = () => new Promise<never>(() => {});

const endings: [string, string, Partial<SandboxProgram>, Partial<SandboxOutcome>][] = [
  ["a return", "await tools.a(); return { ok: [1] };", { functions: ["a"] }, { kind: "returned" }],
  ["an error", "await tools.a(); throw new Error('x');", { functions: ["a"] }, { kind: "threw" }],
  ["a syntax error", "return (", {}, { kind: "threw" }],
  [
    "a ToolError caught",
    "try { await tools.a(); } catch {} return 1;",
    { functions: ["a"], call: () => Promise.reject({ code: "c", message: "m" }) },
    { kind: "returned" },
  ],
  [
    "the CPU limit",
    "tools.a(); for (;;) {}",
    { functions: ["a"], call: never, limits: { cpuMs: 50 } },
    { kind: "limit", code: "cpu" },
  ],
  [
    // QuickJS's Promise constructor turns its executor's exceptions into rejections, the stop too:
    // without a check at the next tick, every stop landed in an executor and the loop ran on.
    "the CPU limit, the loop inside Promise executors",
    "for (;;) new Promise(() => { for (let i = 0; i < 1e9; i++); });",
    { limits: { cpuMs: 50 } },
    { kind: "limit", code: "cpu" },
  ],
  [
    "the memory limit",
    "const a = []; for (;;) a.push('x'.repeat(1e6));",
    {},
    { kind: "limit", code: "memory" },
  ],
  ["the stack limit", "function f() { return f() + 1; } f();", {}, { kind: "limit", code: "stack" }],
  ["the result-size limit", "return 'x'.repeat(2e6);", {}, { kind: "limit", code: "result-size" }],
  [
    "the argument-size limit",
    "tools.a(); await tools.a({ t: 'x'.repeat(2e6) });",
    { functions: ["a"], call: never },
    { kind: "limit", code: "argument-size" },
  ],
  [
    "the calls limit",
    "for (;;) await tools.a();",
    { functions: ["a"], limits: { maxCalls: 3 } },
    { kind: "limit", code: "calls" },
  ],
  [
    "the in-flight limit",
    "for (;;) tools.a();",
    { functions: ["a"], call: never, limits: { maxCallsInFlight: 3 } },
    { kind: "limit", code: "calls-in-flight" },
  ],
  [
    "the wall-time limit",
    "await Promise.all([tools.a(), tools.a()]);",
    { functions: ["a"], call: never, limits: { wallMs: 50 } },
    { kind: "limit", code: "wall-time" },
  ],
  [
    "something never settling",
    "await tools.a(); await new Promise(() => {});",
    { functions: ["a"] },
    { kind: "threw" },
  ],
  [
    "a then getter that loops while a result is handed over",
    "Object.defineProperty(Object.prototype, 'then', { get() { for (;;) {} }, configurable: true }); await tools.a();",
    { functions: ["a"], call: async () => ({ x: 1 }), limits: { cpuMs: 50 } },
    { kind: "limit", code: "cpu" },
  ],
  [
    "a return with calls still out",
    "tools.a(); tools.a(); return 1;",
    { functions: ["a"], call: never },
    { kind: "returned" },
  ],
];

describe.each([
  { way: "written back to its snapshot", snapshots: true },
  { way: "with a new runtime each run", snapshots: false },
])("every ending hands back a sound engine, $way", ({ snapshots }) => {
  beforeEach(() => {
    pool = createEnginePool(loadDefaultVariant, { snapshots });
  });

  const rows = endings.map(([name, source, overrides, expected]) => ({ name, source, overrides, expected }));
  it.each(rows)("after $name", async ({ source, overrides, expected }) => {
    const first = await run(source, overrides);
    expect(first.outcome).toMatchObject(expected);
    expect(first.engine.broken).toBe(false);
    const next = await run("return 'next';");
    expect(next.outcome).toMatchObject({ kind: "returned", value: "next" });
    expect(next.engine).toBe(first.engine);
    expect([first.snapshotBytes !== undefined, next.snapshotBytes !== undefined]).toEqual([
      snapshots,
      snapshots,
    ]);
    expect(printed).toEqual([]);
  });

  it("after an abort while calls are waiting", async () => {
    const controller = new AbortController();
    const running = run("await Promise.all([tools.a(), tools.a(), tools.a()]);", {
      functions: ["a"],
      call: (_name, _args, sequence) => {
        if (sequence === 3) setImmediate(() => controller.abort());
        return sequence === 1 ? Promise.resolve(1) : never();
      },
      signal: controller.signal,
    });
    const { outcome, engine } = await running;
    expect(outcome).toEqual({ kind: "aborted", console: "" });
    expect(engine.broken).toBe(false);
    expect(printed).toEqual([]);
  });

  it("after an abort from inside a host call, while the guest runs", async () => {
    const controller = new AbortController();
    const { outcome, engine } = await run("tools.a(); for (;;) {}", {
      functions: ["a"],
      call: () => {
        controller.abort();
        return never();
      },
      signal: controller.signal,
    });
    expect(outcome).toEqual({ kind: "aborted", console: "" });
    expect(engine.broken).toBe(false);
    expect(printed).toEqual([]);
  });

  it("after a bomb of small objects, gives the next run on the same engine its whole memory limit again", async () => {
    // Kept on the global, so that only disposing of the run's runtime and context frees them.
    const bomb = await run(
      "globalThis.keep = []; for (;;) keep.push({ n: keep.length, text: 'x' + keep.length });",
    );
    expect(bomb.outcome).toMatchObject({ kind: "limit", code: "memory" });
    const memory = bomb.engine.module.getWasmMemory();
    const grownTo = memory.buffer.byteLength;
    expect(grownTo).toBeGreaterThan(bomb.engine.initialBytes);
    expect(grownTo).toBeLessThanOrEqual(bomb.engine.capBytes);
    // 40 strings of 1 MB: they fit beside nothing of the bomb's 64 MiB, so only if it was all freed.
    const next = await run(
      "const a = []; for (let i = 0; i < 40; i++) a.push('x'.repeat(1e6) + i); return a.length;",
    );
    expect(next.outcome).toMatchObject({ kind: "returned", value: 40 });
    expect(next.engine).toBe(bomb.engine);
    // Its heap came from what the bomb gave back: the memory did not grow again.
    expect(memory.buffer.byteLength).toBe(grownTo);
    expect(printed).toEqual([]);
  });

  it("drops an engine whose host stack overflowed, and loads a new one", async () => {
    const deep = "let a = []; let c = a; for (let i = 0; i < 200000; i++) { c[0] = []; c = c[0]; } return a;";
    const { outcome, engine } = await run(deep, { limits: { stackBytes: 1024 * 1024 } });
    expect(outcome).toMatchObject({ kind: "limit", code: "stack" });
    expect(engine.broken).toBe(true);
    const next = await run("return 'next';");
    expect(next.outcome).toMatchObject({ kind: "returned", value: "next" });
    expect(next.engine).not.toBe(engine);
  });
});
