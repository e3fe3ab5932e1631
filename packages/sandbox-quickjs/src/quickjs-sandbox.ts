import {
  createAbortError,
  type Sandbox,
  type SandboxLimits,
  type SandboxOutcome,
  type SandboxProgram,
} from "@junction/types";
import { utf8ByteLength } from "./bridge-json.js";
import { checkProgram } from "./check-program.js";
import { createEnginePool, type Engine, loadDefaultVariant, type VariantSource } from "./engine-pool.js";
import { runProgram } from "./run-program.js";
import { limitMessage, resolveSandboxLimits } from "./sandbox-limits.js";
import { mayHoldTypeArguments, type StrippedSource, stripTypes } from "./strip-types.js";

/** How a {@link quickjsSandbox} runs programs. */
export interface QuickJSSandboxOptions {
  /** Limits for every run, over {@link DEFAULT_SANDBOX_LIMITS}; a program's own `limits` win. */
  limits?: Partial<SandboxLimits>;
  /**
   * The QuickJS build, a sync variant of `quickjs-emscripten-core` 0.32 (or a function loading
   * one). By default `@jitl/quickjs-singlefile-mjs-release-sync`, whose WebAssembly is inlined so it
   * loads in Node, Bun, Deno and browsers as it is. Cloudflare Workers compile no WebAssembly from
   * bytes: there, pass `newVariant(wasmfileVariant, { wasmModule })` with the `.wasm` of
   * `@jitl/quickjs-wasmfile-release-sync` imported as a module.
   * @default the singlefile release sync variant
   */
  variant?: VariantSource;
}

/**
 * Code mode's sandbox on QuickJS compiled to WebAssembly: each run gets a fresh runtime and context
 * with only `tools.*`, `console.*`, `ToolError`, a still `Date` and a seeded `Math.random`; the
 * contract is the {@link Sandbox} interface's. The engine is loaded at the first run and kept warm
 * for the next; a run started while another is going gets an engine of its own.
 *
 * @example
 * ```ts
 * const sandbox = quickjsSandbox({ limits: { cpuMs: 500 } });
 * const outcome = await sandbox.run({
 *   source: "const issue = await tools.github.create_issue({ title: 'Build fails' }); return issue.number;",
 *   functions: ["github.create_issue"],
 *   call: async (name, args) => ({ number: 7 }),
 *   clockMs: Date.now(),
 *   seed: 42,
 * });
 * // { kind: "returned", value: 7, console: "" }
 * ```
 */
export function quickjsSandbox(options: QuickJSSandboxOptions = {}): Sandbox {
  // Checked now, so a wrong limit is found where the sandbox is made.
  resolveSandboxLimits(options.limits);
  const pool = createEnginePool(options.variant ?? loadDefaultVariant);

  return {
    async run(program: SandboxProgram): Promise<SandboxOutcome> {
      checkProgram(program);
      const limits = resolveSandboxLimits(options.limits, program.limits);
      const { signal } = program;
      if (signal?.aborted) return { kind: "aborted", console: "" };
      // Each UTF-16 unit is at least one byte: a source longer in units is surely too large.
      if (program.source.length > limits.sourceBytes || utf8ByteLength(program.source) > limits.sourceBytes) {
        return {
          kind: "limit",
          code: "source-size",
          message: limitMessage("source-size", limits),
          console: "",
        };
      }

      // Type stripping (sucrase, tens of milliseconds to load) only where the source needs it: first
      // when it may hold type arguments JavaScript would misread, else only once QuickJS cannot
      // compile the source as written (see mayHoldTypeArguments).
      const stripFirst = mayHoldTypeArguments(program.source);
      const engineLoad = pool.acquire(limits.memoryBytes);
      let prepared: [StrippedSource | undefined, Engine];
      try {
        prepared = await untilAborted(
          Promise.all([stripFirst ? stripTypes(program.source) : undefined, engineLoad]),
          signal,
        );
      } catch (error) {
        // An abort while loading: the engine goes back to the pool once it is there.
        engineLoad.then(pool.release, () => {});
        if (signal?.aborted) return { kind: "aborted", console: "" };
        throw error;
      }
      const [stripped, engine] = prepared;
      return runProgram({
        engine,
        program,
        code: stripped?.kind === "stripped" ? stripped.code : program.source,
        ...(stripped?.kind === "unreadable" ? { unreadableMessage: stripped.message } : {}),
        ...(stripped === undefined ? { stripTypes: () => stripTypes(program.source) } : {}),
        limits,
        onEngineFree: () => pool.release(engine),
      });
    },
  };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(createAbortError("The sandbox run was aborted.", signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
