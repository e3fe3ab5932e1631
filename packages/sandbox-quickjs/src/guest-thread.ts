import type { Worker } from "node:worker_threads";
import {
  JunctionError,
  type JunctionErrorCode,
  type Sandbox,
  type SandboxLimitCode,
  type SandboxLimits,
  type SandboxOutcome,
  type SandboxProgram,
} from "@junction/types";
import { hostValueToJSON, notJSONMessage, toCallError } from "./bridge-json.js";
import { checkProgram } from "./check-program.js";
import { type ConsoleCapture, createConsoleCapture } from "./console-capture.js";
import {
  epochNow,
  type FromGuestThread,
  METER,
  type ThreadAnswer,
  type ToGuestThread,
} from "./guest-thread-protocol.js";
import { limitMessage, resolveSandboxLimits } from "./sandbox-limits.js";

/**
 * How far past its CPU or wall-clock limit (or past an abort) a guest may go before its thread is
 * ended: well beyond the few milliseconds the guest's own interrupt check takes to stop it, so only
 * a guest held inside one long native call is ended this way.
 */
export const WORKER_OVERRUN_GRACE_MS = 250;
/** Added to a limit's message when the watchdog ended the thread. */
export const OVERRUN_NOTE = "It was stopped from outside, inside one long operation.";
/** How often a running guest's meter is read. */
const WATCH_EVERY_MS = 25;
/** Idle worker threads kept for the next runs, each with a warm engine. */
const IDLE_THREADS = 1;

/**
 * `quickjsSandbox({ thread: "worker" })`: each run on a worker thread of its own, watched from the
 * calling thread, which answers its tool calls and ends the thread when its guest overruns a limit
 * without stopping (see {@link WORKER_OVERRUN_GRACE_MS}). A run started while another is going
 * gets a thread of its own.
 */
export function workerThreadSandbox(limits: Partial<SandboxLimits> | undefined): Sandbox {
  const idle: GuestThread[] = [];
  return {
    async run(program: SandboxProgram): Promise<SandboxOutcome> {
      checkProgram(program);
      const runLimits = resolveSandboxLimits(limits, program.limits);
      if (program.signal?.aborted) return { kind: "aborted", console: "" };
      const thread = takeIdle(idle) ?? (await GuestThread.start());
      try {
        return await thread.run(program, runLimits);
      } finally {
        if (thread.reusable && idle.length < IDLE_THREADS) idle.push(thread);
        else void thread.close();
      }
    },
  };
}

/** `AsyncResource.bind`: `fn`, to run in the async context it is bound in. */
type BindToContext = (fn: (message: FromGuestThread) => void) => (message: FromGuestThread) => void;

/** An idle thread that is still there (one whose worker exited meanwhile is dropped). */
function takeIdle(idle: GuestThread[]): GuestThread | undefined {
  for (let thread = idle.pop(); thread !== undefined; thread = idle.pop()) if (thread.reusable) return thread;
  return undefined;
}

/** One worker thread and the run it is doing. */
class GuestThread {
  readonly #worker: Worker;
  readonly #meter: Int32Array;
  #run: ThreadRun | undefined;
  /** The current run's `onMessage`, bound to the async context `run()` was called in. */
  #onMessage: ((message: FromGuestThread) => void) | undefined;
  readonly #inCurrentContext: BindToContext;
  #exited = false;

