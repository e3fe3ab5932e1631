import { errorMessage, JunctionError } from "@junction/types";
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { findInterruptCounterOffset } from "./interrupt-pacing.js";
import { type PristineEngine, preparePristineEngine } from "./pristine-engine.js";

/** Where the QuickJS build comes from: a variant, or a function that loads one. */
export type VariantSource = QuickJSSyncVariant | (() => Promise<QuickJSSyncVariant>);

/**
 * One loaded QuickJS WebAssembly module, used by one run at a time. A run that breaks it (the host's
 * stack overflowing inside it, a trap) leaves it `broken`, and it is dropped instead of reused.
 */
export interface Engine {
  readonly module: QuickJSWASMModule;
  /** The module's WebAssembly memory when it was loaded, bytes. */
  readonly initialBytes: number;
  /** Where a JSContext keeps its interrupt countdown in this build, when known (interrupt-pacing.ts). */
  readonly interruptCounterOffset: number | undefined;
  /** The most the module's WebAssembly memory may grow to during the current run, bytes. */
  capBytes: number;
  /**
   * A growth the module asked for during the current run was refused: the guest reached its memory
   * limit. Kept until the next run, so a program that catches the "out of memory" and goes on with
   * smaller allocations (which may grow the memory again, under the cap) still ends with `memory`.
   */
  atCap: boolean;
  broken: boolean;
  /** The runtime and context the next run uses, set up (handed out with the engine, always set). */
  pristine: PristineEngine | undefined;
  /** A runtime was set up on it: no snapshot can be taken of it any more (pristine-engine.ts). */
  used: boolean;
}

/** Hands out engines, loading the WebAssembly once and keeping one idle engine warm. */
export interface EnginePool {
  acquire(memoryBytes: number): Promise<Engine>;
  release(engine: Engine): void;
}

const PAGE_BYTES = 65_536;
/**
 * What the module needs besides the guest's heap: its 5 MiB C stack and its static data. QuickJS's
 * own memory counter cannot be used for the limit: built for WebAssembly it counts 8 bytes per
 * allocation, whatever its size. The WebAssembly memory's growth is what is capped instead.
 */
const ENGINE_RESERVED_BYTES = 6 * 1024 * 1024;

/** The memory a module may reach for a run whose guest may use `memoryBytes`. */
export function engineMemoryCap(memoryBytes: number, initialBytes: number): number {
  const wanted = Math.ceil((memoryBytes + ENGINE_RESERVED_BYTES) / PAGE_BYTES) * PAGE_BYTES;
  return Math.max(initialBytes, wanted);
}

/** The default build: the WebAssembly inlined in the JavaScript, so it loads in any runtime. */
export const loadDefaultVariant = (): Promise<QuickJSSyncVariant> =>
  import("@jitl/quickjs-singlefile-mjs-release-sync").then((variant) => variant.default);

/**
 * An engine pool over `source`. Nothing is loaded until the first `acquire`; later runs reuse the
 * idle engine (its runtime and context written back to how they were before any run, or new ones:
 * pristine-engine.ts), and a run that starts while another is going gets a module of its own, so
 * no two runs ever share one. `snapshots: false` gives each run a new runtime (for tests of that way).
 */
export function createEnginePool(source: VariantSource, options: { snapshots?: boolean } = {}): EnginePool {
  const snapshots = options.snapshots ?? true;
  let variant: Promise<QuickJSSyncVariant> | undefined;
  let idle: Engine | undefined;
  /** Looked for once per pool: every module of one build keeps the counter in the same place. */
  let counter: { offset: number | undefined } | undefined;

  async function load(): Promise<Engine> {
    variant ??= typeof source === "function" ? source() : Promise.resolve(source);
    let module: QuickJSWASMModule;
    try {
      module = await newQuickJSWASMModuleFromVariant(await variant);
    } catch (error) {
      // Not kept: the next run tries again.
      variant = undefined;
      throw new JunctionError(
        "tool-execution-failed",
        `The QuickJS engine could not be loaded: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    if (counter === undefined) {
      let found: ReturnType<typeof findInterruptCounterOffset>;
      try {
        found = findInterruptCounterOffset(module);
      } catch {
        // Looking failed: no pacing, and this module, perhaps written to, is not used.
        found = { tainted: true };
      }
      counter = { offset: found.offset };
      if (found.tainted) return load();
    }
    const memory = module.getWasmMemory();
    const initialBytes = memory.buffer.byteLength;
    const engine: Engine = {
      module,
      initialBytes,
      interruptCounterOffset: counter.offset,
      capBytes: initialBytes,
      atCap: false,
      broken: false,
      pristine: undefined,
      used: false,
    };
    // Emscripten grows the heap by calling `grow` on this very object: an own property answers
    // first, and a refusal is a failed malloc inside QuickJS, which throws "out of memory".
    const grow = memory.grow;
    Object.defineProperty(memory, "grow", {
      value: (pages: number) => {
        if (memory.buffer.byteLength + pages * PAGE_BYTES > engine.capBytes) {
          engine.atCap = true;
          throw new RangeError("The sandbox's memory limit was reached.");
        }
        return grow.call(memory, pages);
      },
    });
    return engine;
  }

  return {
    async acquire(memoryBytes) {
      let engine: Engine | undefined;
      if (idle !== undefined) {
        const cap = engineMemoryCap(memoryBytes, idle.initialBytes);
        // A module that grew past this run's cap for an earlier run would give it more: drop it.
        if (idle.module.getWasmMemory().buffer.byteLength <= cap) engine = idle;
        idle = undefined;
      }
      engine ??= await load();
      engine.capBytes = engineMemoryCap(memoryBytes, engine.initialBytes);
      engine.atCap = false;
      try {
        engine.pristine ??= preparePristineEngine(engine.module, { snapshot: snapshots && !engine.used });
        engine.used = true;
      } catch (error) {
        throw new JunctionError(
          "tool-execution-failed",
          `The QuickJS engine could not set up a runtime for the run: ${errorMessage(error)}`,
          { cause: error },
        );
      }
      return engine;
    },
    release(engine) {
      if (engine.broken || idle !== undefined) return;
      idle = engine;
    },
  };
}
