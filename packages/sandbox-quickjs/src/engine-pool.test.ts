import wasmfileVariant from "@jitl/quickjs-wasmfile-release-sync";
import { describe, expect, it } from "vitest";
import { program } from "../test/program.js";
import { createEnginePool, engineMemoryCap, loadDefaultVariant } from "./engine-pool.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";

const MiB = 1024 * 1024;

describe("engineMemoryCap", () => {
  it("lets the module grow by the guest's limit plus its own stack and data, never below where it starts", () => {
    expect(engineMemoryCap(64 * MiB, 16 * MiB)).toBe(70 * MiB);
    expect(engineMemoryCap(1, 16 * MiB)).toBe(16 * MiB);
    expect(engineMemoryCap(64 * MiB + 1, 16 * MiB) % 65_536).toBe(0);
  });
});

describe("createEnginePool", () => {
  it("loads nothing until asked, then keeps one idle engine for the next run", async () => {
    let loads = 0;
    const pool = createEnginePool(() => {
      loads++;
      return loadDefaultVariant();
    });
    expect(loads).toBe(0);
    const first = await pool.acquire(64 * MiB);
    pool.release(first);
    const again = await pool.acquire(64 * MiB);
    expect(again).toBe(first);
    // A run that starts while another holds the engine gets one of its own.
    const second = await pool.acquire(64 * MiB);
    expect(second).not.toBe(first);
    pool.release(again);
    pool.release(second);
    expect(loads).toBe(1);
  });

  it("answers a build that cannot be loaded with a clear error, and tries again on the next run", async () => {
    let attempts = 0;
    const pool = createEnginePool(async () => {
      attempts++;
      if (attempts === 1) throw new Error("no such file: emscripten-module.wasm");
      return loadDefaultVariant();
    });
    await expect(pool.acquire(64 * MiB)).rejects.toThrow(
      "The QuickJS engine could not be loaded: no such file: emscripten-module.wasm",
    );
    const engine = await pool.acquire(64 * MiB);
    expect(engine.broken).toBe(false);
    expect(attempts).toBe(2);
  });

  it("does not reuse an engine whose memory grew past a later run's cap", async () => {
    const pool = createEnginePool(loadDefaultVariant);
    const engine = await pool.acquire(64 * MiB);
    engine.module.getWasmMemory().grow(((40 * MiB) / 65_536) | 0);
    pool.release(engine);
    expect(await pool.acquire(8 * MiB)).not.toBe(engine);
  });

  it("does not reuse an engine a run broke", async () => {
    const pool = createEnginePool(loadDefaultVariant);
    const engine = await pool.acquire(64 * MiB);
    engine.broken = true;
    pool.release(engine);
    expect(await pool.acquire(64 * MiB)).not.toBe(engine);
  });
});

describe("another QuickJS build", () => {
  it("runs on a variant passed in (the separate .wasm build, as Cloudflare Workers need)", async () => {
    const sandbox = quickjsSandbox({ variant: wasmfileVariant, limits: { cpuMs: 60_000 } });
    const outcome = await sandbox.run(
      program("return [await tools.add({ a: 2, b: 3 }), Date.now()];", {
        functions: ["add"],
        call: async (_name, args) =>
          (args as { a: number; b: number }).a + (args as { a: number; b: number }).b,
      }),
    );
    expect(outcome).toEqual({ kind: "returned", value: [5, 1_700_000_000_000], console: "" });
    expect(await sandbox.run(program("let a = []; for (;;) a.push('x'.repeat(1e6));"))).toMatchObject({
      kind: "limit",
      code: "memory",
    });
  });
});
