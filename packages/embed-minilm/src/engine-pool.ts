// The model's engine (`@lat.md/embed`, candle compiled to WASM, single-threaded) run in at most
// `workers` worker threads, each holding one copy of the model, fed one text at a time, so the
// caller's thread is never blocked by a forward pass and an abort drops the texts not started.
import { Worker } from "node:worker_threads";
import { createAbortError, JunctionError } from "@junction/types";

/**
 * What runs in each worker: loads the engine with the weights package's manifest (through the
 * engine's public `createEmbedder`; its inline path, one text per call, since it is given one
 * text at a time), runs one text so the weights are read, then answers `{ id, text }` with `{ id, vector }` or `{ id, error }`.
 */
const WORKER_SOURCE = `
import { parentPort, workerData } from "node:worker_threads";
const { createEmbedder } = await import(workerData.engineURL);
const manifest = (await import(workerData.modelURL)).default;
const embedder = await createEmbedder({ model: manifest });
// The engine reads the weights at its first text: do it now, so "ready" means loaded.
await embedder.embed(["ready"]);
parentPort.on("message", async ({ id, text }) => {
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

  /** Starts the engines up to `count` (at most the pool's bound) and waits until they have loaded the model. */
  async load(count = 1): Promise<void> {
    while (this.#slots.length < Math.min(count, this.#workers)) this.#start();
    await Promise.all(
      this.#slots.map(
        (slot) =>
          new Promise<void>((resolve, reject) => {
            if (slot.ready) return resolve();
            slot.worker.once("message", () => resolve());
            slot.worker.once("error", reject);
            slot.worker.once("exit", () => resolve());
          }),
      ),
    );
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
    const slot: Slot = { worker, job: undefined, ready: false };
    this.#slots.push(slot);
    worker.on("message", (message: { ready?: true; id?: number; vector?: Float32Array; error?: string }) => {
      if (message.ready) {
        slot.ready = true;
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
      if (!slot.job) worker.unref();
      this.#pump();
    });
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
