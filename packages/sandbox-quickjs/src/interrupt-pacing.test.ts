import wasmfileVariant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { describe, expect, it } from "vitest";
import { program } from "../test/program.js";
import { loadDefaultVariant } from "./engine-pool.js";
import { contextAddress, createInterruptPacer, findInterruptCounterOffset } from "./interrupt-pacing.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";

describe("findInterruptCounterOffset", () => {
  it("finds where both builds keep the interrupt countdown", async () => {
    for (const variant of [await loadDefaultVariant(), wasmfileVariant]) {
      const module = await newQuickJSWASMModuleFromVariant(variant);
      const found = findInterruptCounterOffset(module);
      expect(found.tainted).toBe(false);
      expect(found.offset).toBeTypeOf("number");
    }
  });
});

describe("createInterruptPacer", () => {
  it("makes QuickJS check far more often than every 10,000 ticks", async () => {
    const module = await newQuickJSWASMModuleFromVariant(await loadDefaultVariant());
    const { offset } = findInterruptCounterOffset(module);
    const count = (paced: boolean) => {
      const runtime = module.newRuntime();
      const context = runtime.newContext();
      const pacer = createInterruptPacer(
        module.getWasmMemory(),
        paced ? contextAddress(context) + offset! : undefined,
      );
      let checks = 0;
      runtime.setInterruptHandler(() => {
        checks++;
        // As in a tight loop: no time between checks, so the pacer lets the most ticks pass.
        pacer.paced(0);
        return false;
      });
      context.evalCode("for (let i = 0; i < 100000; i++) {}").dispose();
      context.dispose();
      runtime.dispose();
      return checks;
    };
    const plain = count(false);
    const paced = count(true);
    expect(plain).toBeLessThan(50);
    // At most 100 ticks apart: 100,000 turns of at least one tick each.
    expect(paced).toBeGreaterThan(1000);
  });
});

describe("a loop of slow native calls", () => {
  it("is stopped at the CPU limit within a few hundred calls, not after thousands", async () => {
    const sandbox = quickjsSandbox({ limits: { consoleBytes: 1024 * 1024 } });
    const outcome = await sandbox.run(
      program(
        "const s = 'a,'.repeat(2e6); for (let i = 0; ; i++) { s.replaceAll('a', 'bb'); console.log(i); }",
        {
          limits: { cpuMs: 100 },
        },
      ),
    );
    expect(outcome).toMatchObject({ kind: "limit", code: "cpu" });
    const lines = outcome.console.trim().split("\n");
    // QuickJS alone checks once per 10,000 ticks: about 2,500 turns of this loop.
    expect(lines.length).toBeLessThan(1000);
  });
});
