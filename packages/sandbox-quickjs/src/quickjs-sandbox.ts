import { JunctionError, type Sandbox, type SandboxLimits } from "@junction/types";
import type { VariantSource } from "./engine-pool.js";
import { workerThreadSandbox } from "./guest-thread.js";
import { hostThreadSandbox } from "./host-thread-sandbox.js";
import { resolveSandboxLimits } from "./sandbox-limits.js";

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
  /**
   * Where the guest runs. `"host"`: on the calling thread, where a single long native call inside
   * QuickJS (a huge BigInt written in decimal: seconds) holds that thread until it returns, since
   * the CPU limit is checked only between such calls. `"worker"`: each run on a worker thread of its
   * own (`node:worker_threads`: Node, Bun and Deno), which is ended when the guest overruns its CPU
   * or wall-clock limit by a quarter of a second, or is still running that long after an abort, so the calling thread is never held; the cost is a worker's start on a first run (tens of
   * milliseconds) and a message each way per tool call. Tool calls still run on the calling thread.
   * A worker loads the default QuickJS build: `variant` cannot be given with it.
   * @default "host"
   */
  thread?: "host" | "worker";
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
  const thread = options.thread ?? "host";
  if (thread === "worker") {
    if (options.variant !== undefined)
      throw new JunctionError(
        "invalid-argument",
        'quickjsSandbox({ thread: "worker" }) runs the default QuickJS build in its worker; a `variant` cannot be passed to a thread. Leave `variant` out, or use thread: "host".',
      );
    return workerThreadSandbox(options.limits);
  }
  if (thread !== "host")
    throw new JunctionError(
      "invalid-argument",
      `quickjsSandbox's thread must be "host" or "worker"; got ${JSON.stringify(thread)}.`,
    );
  return hostThreadSandbox(options);
}
