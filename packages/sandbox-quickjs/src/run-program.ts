import {
  errorMessage,
  type JSONValue,
  JunctionError,
  type SandboxCallError,
  type SandboxLimitCode,
  type SandboxLimits,
  type SandboxOutcome,
  type SandboxProgram,
} from "@junction/types";
import {
  errors,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
} from "quickjs-emscripten-core";
import { hostValueToJSON, parseGuestJSON, utf8ByteLength } from "./bridge-json.js";
import { type ConsoleLevel, createConsoleCapture } from "./console-capture.js";
import type { Engine } from "./engine-pool.js";
import { GUEST_PRELUDE, type GuestConfig } from "./guest-prelude.js";
import { contextAddress, createInterruptPacer, type InterruptPacer } from "./interrupt-pacing.js";
import { limitMessage } from "./sandbox-limits.js";
import type { StrippedSource } from "./strip-types.js";

/** What one run needs: an engine of its own, the program, its JavaScript and its limits. */
export interface RunProgramOptions {
  engine: Engine;
  program: SandboxProgram;
  /** The program's JavaScript: its source with its types stripped, or as written. */
  code: string;
  /** Set when sucrase could not read the source: the message to give if QuickJS cannot either. */
  unreadableMessage?: string;
  /**
   * When `code` is the source as written: its types stripped, called only if QuickJS cannot
   * compile it (then the stripped code is compiled, or sucrase's message given).
   */
  stripTypes?: () => Promise<StrippedSource>;
  limits: SandboxLimits;
  /** Called once the run's QuickJS runtime is disposed (or abandoned) and the engine is free. */
  onEngineFree: () => void;
}

/** What evaluating or calling into the guest gives: a value handle or an error handle. */
type GuestResult = ReturnType<QuickJSContext["callFunction"]>;

