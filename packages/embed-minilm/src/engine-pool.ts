// The model's engine (`@lat.md/embed`, candle compiled to WASM, single-threaded) run in at most
// `workers` worker threads, each holding one copy of the model, fed one text at a time, so the
// caller's thread is never blocked by a forward pass and an abort drops the texts not started.
import { Worker } from "node:worker_threads";
import { createAbortError, JunctionError } from "@junction/types";

/**
 * A text the engine runs while it warms up (about 30 tokens, like a tool's or a request's text);
 * its vector is thrown away.
 */
export const WARM_UP_TEXT =
  "search_tools: finds the tools that fit a request among every connected server's tools, by their name, description and parameters";

/**
 * How many times {@link EnginePool.load} runs {@link WARM_UP_TEXT} after the weights are read.
 * V8 first runs WebAssembly with its baseline compiler (Liftoff) and recompiles a function with its
 * optimizing one (TurboFan) once it has run enough, in the background; until then a forward pass is
 * 3–4 times slower. Measured on this project's machine (2 shared cores, Node 24): a ~20-token
 * request right after the one text the weights are read with took 180–190 ms, and 50–60 ms after
 * 6 to 10 passes of this text, whose own time fell from ~230 ms to ~67 ms by the sixth.
 */
export const WARM_UP_PASSES = 8;

/**
 * What runs in each worker: loads the engine with the weights package's manifest (through the
 * engine's public `createEmbedder`; its inline path, one text per call, since it is given one
 * text at a time), runs one text so the weights are read, then answers `{ id, text }` with
 * `{ id, vector }` or `{ id, error }`, and `{ warmUp: { text, passes } }` with `{ warmed: true }`
 * after running the text that many times, yielding between passes so a text sent meanwhile runs
 * then instead of waiting for the warm-up to end.
 */
const WORKER_SOURCE = `
import { parentPort, workerData } from "node:worker_threads";
const { createEmbedder } = await import(workerData.engineURL);
const manifest = (await import(workerData.modelURL)).default;
const embedder = await createEmbedder({ model: manifest });
// The engine reads the weights at its first text: do it now, so "ready" means loaded.
await embedder.embed(["ready"]);
parentPort.on("message", async ({ id, text, warmUp }) => {
  if (warmUp) {
    try {
      for (let pass = 0; pass < warmUp.passes; pass++) {
        await embedder.embed([warmUp.text]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch {
      // Only a warm-up: the engine's failure is told with the next text it is given.
    }
    parentPort.postMessage({ warmed: true });
    return;
  }
  try {
    const [vector] = await embedder.embed([text]);
    const packed = Float32Array.from(vector);
    parentPort.postMessage({ id, vector: packed }, [packed.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
parentPort.postMessage({ ready: true });
`;

interface Job {
  id: number;
  text: string;
  resolve: (vector: number[]) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  ready: boolean;
  /** The warm-up asked for by {@link EnginePool.load} (once per worker): settles when it has run. */
  warmUp: Promise<void> | undefined;
  /** Whether the warm-up is running now (the worker is then kept alive, as for a job). */
  warming: boolean;
}

/** Counts of what a pool has done, for {@link EnginePool.stats}. */
export interface EnginePoolStats {
  /** Worker threads started (each loads the model once). */
  workersStarted: number;
  /** Texts run through the model. */
  textsEmbedded: number;
}

/** Where the engine and the weights are, as module URLs a worker can import. */
export interface EngineModules {
  engineURL: string;
  modelURL: string;
}

/** At most `workers` engines in worker threads, started on demand and kept until {@link close}. */
export class EnginePool {
  readonly #workers: number;
  readonly #modules: () => EngineModules;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 0;
  #closed = false;
  readonly #stats: EnginePoolStats = { workersStarted: 0, textsEmbedded: 0 };

  constructor(options: { workers: number; modules: () => EngineModules }) {
    this.#workers = options.workers;
    this.#modules = options.modules;
  }

