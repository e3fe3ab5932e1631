import {
  errorMessage,
  type JSONValue,
  JunctionError,
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
import {
  hostValueToJSON,
  JSONText,
  notJSONMessage,
  parseGuestJSON,
  toCallError,
  utf8ByteLength,
} from "./bridge-json.js";
import { type ConsoleLevel, createConsoleCapture } from "./console-capture.js";
import type { Engine } from "./engine-pool.js";
import { GUEST_PARTS, type GuestConfig } from "./guest-prelude.js";
import { contextAddress, createInterruptPacer, type InterruptPacer } from "./interrupt-pacing.js";
import { limitMessage } from "./sandbox-limits.js";
import { createSeededRandom } from "./seeded-random.js";
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
  /** Told as the guest starts and stops running and as it logs (guest-thread-worker.ts passes it on). */
  meter?: GuestMeter;
}

/** What a run tells of its guest as it goes: its CPU time, and what it logs. */
export interface GuestMeter {
  /** The guest starts running, with `cpuUsedMs` spent before. */
  entered(cpuUsedMs: number): void;
  /** The guest stopped running, having spent `cpuUsedMs` in all. */
  left(cpuUsedMs: number): void;
  /** The guest logged `text` (as the console capture got it). */
  logged(level: ConsoleLevel, text: string): void;
}

/** What evaluating or calling into the guest gives: a value handle or an error handle. */
type GuestResult = ReturnType<QuickJSContext["callFunction"]>;

type CallResult = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A call the guest made: its promise's resolving functions, and its result once the host has it. */
interface PendingCall {
  resolve: QuickJSHandle;
  reject: QuickJSHandle;
  result?: CallResult;
}

/** The prelude's functions the host calls (guest-prelude.ts). */
interface Bridge {
  serialize: QuickJSHandle;
  /** The context's own `Reflect.get`, `String` and `JSON.parse`, as they were before the program ran. */
  read: QuickJSHandle;
  string: QuickJSHandle;
  parse: QuickJSHandle;
  /** `(code, message)` → a new `ToolError`. */
  toolError: QuickJSHandle;
}

/** The message of a thrown value whose message could not be read. */
const UNREADABLE_MESSAGE = "the program threw a value that could not be read";

const NEVER_SETTLES =
  "the program awaited something that never settles: every tool call was answered and nothing is left to run";

const now = (): number => performance.now();

/**
 * Runs one program on `engine`'s pristine runtime and context (pristine-engine.ts), to its outcome.
 *
 * The guest runs only inside `enterGuest` slices, which meter its CPU time; between them it waits on
 * host calls. A host call's result is delivered only when every earlier call's has been, each
 * followed by draining the guest's job queue, so the guest sees the same order on every run. The
 * promise rejects only when the engine itself fails (a trap inside QuickJS), never for anything the
 * program does.
 */
export function runProgram(options: RunProgramOptions): Promise<SandboxOutcome> {
  return new ProgramRun(options).outcome;
}

/** One program's run (see {@link runProgram}): its runtime and context, its meters, its calls, how it ends. */
class ProgramRun {
  readonly outcome: Promise<SandboxOutcome>;
  readonly #options: RunProgramOptions;
  readonly #engine: Engine;
  readonly #program: SandboxProgram;
  readonly #limits: SandboxLimits;
  readonly #signal: AbortSignal | undefined;
  #resolveOutcome!: (outcome: SandboxOutcome) => void;
  #rejectOutcome!: (error: unknown) => void;
  readonly #consoleCapture: ReturnType<typeof createConsoleCapture>;
  readonly #wallDeadline: number;
  readonly #wallTimer: ReturnType<typeof setTimeout>;
  readonly #onAbort = () => this.#stop();
  #finished = false;
  #disposed = false;
  #wallExpired = false;
  /** How deep the host is inside guest code (a host function called from the guest adds none). */
  #depth = 0;
  #cpuUsedMs = 0;
  #sliceStartedAt = 0;
  #sliceHostMs = 0;
  #lastCheckAt = 0;
  #hostMsAtLastCheck = 0;
  #pacer: InterruptPacer | undefined;
  /** Why the interrupt handler stopped the guest, once it has. */
  #interruptedBy: SandboxLimitCode | "aborted" | "finished" | undefined;
  /** A limit a host function found broken while the guest ran: the run ends with it. */
  #breachedLimit: SandboxLimitCode | undefined;
  #hostStackOverflow = false;
  #engineFailure: unknown;
  readonly #calls = new Map<number, PendingCall>();
  #issued = 0;
  #delivered = 0;
  readonly #owned: QuickJSHandle[] = [];
  #runtime: QuickJSRuntime | undefined;
  #context: QuickJSContext | undefined;
  #bridge: Bridge | undefined;
  #programPromise: QuickJSHandle | undefined;

