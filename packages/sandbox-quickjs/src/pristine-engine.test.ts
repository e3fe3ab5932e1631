import wasmfileVariant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { describe, expect, it } from "vitest";
import { runOnPool } from "../test/run-on-pool.js";
import { createEnginePool, loadDefaultVariant } from "./engine-pool.js";
import { findLiveRanges } from "./engine-snapshot.js";
import { preparePristineEngine } from "./pristine-engine.js";

const KiB = 1024;
const MiB = 1024 * KiB;

describe("findLiveRanges", () => {
  /**
   * An Emscripten-like module: static data (with the break's word, and the allocator's own
   * pointer to its last chunk), a C stack used at its top, a heap, untouched memory; and an
   * allocator that moves both words as Emscripten's does.
   */
  function layout({ stackBytes, breakMoves = true }: { stackBytes: number; breakMoves?: boolean }) {
    const memory = new WebAssembly.Memory({ initial: 256 });
    const bytes = new Uint8Array(memory.buffer);
    const words = new Uint32Array(memory.buffer);
    const staticEnd = 90 * KiB;
    for (let at = 1024; at < staticEnd; at += 3) bytes[at] = 1; // with short zero stretches
    const stackTop = staticEnd + stackBytes;
    bytes.fill(2, stackTop - 8 * KiB, stackTop); // the frames used at its top
    const heapBreak = stackTop + 300 * KiB;
    for (let at = stackTop; at < heapBreak; at += 4 * KiB) bytes.fill(3, at, at + 64); // a heap with gaps
    const BREAK = 2048;
    const LAST_CHUNK = 4096;
    words[BREAK / 4] = heapBreak;
    words[LAST_CHUNK / 4] = heapBreak - 64;
    const allocator = {
      malloc(size: number) {
        const pointer = words[LAST_CHUNK / 4]!;
        words[LAST_CHUNK / 4] = pointer + size;
        if (breakMoves) words[BREAK / 4] = pointer + size + 64;
        return pointer;
      },
      free(pointer: number) {
        words[LAST_CHUNK / 4] = pointer;
      },
    };
    return { memory, staticEnd, stackTop, allocator, heapStart: stackTop + 1024, breakWord: BREAK };
  }

  it("keeps the static data (with a margin) and the heap up to its break, and leaves out the stack", () => {
    const { memory, staticEnd, stackTop, allocator, heapStart, breakWord } = layout({ stackBytes: 5 * MiB });
    // The stretch of zeros starts at the word after the one holding the static data's last byte.
    let lastStatic = 1024;
    while (lastStatic + 3 < staticEnd) lastStatic += 3;
    const stretchStart = lastStatic - (lastStatic % 8) + 8;
    const ranges = findLiveRanges(memory, { heapStart, allocator });
    // The break after the probe: the heap keeps the block it was asked for.
    const heapBreak = new Uint32Array(memory.buffer)[breakWord / 4]!;
    expect(heapBreak).toBeGreaterThan(stackTop + 300 * KiB);
    expect(ranges).toEqual([
      [0, stretchStart + 64 * KiB],
      [stackTop - 8 * KiB, heapBreak],
    ]);
  });

  it("makes no snapshot of a memory with no stretch of zeros long enough to be the stack", () => {
    const { memory, heapStart, allocator } = layout({ stackBytes: 512 * KiB });
    expect(findLiveRanges(memory, { heapStart, allocator })).toBeUndefined();
  });

  it("makes no snapshot when no word below the heap rises and stays up as the break does", () => {
    const { memory, heapStart, allocator } = layout({ stackBytes: 5 * MiB, breakMoves: false });
    expect(findLiveRanges(memory, { heapStart, allocator })).toBeUndefined();
  });
});