  private constructor(worker: Worker, meter: Int32Array, inCurrentContext: BindToContext) {
    this.#worker = worker;
    this.#meter = meter;
    this.#inCurrentContext = inCurrentContext;
    worker.unref();
    // A message comes in the async context the worker was made in: the run's own handles it in its.
    worker.on("message", (message: FromGuestThread) => this.#onMessage?.(message));
    worker.on("error", (error: Error) => this.#run?.fail(threadFailure(`failed: ${error.message}`, error)));
    worker.on("exit", (code: number) => {
      this.#exited = true;
      this.#run?.fail(threadFailure(`exited with code ${code} during the run`));
    });
  }

  static async start(): Promise<GuestThread> {
    const [{ Worker }, { AsyncResource }] = await Promise.all([
      import("node:worker_threads"),
      import("node:async_hooks"),
    ]).catch((error: unknown) => {
      throw new JunctionError(
        "invalid-argument",
        'quickjsSandbox({ thread: "worker" }) needs node:worker_threads (Node, Bun or Deno), which this runtime does not have: use thread: "host".',
        { cause: error },
      );
    });
    const meter = new SharedArrayBuffer(METER.slots * Int32Array.BYTES_PER_ELEMENT);
    return new GuestThread(
      new Worker(workerEntry(), { workerData: { meter } }),
      new Int32Array(meter),
      (fn) => AsyncResource.bind(fn),
    );
  }

  /** Not ended by the watchdog and still there: it may run the next program. */
  get reusable(): boolean {
    return !this.#exited && this.#run === undefined;
  }

  async run(program: SandboxProgram, limits: SandboxLimits): Promise<SandboxOutcome> {
    const run = new ThreadRun(program, limits, {
      meter: this.#meter,
      post: (message) => this.#worker.postMessage(message),
    });
    this.#run = run;
    // So the tool calls run in the caller's context (its AsyncLocalStorage: a durable engine's
    // workflow, a trace's span), as they do on the host thread.
    this.#onMessage = this.#inCurrentContext((message: FromGuestThread) => run.onMessage(message));
    this.#worker.ref();
    try {
      return await run.outcome;
    } finally {
      if (run.overran) {
        // Ended from here: the thread is still inside the guest's native call.
        this.#exited = true;
        await this.#worker.terminate();
      }
      this.#run = undefined;
      this.#onMessage = undefined;
      this.#worker.unref();
    }
  }

  async close(): Promise<void> {
    if (!this.#exited) await this.#worker.terminate();
  }
}

/** How a run reaches its thread: the shared meter, and messages to the worker. */
interface ThreadChannel {
  meter: Int32Array;
  post(message: ToGuestThread): void;
}

/** One program's run on a thread: its tool calls answered, its meter watched, its outcome. */
class ThreadRun {
  readonly outcome: Promise<SandboxOutcome>;
  /** Ended from the calling thread (the watchdog): the worker must be terminated. */
  overran = false;
  readonly #program: SandboxProgram;
  readonly #limits: SandboxLimits;
  readonly #meter: Int32Array;
  readonly #post: (message: ToGuestThread) => void;
  readonly #startedAt = epochNow();
  readonly #watch: ReturnType<typeof setInterval>;
  readonly #onAbort = () => {
    this.#abortedAt = epochNow();
    this.#post({ type: "abort" });
  };
  #abortedAt: number | undefined;
  /** What the guest logged, kept here too: the outcome's console if the thread is ended. */
  readonly #console: ConsoleCapture;
  #resolve!: (outcome: SandboxOutcome) => void;
  #reject!: (error: unknown) => void;
  #ended = false;

  constructor(program: SandboxProgram, limits: SandboxLimits, { meter, post }: ThreadChannel) {
    this.#program = program;
    this.#limits = limits;
    this.#meter = meter;
    this.#post = post;
    this.#console = createConsoleCapture(limits.consoleBytes);
    this.outcome = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    Atomics.store(meter, METER.running, 0);
    this.#watch = setInterval(() => this.#check(), WATCH_EVERY_MS);
    program.signal?.addEventListener("abort", this.#onAbort, { once: true });
    const { source, functions, clockMs, seed } = program;
    post({ type: "run", program: { source, functions, clockMs, seed, limits, startedAt: this.#startedAt } });
    // Aborted while the thread was being started: no abort event comes any more.
    if (program.signal?.aborted) this.#onAbort();
  }

  onMessage(message: FromGuestThread): void {
    if (this.#ended) return;
    switch (message.type) {
      case "call":
        void this.#answer(message.sequence, message.name, message.args);
        return;
      case "logged":
        this.#console.append(message.level, message.text);
        return;
      case "outcome":
        this.#end(() => this.#resolve(message.outcome));
        return;
      case "failed":
        this.fail(new JunctionError(message.code as JunctionErrorCode, message.message));
        return;
    }
  }

  fail(error: JunctionError): void {
    this.#end(() => this.#reject(error));
  }

  async #answer(sequence: number, name: string, args: Parameters<SandboxProgram["call"]>[1]): Promise<void> {
    let answer: ThreadAnswer;
    try {
      answer = toThreadAnswer(await this.#program.call(name, args, sequence));
    } catch (error) {
      answer = { ok: false, error: toCallError(error) };
    }
    if (!this.#ended) this.#post({ type: "answer", sequence, answer });
  }

  /** Ends the run from here when its guest is past a limit (or an abort) by more than the grace. */
  #check(): void {
    const now = epochNow();
    const elapsed = now - this.#startedAt;
    if (this.#abortedAt !== undefined && now - this.#abortedAt > WORKER_OVERRUN_GRACE_MS) {
      this.#overrun({ kind: "aborted", console: this.#console.text() });
      return;
    }
    const running = Atomics.load(this.#meter, METER.running) === 1;
    const cpuMs =
      Atomics.load(this.#meter, METER.cpuUsedMs) +
      (running ? elapsed - Atomics.load(this.#meter, METER.sliceStartedAt) : 0);
    if (running && cpuMs > this.#limits.cpuMs + WORKER_OVERRUN_GRACE_MS) this.#overrunLimit("cpu");
    else if (elapsed > this.#limits.wallMs + WORKER_OVERRUN_GRACE_MS) this.#overrunLimit("wall-time");
  }

  #overrunLimit(code: SandboxLimitCode): void {
    this.#overrun({
      kind: "limit",
      code,
      message: `${limitMessage(code, this.#limits)} ${OVERRUN_NOTE}`,
      console: this.#console.text(),
    });
  }

  #overrun(outcome: SandboxOutcome): void {
    this.overran = true;
    this.#end(() => this.#resolve(outcome));
  }

  #end(settle: () => void): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#watch);
    this.#program.signal?.removeEventListener("abort", this.#onAbort);
    settle();
  }
}

/** A tool's result as it crosses to the worker: the same JSON the host thread's sandbox would make. */
function toThreadAnswer(value: unknown): ThreadAnswer {
  if (typeof value === "string") return { ok: true, string: value };
  const json = hostValueToJSON(value);
  if ("error" in json)
    return { ok: false, error: { code: "result-not-json", message: notJSONMessage(json.error) } };
  return { ok: true, json: json.text };
}

function threadFailure(what: string, cause?: unknown): JunctionError {
  return new JunctionError(
    "tool-execution-failed",
    `The QuickJS sandbox's worker thread ${what}; the next run starts a new one.`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * The worker's module. From the built package it sits beside this one; from the sources (the
 * package's own tests) the built one is used, since Node does not resolve the sources' `.js`
 * imports to their `.ts` files: build the package first (`pnpm build`).
 */
function workerEntry(): URL {
  return import.meta.url.endsWith(".ts")
    ? new URL("../dist/guest-thread-worker.js", import.meta.url)
    : new URL("./guest-thread-worker.js", import.meta.url);
}