  constructor(options: RunProgramOptions) {
    this.#options = options;
    this.#engine = options.engine;
    this.#program = options.program;
    this.#limits = options.limits;
    this.#signal = options.program.signal;
    this.outcome = new Promise<SandboxOutcome>((resolve, reject) => {
      this.#resolveOutcome = resolve;
      this.#rejectOutcome = reject;
    });
    this.#consoleCapture = createConsoleCapture(this.#limits.consoleBytes);
    this.#wallDeadline = now() + this.#limits.wallMs;
    this.#wallTimer = setTimeout(() => {
      this.#wallExpired = true;
      this.#stop();
    }, this.#limits.wallMs);
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
    try {
      this.#start();
    } catch (error) {
      // Setting up failed outside the guest (the engine could not make a runtime or a handle).
      this.#engineFailure ??= error;
      this.#stop();
    }
  }

  #finish(result: SandboxOutcome): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#wallTimer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#resolveOutcome(result);
    if (this.#depth === 0) this.#dispose();
  }

  #finishWithLimit(code: SandboxLimitCode): void {
    this.#finish({
      kind: "limit",
      code,
      message: limitMessage(code, this.#limits),
      console: this.#consoleCapture.text(),
    });
  }

  #failEngine(error: unknown): void {
    if (this.#finished) return;
    this.#engine.broken = true;
    this.#failRun(
      new JunctionError(
        "tool-execution-failed",
        `The QuickJS sandbox failed inside its engine (${errorMessage(error)}); the engine was dropped and the next run loads a fresh one.`,
        { cause: error },
      ),
    );
  }

  /** Ends the run with `error` (the promise rejects): the engine failed, or sucrase could not be loaded. */
  #failRun(error: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#wallTimer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#rejectOutcome(error);
    if (this.#depth === 0) this.#dispose();
  }

  /** The reason the run must end now, if there is one. */
  #stopReason(): SandboxLimitCode | "aborted" | undefined {
    if (this.#signal?.aborted || this.#interruptedBy === "aborted") return "aborted";
    if (this.#hostStackOverflow) return "stack";
    if (this.#breachedLimit !== undefined) return this.#breachedLimit;
    if (this.#engine.atCap) return "memory";
    if (this.#interruptedBy !== undefined && this.#interruptedBy !== "finished") return this.#interruptedBy;
    if (this.#wallExpired || now() >= this.#wallDeadline) return "wall-time";
    return undefined;
  }

  /** Ends the run if it must end; true when it has ended. */
  #stop(): boolean {
    if (this.#finished) return true;
    if (this.#engineFailure !== undefined) {
      this.#failEngine(this.#engineFailure);
      return true;
    }
    const reason = this.#stopReason();
    if (reason === undefined) return false;
    if (reason === "aborted") this.#finish({ kind: "aborted", console: this.#consoleCapture.text() });
    else this.#finishWithLimit(reason);
    return true;
  }

  #interruptHandler(): boolean {
    if (this.#finished) {
      this.#interruptedBy ??= "finished";
      // As below: a run that ended while the guest ran (an abort from a host call) must stop it too.
      this.#pacer?.stopping();
      return true;
    }
    if (this.#signal?.aborted) this.#interruptedBy = "aborted";
    else if (this.#breachedLimit !== undefined || this.#engine.atCap)
      this.#interruptedBy = this.#breachedLimit ?? "memory";
    else if (this.#cpuUsedMs + (now() - this.#sliceStartedAt - this.#sliceHostMs) > this.#limits.cpuMs)
      this.#interruptedBy = "cpu";
    else if (now() >= this.#wallDeadline) this.#interruptedBy = "wall-time";
    if (this.#interruptedBy !== undefined) {
      // Checked again at the next tick: a stop thrown inside a Promise executor is swallowed.
      this.#pacer?.stopping();
      return true;
    }
    const checkedAt = now();
    this.#pacer?.paced(checkedAt - this.#lastCheckAt - (this.#sliceHostMs - this.#hostMsAtLastCheck));
    this.#lastCheckAt = checkedAt;
    this.#hostMsAtLastCheck = this.#sliceHostMs;
    return false;
  }

  /**
   * Runs `operation`, which enters the guest, metering its CPU time. A host exception thrown out of
   * the WebAssembly means the engine cannot be trusted again: V8's stack overflowing in deep
   * guest recursion is the `stack` limit, anything else an engine failure.
   */
  #enterGuest<T>(operation: () => T): T | undefined {
    if (this.#finished) return undefined;
    this.#depth++;
    const outermost = this.#depth === 1;
    if (outermost) {
      this.#sliceStartedAt = now();
      this.#sliceHostMs = 0;
      this.#lastCheckAt = this.#sliceStartedAt;
      this.#hostMsAtLastCheck = 0;
      this.#options.meter?.entered(this.#cpuUsedMs);
    }
    try {
      return operation();
    } catch (error) {
      this.#noteGuestEscape(error);
      return undefined;
    } finally {
      if (outermost) {
        this.#cpuUsedMs += now() - this.#sliceStartedAt - this.#sliceHostMs;
        this.#options.meter?.left(this.#cpuUsedMs);
      }
      this.#depth--;
      if (this.#depth === 0 && this.#finished) this.#dispose();
    }
  }

  /** Why a host exception came out of the guest, kept for stop() to answer with. */
  #noteGuestEscape(error: unknown): void {
    // An interrupt or a refused allocation already explains it.
    if (this.#interruptedBy !== undefined || this.#breachedLimit !== undefined || this.#engine.atCap) return;
    if (error instanceof errors.QuickJSUnwrapError) {
      // The guest threw where the library expected a value: the engine itself is sound.
      const message = errorMessage(error);
      if (message === "out of memory") this.#breachedLimit = "memory";
      else if (message === "stack overflow") this.#breachedLimit = "stack";
      else this.#engineFailure = error;
      return;
    }
    this.#engine.broken = true;
    if (isHostStackOverflow(error)) this.#hostStackOverflow = true;
    else this.#engineFailure = error;
  }

  #dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    const pristine = this.#engine.pristine;
    // A broken engine is abandoned whole: freeing anything in it could trap again.
    if (!this.#engine.broken && pristine !== undefined) {
      try {
        const reusable = pristine.reset(() => {
          for (const call of this.#calls.values())
            for (const handle of [call.resolve, call.reject]) handle.dispose();
          for (const handle of this.#owned) if (handle.alive) handle.dispose();
        });
        if (!reusable) {
          // Lost its snapshot: dropped, so that the next run gets a module with one.
          if (pristine.snapshotBytes !== undefined) this.#engine.broken = true;
          else this.#engine.pristine = undefined;
        }
      } catch {
        // QuickJS found something it could not free; the engine is not reused.
        this.#engine.broken = true;
      }
    }
    this.#options.onEngineFree();
  }

  #own(handle: QuickJSHandle): QuickJSHandle {
    this.#owned.push(handle);
    return handle;
  }

  /** A call into the guest whose result handles are freed with the run, whatever happens next. */
  #callGuest(
    operation: () => GuestResult,
  ): { value: QuickJSHandle; error?: undefined } | { error: QuickJSHandle } | undefined {
    // Owned inside the slice: a run that ends during it is disposed as the slice ends.
    const result = this.#enterGuest(() => {
      const answer = operation();
      this.#own(answer.error ?? answer.value);
      return answer;
    });
    if (result === undefined) return undefined;
    if (result.error) return { error: result.error };
    return { value: result.value };
  }

  // --- host functions the prelude receives -------------------------------------------------------

  /** `hostCall(index, text, resolve, reject)`, as the prelude's tools call it. */
  #hostCall(vm: QuickJSContext, handles: QuickJSHandle[]) {
    const enteredAt = now();
    try {
      if (this.#finished || this.#breachedLimit !== undefined) return undefined;
      const [indexHandle, textHandle, resolve, reject] = handles;
      if (
        indexHandle === undefined ||
        textHandle === undefined ||
        resolve === undefined ||
        reject === undefined
      ) {
        this.#engineFailure = new Error("the prelude called hostCall without its four arguments");
        return undefined;
      }
      if (vm.typeof(textHandle) !== "string") {
        this.#breachedLimit = "argument-size";
        return undefined;
      }
      if (this.#issued >= this.#limits.maxCalls) {
        this.#breachedLimit = "calls";
        return undefined;
      }
      if (this.#issued - this.#delivered >= this.#limits.maxCallsInFlight) {
        this.#breachedLimit = "calls-in-flight";
        return undefined;
      }
      const text = vm.getString(textHandle);
      if (utf8ByteLength(text) > this.#limits.argumentBytes) {
        this.#breachedLimit = "argument-size";
        return undefined;
      }
      const name = this.#program.functions[vm.getNumber(indexHandle)];
      if (name === undefined) {
        this.#engineFailure = new Error("the guest called a function the program was not given");
        return undefined;
      }
      const args = parseGuestJSON(text);
      const sequence = ++this.#issued;
      // Kept past this call (the guest's own handles are only lent to it): freed once delivered.
      this.#calls.set(sequence, { resolve: resolve.dup(), reject: reject.dup() });
      let answer: Promise<JSONValue>;
      try {
        answer = Promise.resolve(this.#program.call(name, args, sequence));
      } catch (error) {
        answer = Promise.reject(error);
      }
      answer.then(
        (value) => this.#settle(sequence, { ok: true, value }),
        (error: unknown) => this.#settle(sequence, { ok: false, error }),
      );
      return undefined;
    } catch (error) {
      // Called from deep guest recursion, the host's own stack can run out here: the stack limit.
      if (isHostStackOverflow(error)) this.#breachedLimit ??= "stack";
      // Else the engine could not make the call's promise (out of memory, most likely).
      else if (!this.#engine.atCap) this.#engineFailure = error;
      return undefined;
    } finally {
      this.#sliceHostMs += now() - enteredAt;
    }
  }

  #hostLog(vm: QuickJSContext, levelHandle: QuickJSHandle, textHandle: QuickJSHandle) {
    const enteredAt = now();
    try {
      const level = vm.getString(levelHandle) as ConsoleLevel;
      const text = vm.getString(textHandle);
      this.#consoleCapture.append(level, text);
      this.#options.meter?.logged(level, text);
    } catch {
      // A line the engine could not hand over (out of memory) is left out; the limit says why.
    } finally {
      this.#sliceHostMs += now() - enteredAt;
    }
    return undefined;
  }

  /**
   * Compiles the guest part `index` (guest-prelude.ts) when the program first uses it, called from
   * inside the guest, and answers what the part makes of what the prelude captured. Its time is the
   * guest's: a program that makes it fail again and again (deep in recursion, at the stack limit)
   * spends its own CPU budget.
   */
  #hostPart(vm: QuickJSContext, indexHandle: QuickJSHandle, captured: QuickJSHandle[]) {
    try {
      const source = GUEST_PARTS[vm.getNumber(indexHandle)];
      if (source === undefined) {
        this.#engineFailure ??= new Error("the prelude asked for a guest part that does not exist");
        return undefined;
      }
      const compiled = vm.evalCode(source, "part.js", { type: "global" });
      // The guest's own error (stack overflow, out of memory) is thrown where the part was wanted.
      if (compiled.error) return compiled;
      const made = vm.callFunction(
        compiled.value,
        vm.undefined,
        this.#engine.pristine!.host.log,
        ...captured,
      );
      compiled.value.dispose();
      return made;
    } catch (error) {
      // A host exception came out of the WebAssembly: the engine cannot be trusted again.
      this.#engine.broken = true;
      if (isHostStackOverflow(error)) {
        this.#hostStackOverflow = true;
        this.#breachedLimit ??= "stack";
      } else this.#engineFailure ??= error;
      return undefined;
    }
  }

  // --- delivering host results in issue order ---------------------------------------------------

  #settle(sequence: number, result: CallResult): void {
    if (this.#finished) return;
    const call = this.#calls.get(sequence);
    if (call === undefined) return;
    call.result = result;
    while (!this.#finished) {
      const next = this.#calls.get(this.#delivered + 1);
      if (next?.result === undefined) return;
      this.#calls.delete(this.#delivered + 1);
      this.#delivered++;
      this.#deliver(next);
      this.#advance();
    }
  }

  /** Settles the guest's promise for `call` with its result, in the guest's time. */
  #deliver(call: PendingCall): void {
    const vm = this.#context!;
    const { result } = call;
    // A string (a tool's text, most often) goes in as itself: what its JSON text would parse to.
    // Not one with a NUL: QuickJS would read it as a C string and end it there.
    const text =
      result!.ok && typeof result!.value === "string" && !result!.value.includes("\u0000")
        ? result!.value
        : undefined;
    // Anything else is made JSON before the guest's time starts: it is the host's work (or was
    // done already, on the thread that called the tool).
    const json =
      result!.ok && text === undefined
        ? result!.value instanceof JSONText
          ? { text: result!.value.text }
          : hostValueToJSON(result!.value)
        : undefined;
    const bridge = this.#bridge!;
    this.#enterGuest(() => {
      // Freed as soon as the value is handed over, whatever happens: a run may make many calls.
      const handles: QuickJSHandle[] = [];
      const keep = (handle: QuickJSHandle) => {
        handles.push(handle);
        return handle;
      };
      /** Calls the prelude's `fn`; its value, or nothing when it failed (the interrupt's or the engine's). */
      const made = (fn: QuickJSHandle, ...args: QuickJSHandle[]) => {
        const answer = vm.callFunction(fn, vm.undefined, ...args);
        keep(answer.error ?? answer.value);
        return answer.error ? undefined : answer.value;
      };
      const settle = (value: QuickJSHandle) => made(call.resolve, value);
      const fail = (code: string, message: string) => {
        const error = made(bridge.toolError, keep(vm.newString(code)), keep(vm.newString(message)));
        if (error !== undefined) made(call.reject, error);
      };
      try {
        keep(call.resolve);
        keep(call.reject);
        if (text !== undefined) settle(keep(vm.newString(text)));
        else if (json === undefined) {
          const { code, message } = toCallError((result as { error: unknown }).error);
          fail(code, message);
        } else if ("error" in json) fail("result-not-json", notJSONMessage(json.error));
        else if (json.text === undefined) settle(vm.undefined);
        else {
          const value = made(bridge.parse, keep(vm.newString(json.text)));
          if (value !== undefined) settle(value);
          // Not the interrupt nor the memory limit: the only other failure of valid JSON text is
          // QuickJS's stack overflowing on its nesting. The call fails, or it would never settle.
          else if (this.#interruptedBy === undefined && !this.#engine.atCap)
            fail("result-not-json", tooDeepMessage(this.#limits.stackBytes));
        }
      } finally {
        for (const handle of handles) if (handle.alive) handle.dispose();
      }
    });
  }

  // --- moving the guest on and reading its outcome ----------------------------------------------

  /** Runs the guest's jobs until none is left, then looks at the program's promise. */
  #advance(): void {
    const vm = this.#context!;
    const rt = this.#runtime!;
    while (!this.#stop() && rt.hasPendingJob()) {
      // An exception that escapes a job is the interrupt's (or the engine's): stop() tells which.
      this.#enterGuest(() => rt.executePendingJobs(-1).error?.dispose());
    }
    if (this.#stop()) return;
    const state = vm.getPromiseState(this.#programPromise!);
    if (state.type === "pending") {
      if (this.#delivered === this.#issued && !rt.hasPendingJob()) {
        this.#finish({
          kind: "threw",
          error: { name: "Error", message: NEVER_SETTLES },
          console: this.#consoleCapture.text(),
        });
      }
      return;
    }
    if (state.type === "fulfilled") {
      this.#returned(state.notAPromise ? state.value : this.#own(state.value));
    } else {
      this.#threw(this.#own(state.error));
    }
  }

  #returned(value: QuickJSHandle): void {
    const vm = this.#context!;
    // A number, a boolean or null is read here, as its JSON would parse to, with no guest code run.
    const primitive = readJSONPrimitive(vm, value);
    if (primitive !== undefined) {
      this.#finish({ kind: "returned", value: primitive.value, console: this.#consoleCapture.text() });
      return;
    }
    const serialized = this.#callGuest(() => vm.callFunction(this.#bridge!.serialize, vm.undefined, value));
    if (this.#stop() || serialized === undefined) return;
    if (serialized.error) {
      const { name, message } = this.#describe(serialized.error) ?? { name: "TypeError", message: "" };
      if (this.#stop()) return;
      this.#finish({
        kind: "threw",
        error: { name, message: `The program's return value is not JSON: ${message}` },
        console: this.#consoleCapture.text(),
      });
      return;
    }
    const text = serialized.value;
    const type = vm.typeof(text);
    if (type === "undefined") {
      this.#finish({ kind: "returned", value: undefined, console: this.#consoleCapture.text() });
      return;
    }
    if (type !== "string") {
      this.#finishWithLimit("result-size");
      return;
    }
    const json = vm.getString(text);
    if (utf8ByteLength(json) > this.#limits.resultBytes) {
      this.#finishWithLimit("result-size");
      return;
    }
    this.#finish({ kind: "returned", value: parseGuestJSON(json), console: this.#consoleCapture.text() });
  }

  #threw(error: QuickJSHandle): void {
    const described = this.#describe(error);
    if (this.#stop() || described === undefined) return;
    if (described.name === "InternalError" && described.message === "stack overflow") {
      this.#finishWithLimit("stack");
      return;
    }
    if (described.name === "InternalError" && described.message === "out of memory") {
      this.#finishWithLimit("memory");
      return;
    }
    this.#finish({ kind: "threw", error: described, console: this.#consoleCapture.text() });
  }

  /**
   * A thrown value's `name` and `message`, read by the host with the context's own `Reflect.get`
   * and `String` (a getter or a `toString` on it is guest code: it runs in the guest's time). A
   * non-string `name` is `Error`; a non-string `message` is the value as a string. Undefined when
   * the run ended while reading.
   */
  #describe(error: QuickJSHandle): { name: string; message: string } | undefined {
    const vm = this.#context!;
    const bridge = this.#bridge!;
    let name = "Error";
    const described = (message: string) => ({ name: cutText(name, 200), message: cutText(message, 8000) });
    const type = vm.typeof(error);
    if (type === "object" || type === "function") {
      const readName = this.#readProperty(error, "name");
      if (readName === undefined) return undefined;
      if (readName.error) return described(UNREADABLE_MESSAGE);
      if (vm.typeof(readName.value) === "string") name = vm.getString(readName.value);
      const readMessage = this.#readProperty(error, "message");
      if (readMessage === undefined) return undefined;
      if (readMessage.error) return described(UNREADABLE_MESSAGE);
      if (vm.typeof(readMessage.value) === "string") return described(vm.getString(readMessage.value));
    }
    const asString = this.#callGuest(() => vm.callFunction(bridge.string, vm.undefined, error));
    if (asString === undefined) return undefined;
    if (asString.error) return described(UNREADABLE_MESSAGE);
    return described(vm.getString(asString.value));
  }

  /** `target[key]` in the guest, by the context's own `Reflect.get`: a getter runs in the guest's time. */
  #readProperty(target: QuickJSHandle, key: string) {
    const vm = this.#context!;
    const keyHandle = this.#own(vm.newString(key));
    return this.#callGuest(() => vm.callFunction(this.#bridge!.read, vm.undefined, target, keyHandle));
  }

  // --- setting up and starting ------------------------------------------------------------------

  #start(): void {
    const pristine = this.#engine.pristine;
    if (pristine === undefined) throw new Error("the engine was handed out without a runtime set up");
    const { runtime: rt, context: vm, host } = pristine;
    this.#runtime = rt;
    this.#context = vm;
    // No limit on QuickJS's own counter: an allocation it refused would throw "out of memory" with
    // nothing the host could see, and a program that caught it would go on. The engine pool caps
    // the WebAssembly memory's growth instead, and a refused growth ends the run (engine-pool.ts).
    rt.setMaxStackSize(this.#limits.stackBytes);
    const random = createSeededRandom(this.#program.seed);
    pristine.hooks = {
      interrupt: () => this.#interruptHandler(),
      call: (args) => this.#hostCall(vm, args),
      random: () => vm.newNumber(random()),
      part: (index, captured) => this.#hostPart(vm, index, captured),
      log: (level, text) => this.#hostLog(vm, level, text),
    };
    const offset = this.#engine.interruptCounterOffset;
    this.#pacer = createInterruptPacer(
      this.#engine.module.getWasmMemory(),
      offset === undefined ? undefined : contextAddress(vm) + offset,
    );

    const config: GuestConfig = {
      functions: this.#program.functions,
      clockMs: this.#program.clockMs,
      argumentChars: this.#limits.argumentBytes,
      resultChars: this.#limits.resultBytes,
      consoleChars: this.#limits.consoleBytes,
    };
    const installed = this.#enterGuest(() => {
      // (An exception here is the engine out of memory before any guest code ran: noteGuestEscape.)
      const configHandle = vm.newString(JSON.stringify(config));
      const result = vm.callFunction(
        pristine.install,
        vm.undefined,
        host.call,
        host.random,
        host.part,
        configHandle,
      );
      configHandle.dispose();
      const bridgeObject = vm.unwrapResult(result);
      const handles: Bridge = {
        serialize: this.#own(vm.getProp(bridgeObject, "serialize")),
        read: this.#own(vm.getProp(bridgeObject, "read")),
        string: this.#own(vm.getProp(bridgeObject, "string")),
        parse: this.#own(vm.getProp(bridgeObject, "parse")),
        toolError: this.#own(vm.getProp(bridgeObject, "toolError")),
      };
      bridgeObject.dispose();
      return handles;
    });
    if (this.#stop()) return;
    if (installed === undefined) return;
    this.#bridge = installed;

    this.#compileAndStart(vm, this.#options.code, this.#options);
  }

  /**
   * Compiles the program and starts it. Code QuickJS cannot compile gets its types stripped first
   * when it was the source as written (`stripTypes`), and is compiled once more.
   */
  #compileAndStart(
    vm: QuickJSContext,
    source: string,
    fallback: { unreadableMessage?: string; stripTypes?: () => Promise<StrippedSource> },
  ): void {
    const compiled = this.#callGuest(() =>
      vm.evalCode(`(async function () {${source}\n})`, "program.js", { type: "global" }),
    );
    if (this.#stop() || compiled === undefined) return;
    if (compiled.error) {
      if (fallback.stripTypes) {
        fallback.stripTypes().then(
          (stripped) => {
            if (this.#stop()) return;
            try {
              this.#compileAndStart(
                vm,
                stripped.kind === "stripped" ? stripped.code : source,
                stripped.kind === "unreadable" ? { unreadableMessage: stripped.message } : {},
              );
            } catch (error) {
              this.#engineFailure ??= error;
              this.#stop();
            }
          },
          (error: unknown) => this.#failRun(error),
        );
      } else if (fallback.unreadableMessage !== undefined) {
        this.#finish({
          kind: "threw",
          error: { name: "SyntaxError", message: fallback.unreadableMessage },
          console: this.#consoleCapture.text(),
        });
      } else this.#threw(compiled.error);
      return;
    }
    const programFunction = compiled.value;
    const started = this.#callGuest(() => vm.callFunction(programFunction, vm.undefined));
    if (this.#stop() || started === undefined) return;
    if (started.error) {
      this.#threw(started.error);
      return;
    }
    this.#programPromise = started.value;
    this.#advance();
  }
}

