import type { JSONValue } from "./mcp-protocol.js";

/**
 * Where code mode runs a model's program: a fresh, isolated context per `run`, with only the host
 * functions it is given. The journal, the approval gate and replay live in core; a sandbox only
 * runs source, calls back, and keeps a hostile program contained. `@junction/sandbox-quickjs` is
 * one (QuickJS compiled to WebAssembly); another engine plugs in through this interface.
 *
 * What every implementation must hold (its contract tests check each):
 * - Only source is run (JavaScript; TypeScript types are stripped), as the body of an async
 *   function: the program `return`s its value and may `await` at the top level.
 * - The guest sees `tools.<name>(args)` for each of `functions` (a `name` with dots, such as
 *   `github.create_issue`, is reached as `tools.github.create_issue`), `console.log/info/warn/error`,
 *   a virtual `Date` starting at `clockMs`, and `Math.random` seeded by `seed`. Nothing else of the
 *   host: no fetch, timers, modules, `eval`/`Function`, WebAssembly, shared memory.
 * - Only JSON crosses the bridge, both ways: an argument is copied out as plain JSON (an own
 *   `__proto__`, `constructor` or `prototype` key is dropped, never passed to the host).
 * - Results of host calls are delivered in the order the calls were issued, whatever order they
 *   settle in, and the guest's job queue is drained after each delivery: a program sees the same
 *   sequence on every run with the same results.
 * - A host call that rejects is thrown in the guest as a `ToolError` with `code` and `message`.
 * - Every limit answers with a typed outcome (`limit`, with a stable `code`), the host alive; the
 *   guest CPU budget counts only the time the guest runs, not the time it waits on host calls.
 * - `signal` aborting ends the run at once with `{ kind: "aborted" }` (core aborts a program whose
 *   call waits for a person: the run pauses, the program is run again on resume).
 */
export interface Sandbox {
  run(program: SandboxProgram): Promise<SandboxOutcome>;
}

/** One execution of a program. */
export interface SandboxProgram {
  /** The program's source: JavaScript or TypeScript, the body of an async function. */
  source: string;
  /** The host functions the program may call, by the name it calls them with (`tools.<name>`). */
  functions: readonly string[];
  /**
   * Called for each `tools.<name>(args)` the guest makes, with its arguments as JSON and its
   * sequence number (1, 2, …: the order of issue). Resolves with the value the guest gets;
   * rejects (with a {@link SandboxCallError}) to throw a `ToolError` in the guest.
   */
  call(name: string, args: JSONValue, sequence: number): Promise<JSONValue>;
  /** The guest's `Date.now()` when the program starts, in ms since the epoch. */
  clockMs: number;
  /** Seeds the guest's `Math.random`: the same seed gives the same numbers. */
  seed: number;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
}

/** A host call's failure as the guest gets it: `throw new ToolError(code, message)`. */
export interface SandboxCallError {
  code: string;
  message: string;
}

/** What a program may use; each breach ends it with the limit's code. */
export interface SandboxLimits {
  /** Guest heap, bytes. */
  memoryBytes: number;
  /** Guest stack, bytes. */
  stackBytes: number;
  /** Guest CPU time, ms (time waiting on host calls not counted). */
  cpuMs: number;
  /** Wall-clock time of the whole run, ms. */
  wallMs: number;
  /** Host calls in all. */
  maxCalls: number;
  /** Host calls started and not yet delivered. */
  maxCallsInFlight: number;
  /** The source, bytes (UTF-8). */
  sourceBytes: number;
  /** One host call's arguments as JSON, bytes. */
  argumentBytes: number;
  /** The program's return value as JSON, bytes. */
  resultBytes: number;
  /** Console output kept, bytes (the rest is cut, with a note). */
  consoleBytes: number;
}

/** The codes of {@link SandboxLimits} breaches. */
export type SandboxLimitCode =
  | "memory"
  | "stack"
  | "cpu"
  | "wall-time"
  | "calls"
  | "calls-in-flight"
  | "source-size"
  | "argument-size"
  | "result-size";

/** How a run of a program ended. `console` is what it logged, within `consoleBytes`. */
export type SandboxOutcome =
  | { kind: "returned"; value: JSONValue | undefined; console: string }
  | { kind: "threw"; error: { name: string; message: string }; console: string }
  | { kind: "limit"; code: SandboxLimitCode; message: string; console: string }
  | { kind: "aborted"; console: string };