  /** What the pool has done so far. */
  get stats(): EnginePoolStats {
    return { ...this.#stats };
  }

  /**
   * Starts the engines up to `count` (at most the pool's bound) and waits until they have loaded
   * the model and warmed up ({@link WARM_UP_PASSES} passes of {@link WARM_UP_TEXT}, so the next
   * text runs at full speed). A text sent meanwhile runs between two passes, not after them.
   */
  async load(count = 1): Promise<void> {
    while (this.#slots.length < Math.min(count, this.#workers)) this.#start();
    await Promise.all(this.#slots.map((slot) => this.#warmedUp(slot)));
  }

  /**
   * One text's vector. Rejects with the project's abort error when `signal` aborts before the
   * text reached an engine (a text already in an engine finishes there, and still resolves).
   */
  embed(text: string, signal?: AbortSignal): Promise<number[]> {
    if (this.#closed)
      return Promise.reject(new JunctionError("invalid-argument", "The MiniLM embedder was closed."));
    if (signal?.aborted) return Promise.reject(createAbortError("The embedding was aborted.", signal.reason));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.#nextId++, text, resolve, reject, signal, onAbort: undefined };
      if (signal) {
        job.onAbort = () => {
          const at = this.#queue.indexOf(job);
          if (at === -1) return; // already in an engine: it finishes and resolves
          this.#queue.splice(at, 1);
          reject(createAbortError("The embedding was aborted.", signal.reason));
        };
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Stops every engine; texts waiting or running are rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    const closed = new JunctionError("invalid-argument", "The MiniLM embedder was closed.");
    for (const job of this.#queue.splice(0)) this.#settle(job, () => job.reject(closed));
    const slots = this.#slots.splice(0);
    for (const slot of slots) if (slot.job) this.#settle(slot.job, () => slot.job!.reject(closed));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (slot.ready && !slot.job) this.#dispatch(slot, this.#queue.shift()!);
    }
    const starting = this.#slots.filter((slot) => !slot.ready).length;
    if (this.#queue.length > starting && this.#slots.length < this.#workers) this.#start();
  }

  #dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, text: job.text });
  }

  /** Asks a worker to warm up (once) and settles when it has, or when the worker is gone. */
  #warmedUp(slot: Slot): Promise<void> {
    slot.warmUp ??= new Promise<void>((resolve, reject) => {
      const { worker } = slot;
      const done = () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", done);
        resolve();
      };
      const onMessage = (message: { warmed?: true }) => {
        if (message.warmed) done();
      };
      const onError = (error: Error) => {
        worker.off("message", onMessage);
        worker.off("exit", done);
        reject(error);
      };
      worker.on("message", onMessage);
      worker.once("error", onError);
      // A worker that stops has nothing left to warm up; a text sent to the pool says why it stopped.
      worker.once("exit", done);
      slot.warming = true;
      worker.ref();
      // Queued by the worker's port until its engine is loaded (the worker then says "ready" first).
      worker.postMessage({ warmUp: { text: WARM_UP_TEXT, passes: WARM_UP_PASSES } });
    });
    return slot.warmUp;
  }

  #settle(job: Job, settle: () => void): void {
    if (job.signal && job.onAbort) job.signal.removeEventListener("abort", job.onAbort);
    settle();
  }

  #start(): void {
    const modules = this.#modules();
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER_SOURCE)}`), {
      workerData: modules,
    });
    this.#stats.workersStarted++;
    const slot: Slot = { worker, job: undefined, ready: false, warmUp: undefined, warming: false };
    this.#slots.push(slot);
    worker.on(
      "message",
      (message: { ready?: true; warmed?: true; id?: number; vector?: Float32Array; error?: string }) => {
        if (message.ready) {
          slot.ready = true;
        } else if (message.warmed) {
          slot.warming = false; // #warmedUp's own listener settles the load
        } else {
          const job = slot.job;
          slot.job = undefined;
          if (job && job.id === message.id) {
            if (message.vector) {
              this.#stats.textsEmbedded++;
              const vector = Array.from(message.vector);
              this.#settle(job, () => job.resolve(vector));
            } else {
              const error = new JunctionError(
                "tool-execution-failed",
                `The MiniLM model failed on a text: ${message.error ?? "no reason given"}.`,
              );
              this.#settle(job, () => job.reject(error));
            }
          }
        }
        // An idle engine does not keep the process alive; a busy one does (its caller is waiting).
        if (!slot.job && !slot.warming) worker.unref();
        this.#pump();
      },
    );
    const lost = (reason: string, cause?: unknown) => {
      const at = this.#slots.indexOf(slot);
      if (at === -1) return;
      this.#slots.splice(at, 1);
      const job = slot.job;
      slot.job = undefined;
      const error = new JunctionError("tool-execution-failed", `The MiniLM model's worker ${reason}.`, {
        cause,
      });
      if (job) this.#settle(job, () => job.reject(error));
      // A model that cannot load fails every text waiting for it, instead of starting again forever.
      if (!slot.ready)
        for (const waiting of this.#queue.splice(0)) this.#settle(waiting, () => waiting.reject(error));
      this.#pump();
    };
    worker.on("error", (error) => lost(`failed: ${error.message}`, error));
    worker.on("exit", (code) => lost(`stopped (exit code ${code})`));
    worker.ref();
  }
}
