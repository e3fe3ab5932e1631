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
import { type GuestMeter, runProgram } from "./run-program.js";
import { limitMessage, resolveSandboxLimits } from "./sandbox-limits.js";
import { mayHoldTypeArguments, type StrippedSource, stripTypes } from "./strip-types.js";

/** The sandbox that runs the guest on the calling thread, telling `meter` of its slices. */
export function hostThreadSandbox(
  options: { limits?: Partial<SandboxLimits> | undefined; variant?: VariantSource | undefined },
  meter?: GuestMeter,
): Sandbox {
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
        ...(meter === undefined ? {} : { meter }),
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
