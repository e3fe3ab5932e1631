import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import {
  findLiveRanges,
  type MemorySnapshot,
  type ModuleAllocator,
  restoreRanges,
  saveRanges,
} from "./engine-snapshot.js";
import { guestPrelude } from "./guest-prelude.js";
import { contextAddress } from "./interrupt-pacing.js";

type HostFunction = Parameters<QuickJSContext["newFunction"]>[1];
type HostAnswer = ReturnType<HostFunction>;

/** What the run on an engine answers the guest with: its host functions and its interrupt handler. */
export interface GuestHooks {
  interrupt(): boolean;
  call(args: QuickJSHandle[]): HostAnswer;
  random(): HostAnswer;
  part(index: QuickJSHandle, captured: QuickJSHandle[]): HostAnswer;
  log(level: QuickJSHandle, text: QuickJSHandle): HostAnswer;
}

/** The host functions the prelude is given, made once per engine (they call the current run's hooks). */
export interface HostFunctions {
  call: QuickJSHandle;
  random: QuickJSHandle;
  part: QuickJSHandle;
  log: QuickJSHandle;
}

/**
 * A QuickJS runtime and context set up for one run and not yet used: the prelude compiled, the host
 * functions made. With a snapshot (engine-snapshot.ts) it is set up once per engine and written
 * back after each run; without one (a build whose memory cannot be read), it is disposed after the
 * run and the next run gets a new one.
 *
 * A snapshot is only taken on a module nothing has run on but the pool's own set-up: the zeros it
 * looks for are then the stack's and untouched memory's. An engine that loses its snapshot (see
 * reset) is dropped rather than given another.
 */
export interface PristineEngine {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  /** The prelude, compiled: `function (hostCall, hostRandom, hostPart, configJSON)` (guest-prelude.ts). */
  readonly install: QuickJSHandle;
  readonly host: HostFunctions;
  /** How many bytes `reset` writes back; undefined when it has no snapshot (and disposes instead). */
  readonly snapshotBytes: number | undefined;
  /** The current run's; the host functions and the interrupt do nothing without one. */
  hooks: GuestHooks | undefined;
  /**
   * Ends the run on it: writes the snapshot back (the run's handles vanish with the rest of its
   * memory), or calls `freeRunHandles` and disposes the runtime. Answers whether it can be used again.
   */
  reset(freeRunHandles: () => void): boolean;
}

/** The handles quickjs-emscripten makes the first time they are asked for and keeps in the context. */
const CACHED_HANDLES = [
  "_undefined",
  "_null",
  "_true",
  "_false",
  "_global",
  "_BigInt",
  "_Symbol",
  "_SymbolIterator",
  "_SymbolAsyncIterator",
] as const;

function cachedHandles(context: QuickJSContext): unknown[] {
  const fields = context as unknown as Record<(typeof CACHED_HANDLES)[number], unknown>;
  return CACHED_HANDLES.map((field) => fields[field]);
}

/** Emscripten's `malloc` and `free`, which quickjs-emscripten keeps on the module it wraps. */
function moduleAllocator(module: QuickJSWASMModule): ModuleAllocator {
  const emscripten = (
    module as unknown as { module: { _malloc(bytes: number): number; _free(pointer: number): void } }
  ).module;
  return { malloc: (bytes) => emscripten._malloc(bytes), free: (pointer) => emscripten._free(pointer) };
}

function runtimeAddress(runtime: QuickJSRuntime): number {
  return (runtime as unknown as { rt: { value: number } }).rt.value;
}

/**
 * Sets up a runtime and context on `module` for a run, with a snapshot when `snapshot` is asked
 * for (a freshly loaded module only) and its memory can be read.
 */
export function preparePristineEngine(
  module: QuickJSWASMModule,
  options: { snapshot: boolean },
): PristineEngine {
  const runtime = module.newRuntime();
  let engine: PristineEngine | undefined;
  try {
    runtime.setInterruptHandler(() => engine?.hooks?.interrupt() ?? false);
    const context = runtime.newContext();
    // Made now, so that they are in the snapshot: one made during a run would point at memory
    // the snapshot gives back.
    void [context.undefined, context.null, context.true, context.false, context.global];
    const install = context.unwrapResult(context.evalCode(guestPrelude(), "prelude.js", { type: "global" }));
    const host: HostFunctions = {
      call: context.newFunction("hostCall", (...args) => engine?.hooks?.call(args)),
      random: context.newFunction("random", () => engine?.hooks?.random()),
      part: context.newFunction("hostPart", (index, ...captured) => engine?.hooks?.part(index, captured)),
      log: context.newFunction("hostLog", (level, text) => engine?.hooks?.log(level, text)),
    };
    const memory = module.getWasmMemory();
    const ranges =
      options.snapshot &&
      findLiveRanges(memory, {
        heapStart: Math.min(runtimeAddress(runtime), contextAddress(context)),
        allocator: moduleAllocator(module),
      });
    const snapshot: MemorySnapshot | undefined = ranges ? saveRanges(memory.buffer, ranges) : undefined;
    const cached = cachedHandles(context);
    const dispose = () => {
      for (const handle of [install, ...Object.values(host)]) handle.dispose();
      context.dispose();
      runtime.dispose();
    };
    engine = {
      runtime,
      context,
      install,
      host,
      snapshotBytes: snapshot?.byteLength,
      hooks: undefined,
      reset(freeRunHandles) {
        this.hooks = undefined;
        // A handle quickjs-emscripten cached during the run would outlive what it points at.
        if (
          snapshot !== undefined &&
          cachedHandles(context).every((handle, index) => handle === cached[index])
        ) {
          restoreRanges(module.getWasmMemory().buffer, snapshot);
          return true;
        }
        freeRunHandles();
        dispose();
        return false;
      },
    };
    return engine;
  } catch (error) {
    runtime.dispose();
    throw error;
  }
}