/**
 * A guest number, boolean or null as the value its JSON text parses to (a number that is not finite
 * is `null`, `-0` is `0`); undefined for anything else, which is copied out by the guest. (A
 * `toJSON` the program put on `Number.prototype` or `Boolean.prototype` is not called for it.)
 */
function readJSONPrimitive(
  vm: QuickJSContext,
  handle: QuickJSHandle,
): { value: number | boolean | null } | undefined {
  const type = vm.typeof(handle);
  if (type === "number") {
    const number = vm.getNumber(handle);
    return { value: Number.isFinite(number) ? number + 0 : null };
  }
  if (type === "boolean") return { value: vm.sameValue(handle, vm.true) };
  if (type === "object" && vm.sameValue(handle, vm.null)) return { value: null };
  return undefined;
}

/** Why a tool's result the guest could not read fails its call. */
function tooDeepMessage(stackBytes: number): string {
  return `The tool's result is nested too deeply for the program's stack limit of ${stackBytes} bytes to read it: ask the tool for less nested data.`;
}

/** `text` cut to `length` UTF-16 units. */
function cutText(text: string, length: number): string {
  return text.length > length ? text.slice(0, length) : text;
}

/** V8's (or JavaScriptCore's) "Maximum call stack size exceeded". */
function isHostStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