describe("the engine's snapshot", () => {
  it.each([
    ["the default build", loadDefaultVariant],
    ["the separate-.wasm build", async () => wasmfileVariant],
  ])("is taken on %s, and holds far less than the memory the engine uses", async (_name, variant) => {
    const pool = createEnginePool(variant);
    const { outcome, snapshotBytes, engine } = await runOnPool(pool, "return 1 + 1;");
    expect(outcome).toMatchObject({ kind: "returned", value: 2 });
    // The static data and the heap (about 0.5 MB), not the 5 MiB stack nor the untouched rest.
    expect(snapshotBytes).toBeGreaterThan(64 * KiB);
    expect(snapshotBytes).toBeLessThan(MiB);
    const next = await runOnPool(pool, "return 'next';");
    expect(next.engine).toBe(engine);
  });

  it("gives every run the engine as it was: nothing a program changes reaches the next one", async () => {
    const pool = createEnginePool(loadDefaultVariant);
    const probe =
      "console.log('hello'); return [typeof leftOver, ({}).leaked, [3, 1, 2].map((n) => n * 2), " +
      "Math.random(), Date.now(), typeof JSON.stringify, String(new Date()), typeof ToolError];";
    const first = await runOnPool(pool, probe);
    await runOnPool(
      pool,
      "globalThis.leftOver = 1; Object.prototype.leaked = 2; Array.prototype.map = () => 'mine'; " +
        "Math.random = () => 0; Date.now = () => 0; JSON.stringify = null; globalThis.console = null; " +
        "globalThis.ToolError = 5; Promise.resolve().then(function again() { Promise.resolve().then(again); }); " +
        "return 0;",
      { limits: { cpuMs: 50 } },
    );
    const second = await runOnPool(pool, probe);
    expect(second.engine).toBe(first.engine);
    // The same program, seed and clock: the same outcome, to the byte.
    expect(JSON.stringify(second.outcome)).toBe(JSON.stringify(first.outcome));
    expect(first.outcome).toMatchObject({ kind: "returned", console: "hello\n" });
  });

  it("gives every run its whole memory back: runs near the limit, again and again, on one engine", async () => {
    const pool = createEnginePool(loadDefaultVariant);
    const source =
      "globalThis.keep = []; for (let i = 0; i < 24; i++) keep.push('x'.repeat(1e6) + i); return keep.length;";
    const first = await runOnPool(pool, source, { limits: { memoryBytes: 32 * MiB } });
    expect(first.outcome).toMatchObject({ kind: "returned", value: 24 });
    const grownTo = first.engine.module.getWasmMemory().buffer.byteLength;
    for (let run = 0; run < 6; run++) {
      const again = await runOnPool(pool, source, { limits: { memoryBytes: 32 * MiB } });
      expect(again.outcome).toMatchObject({ kind: "returned", value: 24 });
      expect(again.engine).toBe(first.engine);
    }
    expect(first.engine.module.getWasmMemory().buffer.byteLength).toBe(grownTo);
  }, 60_000);

  it("drops an engine on which a handle was cached during a run, and the next run gets a new one", async () => {
    const pool = createEnginePool(loadDefaultVariant);
    const first = await runOnPool(pool, "return 1;");
    const { engine } = first;
    // What quickjs-emscripten caches when first asked: its handle would outlive the run's memory.
    const cached = await runOnPool(pool, "return await tools.touch();", {
      functions: ["touch"],
      call: async () => {
        engine.pristine!.context.getWellKnownSymbol("iterator").dispose();
        return "touched";
      },
    });
    expect(cached.outcome).toMatchObject({ kind: "returned", value: "touched" });
    expect(cached.engine).toBe(engine);
    expect(engine.broken).toBe(true);
    const next = await runOnPool(pool, "return 'next';");
    expect(next.outcome).toMatchObject({ kind: "returned", value: "next" });
    expect(next.engine).not.toBe(engine);
    expect(next.snapshotBytes).toBeGreaterThan(0);
  });
});

describe("preparePristineEngine without a snapshot", () => {
  it("frees the run's handles and disposes the runtime when the run ends", async () => {
    const module = await newQuickJSWASMModuleFromVariant(await loadDefaultVariant());
    const pristine = preparePristineEngine(module, { snapshot: false });
    expect(pristine.snapshotBytes).toBeUndefined();
    const handle = pristine.context.newString("the run's");
    let freed = 0;
    const reusable = pristine.reset(() => {
      handle.dispose();
      freed++;
    });
    expect(reusable).toBe(false);
    expect(freed).toBe(1);
    expect(pristine.context.alive).toBe(false);
    expect(pristine.runtime.alive).toBe(false);
  });
});