type CallResult = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A call the guest made: its result once the host has it (the guest keeps the call's promise). */
interface PendingCall {
  result?: CallResult;
}

interface Bridge {
  start: QuickJSHandle;
  serialize: QuickJSHandle;
  describe: QuickJSHandle;
  settle: QuickJSHandle;
  settleJSON: QuickJSHandle;
  fail: QuickJSHandle;
}

const NEVER_SETTLES =
  "the program awaited something that never settles: every tool call was answered and nothing is left to run";

const now = (): number => performance.now();

/**
 * Runs one program in a fresh QuickJS runtime and context on `engine`, to its outcome.
 *
 * The guest runs only inside `enterGuest` slices, which meter its CPU time; between them it waits on
 * host calls. A host call's result is delivered only when every earlier call's has been, each
 * followed by draining the guest's job queue, so the guest sees the same order on every run. The
 * promise rejects only when the engine itself fails (a trap inside QuickJS), never for anything the
 * program does.
 */
export function runProgram(options: RunProgramOptions): Promise<SandboxOutcome> {
  const { engine, program, code, limits } = options;
  const { signal } = program;
  let resolveOutcome!: (outcome: SandboxOutcome) => void;
  let rejectOutcome!: (error: unknown) => void;
  const outcome = new Promise<SandboxOutcome>((resolve, reject) => {
    resolveOutcome = resolve;
    rejectOutcome = reject;
  });

  const consoleCapture = createConsoleCapture(limits.consoleBytes);
  const startedAt = now();
  const wallDeadline = startedAt + limits.wallMs;
  let finished = false;
  let disposed = false;
  let wallExpired = false;
  /** How deep the host is inside guest code (a host function called from the guest adds none). */
  let depth = 0;
  let cpuUsedMs = 0;
  let sliceStartedAt = 0;
  let sliceHostMs = 0;
  let lastCheckAt = 0;
  let hostMsAtLastCheck = 0;
  let pacer: InterruptPacer | undefined;
  /** Why the interrupt handler stopped the guest, once it has. */
  let interruptedBy: SandboxLimitCode | "aborted" | "finished" | undefined;
  /** A limit a host function found broken while the guest ran: the run ends with it. */
  let breachedLimit: SandboxLimitCode | undefined;
  let hostStackOverflow = false;
  let engineFailure: unknown;
  const calls = new Map<number, PendingCall>();
  let issued = 0;
  let delivered = 0;
  const owned: QuickJSHandle[] = [];
  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  let bridge: Bridge | undefined;
  let programPromise: QuickJSHandle | undefined;

  const wallTimer = setTimeout(() => {
    wallExpired = true;
    stop();
  }, limits.wallMs);
  const onAbort = () => stop();
  signal?.addEventListener("abort", onAbort, { once: true });

  function finish(result: SandboxOutcome): void {
    if (finished) return;
    finished = true;
    clearTimeout(wallTimer);
    signal?.removeEventListener("abort", onAbort);
    resolveOutcome(result);
    if (depth === 0) dispose();
  }

  function finishWithLimit(code: SandboxLimitCode): void {
    finish({ kind: "limit", code, message: limitMessage(code, limits), console: consoleCapture.text() });
  }

  function failEngine(error: unknown): void {
    if (finished) return;
    engine.broken = true;
    failRun(
      new JunctionError(
        "tool-execution-failed",
        `The QuickJS sandbox failed inside its engine (${errorMessage(error)}); the engine was dropped and the next run loads a fresh one.`,
        { cause: error },
      ),
    );
  }

  /** Ends the run with `error` (the promise rejects): the engine failed, or sucrase could not be loaded. */
  function failRun(error: unknown): void {
    if (finished) return;
    finished = true;
    clearTimeout(wallTimer);
    signal?.removeEventListener("abort", onAbort);
    rejectOutcome(error);
    if (depth === 0) dispose();
  }

  /** The reason the run must end now, if there is one. */
  function stopReason(): SandboxLimitCode | "aborted" | undefined {
    if (signal?.aborted || interruptedBy === "aborted") return "aborted";
    if (hostStackOverflow) return "stack";
    if (breachedLimit !== undefined) return breachedLimit;
    if (engine.atCap) return "memory";
    if (interruptedBy !== undefined && interruptedBy !== "finished") return interruptedBy;
    if (wallExpired || now() >= wallDeadline) return "wall-time";
    return undefined;
  }

  /** Ends the run if it must end; true when it has ended. */
  function stop(): boolean {
    if (finished) return true;
    if (engineFailure !== undefined) {
      failEngine(engineFailure);
      return true;
    }
    const reason = stopReason();
    if (reason === undefined) return false;
    if (reason === "aborted") finish({ kind: "aborted", console: consoleCapture.text() });
    else finishWithLimit(reason);
    return true;
  }

  function interruptHandler(): boolean {
    if (finished) {
      interruptedBy ??= "finished";
      return true;
    }
    if (signal?.aborted) interruptedBy = "aborted";
    else if (breachedLimit !== undefined || engine.atCap) interruptedBy = breachedLimit ?? "memory";
    else if (cpuUsedMs + (now() - sliceStartedAt - sliceHostMs) > limits.cpuMs) interruptedBy = "cpu";
    else if (now() >= wallDeadline) interruptedBy = "wall-time";
    if (interruptedBy !== undefined) return true;
    const checkedAt = now();
    pacer?.paced(checkedAt - lastCheckAt - (sliceHostMs - hostMsAtLastCheck));
    lastCheckAt = checkedAt;
    hostMsAtLastCheck = sliceHostMs;
    return false;
  }

  /**
   * Runs `operation`, which enters the guest, metering its CPU time. A host exception thrown out of
   * the WebAssembly means the engine cannot be trusted again: V8's stack overflowing in deep
   * guest recursion is the `stack` limit, anything else an engine failure.
   */
  function enterGuest<T>(operation: () => T): T | undefined {
    if (finished) return undefined;
    depth++;
    const outermost = depth === 1;
    if (outermost) {
      sliceStartedAt = now();
      sliceHostMs = 0;
      lastCheckAt = sliceStartedAt;
      hostMsAtLastCheck = 0;
    }
    try {
      return operation();
    } catch (error) {
      noteGuestEscape(error);
      return undefined;
    } finally {
      if (outermost) cpuUsedMs += now() - sliceStartedAt - sliceHostMs;
      depth--;
      if (depth === 0 && finished) dispose();
    }
  }

  /** Why a host exception came out of the guest, kept for stop() to answer with. */
  function noteGuestEscape(error: unknown): void {
    // An interrupt or a refused allocation already explains it.
    if (interruptedBy !== undefined || breachedLimit !== undefined || engine.atCap) return;
    if (error instanceof errors.QuickJSUnwrapError) {
      // The guest threw where the library expected a value: the engine itself is sound.
      const message = errorMessage(error);
      if (message === "out of memory") breachedLimit = "memory";
      else if (message === "stack overflow") breachedLimit = "stack";
      else engineFailure = error;
      return;
    }
    engine.broken = true;
    if (isHostStackOverflow(error)) hostStackOverflow = true;
    else engineFailure = error;
  }

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    // A broken engine is abandoned whole: freeing anything in it could trap again.
    if (!engine.broken) {
      try {
        for (const handle of owned) if (handle.alive) handle.dispose();
        context?.dispose();
        runtime?.dispose();
      } catch {
        // QuickJS found something it could not free; the engine is not reused.
        engine.broken = true;
      }
    }
    options.onEngineFree();
  }

  function own(handle: QuickJSHandle): QuickJSHandle {
    owned.push(handle);
    return handle;
  }

  /** A call into the guest whose result handles are freed with the run, whatever happens next. */
  function callGuest(
    operation: () => GuestResult,
  ): { value: QuickJSHandle; error?: undefined } | { error: QuickJSHandle } | undefined {
    // Owned inside the slice: a run that ends during it is disposed as the slice ends.
    const result = enterGuest(() => {
      const answer = operation();
      own(answer.error ?? answer.value);
      return answer;
    });
    if (result === undefined) return undefined;
    if (result.error) return { error: result.error };
    return { value: result.value };
  }

  // --- host functions the prelude receives -------------------------------------------------------

  function hostCall(vm: QuickJSContext, indexHandle: QuickJSHandle, textHandle: QuickJSHandle) {
    const enteredAt = now();
    try {
      if (finished || breachedLimit !== undefined) return undefined;
      if (vm.typeof(textHandle) !== "string") {
        breachedLimit = "argument-size";
        return undefined;
      }
      if (issued >= limits.maxCalls) {
        breachedLimit = "calls";
        return undefined;
      }
      if (issued - delivered >= limits.maxCallsInFlight) {
        breachedLimit = "calls-in-flight";
        return undefined;
      }
      const text = vm.getString(textHandle);
      if (utf8ByteLength(text) > limits.argumentBytes) {
        breachedLimit = "argument-size";
        return undefined;
      }
      const name = program.functions[vm.getNumber(indexHandle)];
      if (name === undefined) {
        engineFailure = new Error("the guest called a function the program was not given");
        return undefined;
      }
      const args = parseGuestJSON(text);
      const sequence = ++issued;
      calls.set(sequence, {});
      let answer: Promise<JSONValue>;
      try {
        answer = Promise.resolve(program.call(name, args, sequence));
      } catch (error) {
        answer = Promise.reject(error);
      }
      answer.then(
        (value) => settle(sequence, { ok: true, value }),
        (error: unknown) => settle(sequence, { ok: false, error }),
      );
      return vm.newNumber(sequence);
    } catch (error) {
      // Called from deep guest recursion, the host's own stack can run out here: the stack limit.
      if (isHostStackOverflow(error)) breachedLimit ??= "stack";
      // Else the engine could not make the call's promise (out of memory, most likely).
      else if (!engine.atCap) engineFailure = error;
      return undefined;
    } finally {
      sliceHostMs += now() - enteredAt;
    }
  }

  function hostLog(vm: QuickJSContext, levelHandle: QuickJSHandle, textHandle: QuickJSHandle) {
    const enteredAt = now();
    try {
      consoleCapture.append(vm.getString(levelHandle) as ConsoleLevel, vm.getString(textHandle));
    } catch {
      // A line the engine could not hand over (out of memory) is left out; the limit says why.
    } finally {
      sliceHostMs += now() - enteredAt;
    }
    return undefined;
  }

  // --- delivering host results in issue order ---------------------------------------------------

  function settle(sequence: number, result: CallResult): void {
    if (finished) return;
    const call = calls.get(sequence);
    if (call === undefined) return;
    call.result = result;
    while (!finished) {
      const next = calls.get(delivered + 1);
      if (next?.result === undefined) return;
      calls.delete(delivered + 1);
      delivered++;
      deliver(delivered, next);
      advance();
    }
  }

  /** Answers the guest's call `sequence` with its result, in the guest's time. */
  function deliver(sequence: number, call: PendingCall): void {
    const vm = context!;
    const { result } = call;
    // A string (a tool's text, most often) goes in as itself: what its JSON text would parse to.
    // Not one with a NUL: QuickJS would read it as a C string and end it there.
    const text =
      result!.ok && typeof result!.value === "string" && !result!.value.includes("\u0000")
        ? result!.value
        : undefined;
    // Anything else is made JSON before the guest's time starts: it is the host's work.
    const json = result!.ok && text === undefined ? hostValueToJSON(result!.value) : undefined;
    enterGuest(() => {
      // Freed as soon as the value is handed over, whatever happens: a run may make many calls.
      const handles: QuickJSHandle[] = [];
      const keep = (handle: QuickJSHandle) => {
        handles.push(handle);
        return handle;
      };
      const answer = (fn: QuickJSHandle, ...args: QuickJSHandle[]) => {
        const made = vm.callFunction(fn, vm.undefined, keep(vm.newNumber(sequence)), ...args);
        // Failing here is the interrupt's or the engine's (out of memory): stop() tells which.
        keep(made.error ?? made.value);
      };
      const fail = (code: string, message: string) =>
        answer(bridge!.fail, keep(vm.newString(code)), keep(vm.newString(message)));
      try {
        if (text !== undefined) answer(bridge!.settle, keep(vm.newString(text)));
        else if (json === undefined) {
          const { code, message } = toCallError((result as { error: unknown }).error);
          fail(code, message);
        } else if ("error" in json) fail("result-not-json", `The tool's result is not JSON: ${json.error}`);
        else if (json.text === undefined) answer(bridge!.settle, vm.undefined);
        else answer(bridge!.settleJSON, keep(vm.newString(json.text)));
      } finally {
        for (const handle of handles) if (handle.alive) handle.dispose();
      }
    });
  }

  // --- moving the guest on and reading its outcome ----------------------------------------------

  /** Runs the guest's jobs until none is left, then looks at the program's promise. */
  function advance(): void {
    const vm = context!;
    const rt = runtime!;
    while (!stop() && rt.hasPendingJob()) {
      // An exception that escapes a job is the interrupt's (or the engine's): stop() tells which.
      enterGuest(() => rt.executePendingJobs(-1).error?.dispose());
    }
    if (stop()) return;
    const state = vm.getPromiseState(programPromise!);
    if (state.type === "pending") {
      if (delivered === issued && !rt.hasPendingJob()) {
        finish({
          kind: "threw",
          error: { name: "Error", message: NEVER_SETTLES },
          console: consoleCapture.text(),
        });
      }
      return;
    }
    if (state.type === "fulfilled") {
      returned(state.notAPromise ? state.value : own(state.value));
    } else {
      threw(own(state.error));
    }
  }

  function returned(value: QuickJSHandle): void {
    const vm = context!;
    const serialized = callGuest(() => vm.callFunction(bridge!.serialize, vm.undefined, value));
    if (stop() || serialized === undefined) return;
    if (serialized.error) {
      const { name, message } = describe(serialized.error) ?? { name: "TypeError", message: "" };
      if (stop()) return;
      finish({
        kind: "threw",
        error: { name, message: `The program's return value is not JSON: ${message}` },
        console: consoleCapture.text(),
      });
      return;
    }
    const text = serialized.value;
    const type = vm.typeof(text);
    if (type === "undefined") {
      finish({ kind: "returned", value: undefined, console: consoleCapture.text() });
      return;
    }
    if (type !== "string") {
      finishWithLimit("result-size");
      return;
    }
    const json = vm.getString(text);
    if (utf8ByteLength(json) > limits.resultBytes) {
      finishWithLimit("result-size");
      return;
    }
    finish({ kind: "returned", value: parseGuestJSON(json), console: consoleCapture.text() });
  }

  function threw(error: QuickJSHandle): void {
    const described = describe(error);
    if (stop() || described === undefined) return;
    if (described.name === "InternalError" && described.message === "stack overflow") {
      finishWithLimit("stack");
      return;
    }
    if (described.name === "InternalError" && described.message === "out of memory") {
      finishWithLimit("memory");
      return;
    }
    finish({ kind: "threw", error: described, console: consoleCapture.text() });
  }

  /** The guest's own account of an error it threw, read by the guest. */
  function describe(error: QuickJSHandle): { name: string; message: string } | undefined {
    const vm = context!;
    const described = callGuest(() => vm.callFunction(bridge!.describe, vm.undefined, error));
    if (described === undefined) return undefined;
    if (described.error)
      return { name: "Error", message: "the program threw a value that could not be read" };
    return JSON.parse(vm.getString(described.value)) as { name: string; message: string };
  }

  // --- setting up and starting ------------------------------------------------------------------

  function start(): void {
    const rt = engine.module.newRuntime();
    runtime = rt;
    // QuickJS's own counter bounds the size of one allocation; the engine pool caps the rest.
    rt.setMemoryLimit(limits.memoryBytes);
    rt.setMaxStackSize(limits.stackBytes);
    rt.setInterruptHandler(interruptHandler);
    const vm = rt.newContext();
    context = vm;
    const offset = engine.interruptCounterOffset;
    pacer = createInterruptPacer(
      engine.module.getWasmMemory(),
      offset === undefined ? undefined : contextAddress(vm) + offset,
    );

    const config: GuestConfig = {
      functions: program.functions,
      clockMs: program.clockMs,
      seed: program.seed,
      argumentChars: limits.argumentBytes,
      resultChars: limits.resultBytes,
      consoleChars: limits.consoleBytes,
    };
    const installed = enterGuest(() => {
      const install = vm.unwrapResult(vm.evalCode(GUEST_PRELUDE, "prelude.js", { type: "global" }));
      // (An exception here is the engine out of memory before any guest code ran: noteGuestEscape.)
      const hostCallHandle = vm.newFunction("hostCall", (index, text) => hostCall(vm, index, text));
      const hostLogHandle = vm.newFunction("hostLog", (level, text) => hostLog(vm, level, text));
      const configHandle = vm.newString(JSON.stringify(config));
      const result = vm.callFunction(install, vm.undefined, hostCallHandle, hostLogHandle, configHandle);
      for (const handle of [install, hostCallHandle, hostLogHandle, configHandle]) handle.dispose();
      const bridgeObject = vm.unwrapResult(result);
      const handles: Bridge = {
        start: own(vm.getProp(bridgeObject, "start")),
        serialize: own(vm.getProp(bridgeObject, "serialize")),
        describe: own(vm.getProp(bridgeObject, "describe")),
        settle: own(vm.getProp(bridgeObject, "settle")),
        settleJSON: own(vm.getProp(bridgeObject, "settleJSON")),
        fail: own(vm.getProp(bridgeObject, "fail")),
      };
      bridgeObject.dispose();
      return handles;
    });
    if (stop()) return;
    if (installed === undefined) return;
    bridge = installed;

    compileAndStart(vm, code, options);
  }

  /**
   * Compiles the program and starts it. Code QuickJS cannot compile gets its types stripped first
   * when it was the source as written (`stripTypes`), and is compiled once more.
   */
  function compileAndStart(
    vm: QuickJSContext,
    source: string,
    fallback: { unreadableMessage?: string; stripTypes?: () => Promise<StrippedSource> },
  ): void {
    const compiled = callGuest(() =>
      vm.evalCode(`(async function () {${source}\n})`, "program.js", { type: "global" }),
    );
    if (stop() || compiled === undefined) return;
    if (compiled.error) {
      if (fallback.stripTypes) {
        fallback.stripTypes().then(
          (stripped) => {
            if (stop()) return;
            try {
              compileAndStart(
                vm,
                stripped.kind === "stripped" ? stripped.code : source,
                stripped.kind === "unreadable" ? { unreadableMessage: stripped.message } : {},
              );
            } catch (error) {
              engineFailure ??= error;
              stop();
            }
          },
          (error: unknown) => failRun(error),
        );
      } else if (fallback.unreadableMessage !== undefined) {
        finish({
          kind: "threw",
          error: { name: "SyntaxError", message: fallback.unreadableMessage },
          console: consoleCapture.text(),
        });
      } else threw(compiled.error);
      return;
    }
    const programFunction = compiled.value;
    const started = callGuest(() => vm.callFunction(bridge!.start, vm.undefined, programFunction));
    if (stop() || started === undefined) return;
    if (started.error) {
      threw(started.error);
      return;
    }
    programPromise = started.value;
    advance();
  }

  try {
    start();
  } catch (error) {
    // Setting up failed outside the guest (the engine could not make a runtime or a handle).
    engineFailure ??= error;
    stop();
  }
  return outcome;
}

/** V8's (or JavaScriptCore's) "Maximum call stack size exceeded". */
function isHostStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** A host rejection as the guest's `ToolError`: its `code` and `message` when it has them. */
function toCallError(error: unknown): SandboxCallError {
  const candidate = (typeof error === "object" && error !== null ? error : {}) as Partial<SandboxCallError>;
  return {
    code: typeof candidate.code === "string" ? candidate.code : "tool-error",
    message: typeof candidate.message === "string" ? candidate.message : errorMessage(error),
  };
}
