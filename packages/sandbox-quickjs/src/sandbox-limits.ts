import { JunctionError, type SandboxLimitCode, type SandboxLimits } from "@junction/types";

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The limits a run gets where neither `quickjsSandbox({ limits })` nor the program's own `limits`
 * say otherwise.
 *
 * - `memoryBytes` 64 MiB: what the engine's WebAssembly memory may grow to for the guest (beyond
 *   the engine's own stack and static data; never below the engine's first 16 MiB).
 * - `stackBytes` 256 KiB: about 1,300 nested calls of a plain function. Above about 450 KiB the
 *   host's own stack (V8's, for the WebAssembly frames) runs out first on Node; that is caught and
 *   answered as the same `stack` limit, but it costs the engine a reload.
 * - `cpuMs` 1,000, `wallMs` 30,000, `maxCalls` 1,000, `maxCallsInFlight` 32, `sourceBytes` 64 KiB,
 *   `argumentBytes` 1 MiB, `resultBytes` 1 MiB, `consoleBytes` 16 KiB.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 64 * MiB,
  stackBytes: 256 * KiB,
  cpuMs: 1000,
  wallMs: 30_000,
  maxCalls: 1000,
  maxCallsInFlight: 32,
  sourceBytes: 64 * KiB,
  argumentBytes: 1 * MiB,
  resultBytes: 1 * MiB,
  consoleBytes: 16 * KiB,
});

const LIMIT_NAMES = Object.keys(DEFAULT_SANDBOX_LIMITS) as (keyof SandboxLimits)[];

/**
 * The limits of one run: the defaults, then the sandbox's, then the program's. Each given value must
 * be a positive whole number (`cpuMs` and `wallMs` may have a fraction); anything else is the
 * caller's mistake, thrown as `invalid-argument` naming the limit.
 */
export function resolveSandboxLimits(...layers: (Partial<SandboxLimits> | undefined)[]): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const layer of layers) {
    if (layer === undefined) continue;
    if (typeof layer !== "object" || layer === null) {
      throw new JunctionError("invalid-argument", "Sandbox limits must be an object of numbers.");
    }
    for (const [name, value] of Object.entries(layer)) {
      if (!LIMIT_NAMES.includes(name as keyof SandboxLimits)) {
        throw new JunctionError(
          "invalid-argument",
          `Unknown sandbox limit "${name}"; the limits are ${LIMIT_NAMES.join(", ")}.`,
        );
      }
      if (value === undefined) continue;
      const wholeNumber = name !== "cpuMs" && name !== "wallMs";
      if (
        typeof value !== "number" ||
        !Number.isFinite(value) ||
        value <= 0 ||
        (wholeNumber && !Number.isInteger(value))
      ) {
        throw new JunctionError(
          "invalid-argument",
          `Sandbox limit "${name}" must be a positive ${wholeNumber ? "whole number" : "number"}; got ${String(value)}.`,
        );
      }
      limits[name as keyof SandboxLimits] = value;
    }
  }
  return limits;
}

/** What a breach of each limit tells the host, in words a model can act on. */
export function limitMessage(code: SandboxLimitCode, limits: SandboxLimits): string {
  switch (code) {
    case "memory":
      return `The program used more memory than its limit of ${formatBytes(limits.memoryBytes)}.`;
    case "stack":
      return `The program nested calls too deeply (its stack limit is ${formatBytes(limits.stackBytes)}): look for unbounded recursion.`;
    case "cpu":
      return `The program ran for more than its ${limits.cpuMs} ms of CPU time (time waiting on tools is not counted): look for an endless loop.`;
    case "wall-time":
      return `The program took more than ${limits.wallMs} ms in all, waiting on tools included.`;
    case "calls":
      return `The program made more than ${limits.maxCalls} tool calls.`;
    case "calls-in-flight":
      return `The program had more than ${limits.maxCallsInFlight} tool calls waiting at once: await some before starting more.`;
    case "source-size":
      return `The program's source is larger than ${formatBytes(limits.sourceBytes)}; nothing was run.`;
    case "argument-size":
      return `A tool call's arguments are larger than ${formatBytes(limits.argumentBytes)} as JSON.`;
    case "result-size":
      return `The program's return value is larger than ${formatBytes(limits.resultBytes)} as JSON.`;
    default: {
      const never: never = code;
      return never;
    }
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
