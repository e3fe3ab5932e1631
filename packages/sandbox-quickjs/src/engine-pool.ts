import { errorMessage, JunctionError } from "@junction/types";
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { findInterruptCounterOffset } from "./interrupt-pacing.js";

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
  /** The last growth the module asked for was refused: the guest is at its memory limit. */
  atCap: boolean;
  /**
   * Set by the run while only guest code is on the WebAssembly stack (no host function of its
   * own): a refused growth then abandons the engine at once instead of letting QuickJS unwind.
   */
  abandonAtCap: boolean;
  /**
   * A refused growth abandoned the engine: an exception was thrown out of the WebAssembly, so
   * QuickJS neither unwinds the guest nor frees its heap (tens of milliseconds for a heap of small
   * objects). The engine is then `broken` and never reused.
   */
  abandoned: boolean;
  broken: boolean;
}

/** What comes out of the WebAssembly when a refused growth abandons the engine (see `Engine.abandoned`). */
export class EngineAbandonedAtCap extends Error {
  constructor() {
    super("The sandbox's memory limit was reached; the engine was abandoned.");
    this.name = "EngineAbandonedAtCap";
  }
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
 * idle engine (a fresh QuickJS runtime and context each time, on the same module), and a run that
 * starts while another is going gets a module of its own, so no two runs ever share one.
 */
export function createEnginePool(source: VariantSource): EnginePool {
  let variant: Promise<QuickJSSyncVariant> | undefined;
  let idle: Engine | undefined;
  /** A fresh engine being loaded in the background, after a run dropped its own. */
  let spare: Promise<Engine> | undefined;
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
      abandonAtCap: false,
      abandoned: false,
      broken: false,
    };
    capMemoryGrowth(memory, engine);
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
      if (engine === undefined && spare !== undefined) {
        engine = await spare.catch(() => undefined);
        spare = undefined;
      }
      engine ??= await load();
      engine.capBytes = engineMemoryCap(memoryBytes, engine.initialBytes);
      engine.atCap = false;
      return engine;
    },
    release(engine) {
      if (engine.broken) {
        // Loaded now, after the run's outcome, so the next run does not wait for it (after a
        // memory bomb the engine is always dropped, see capMemoryGrowth).
        if (idle === undefined && spare === undefined) {
          spare = load();
          spare.catch(() => {});
        }
        return;
      }
      if (idle !== undefined) return;
      idle = engine;
    },
  };
}

const bufferOf = Object.getOwnPropertyDescriptor(WebAssembly.Memory.prototype, "buffer")!.get!;

/**
 * Caps `memory`'s growth at `engine.capBytes`. Emscripten grows the heap by calling `grow` on this
 * very object: an own property answers first, and a refusal is a failed malloc inside QuickJS,
 * which throws "out of memory". Emscripten tries a growth three times, smaller each time, reading
 * `memory.buffer` before each try and outside its own `try`: once a refusal has happened while
 * only guest code is running (`engine.abandonAtCap`), that read throws, and the exception leaves
 * the WebAssembly straight to the run, which drops the engine whole. Without it QuickJS would
 * unwind the guest and free its heap object by object, only for the run to end with `memory`.
 * Should a build read the memory otherwise, nothing is thrown, and the run ends as before.
 */
function capMemoryGrowth(memory: WebAssembly.Memory, engine: Engine): void {
  const grow = memory.grow;
  Object.defineProperty(memory, "grow", {
    value: (pages: number) => {
      if (bufferOf.call(memory).byteLength + pages * PAGE_BYTES > engine.capBytes) {
        engine.atCap = true;
        if (engine.abandonAtCap) {
          engine.abandoned = true;
          engine.broken = true;
        }
        throw new RangeError("The sandbox's memory limit was reached.");
      }
      engine.atCap = false;
      return grow.call(memory, pages);
    },
  });
  Object.defineProperty(memory, "buffer", {
    get: () => {
      if (engine.abandoned) throw new EngineAbandonedAtCap();
      return bufferOf.call(memory);
    },
  });
}
