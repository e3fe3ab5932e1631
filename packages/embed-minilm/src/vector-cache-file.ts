// The one module that owns the vector cache's file format: a key builder, an encoder and its
// decoder as inverses, and the reads and writes of one folder. A cache file is untrusted input
// (another process, a full disk or a hand may have left anything there): a file is used only when
// its length, header, key, checksum and values all check out.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { homedir, platform } from "node:os";
import { join } from "node:path";
import { errorMessage } from "@junction/types";

/** The first bytes of every cache file: the format's name and version. */
const MAGIC = Buffer.from("JMV1", "latin1");
const KEY_BYTES = 32;
const CHECKSUM_BYTES = 32;
/** Where the vector starts: magic, dimensions (u32 LE), key. */
const HEADER_BYTES = MAGIC.length + 4 + KEY_BYTES;

/** How many bytes a file holding a vector of `dimensions` numbers takes. */
export function cacheFileBytes(dimensions: number): number {
  return HEADER_BYTES + dimensions * 4 + CHECKSUM_BYTES;
}

/**
 * The key a text's vector is kept under: SHA-256 of the model's id and the exact text, so a tool
 * whose description changes is embedded again, and another model's vectors are never read back.
 */
export function vectorKey(modelId: string, text: string): Buffer {
  return createHash("sha256").update(`${modelId}\u0000${text}`, "utf8").digest();
}

/** A vector as a cache file's bytes: header, the vector as float32 LE, SHA-256 of all before. */
export function encodeVectorFile(key: Buffer, vector: readonly number[]): Buffer {
  const bytes = Buffer.alloc(cacheFileBytes(vector.length));
  MAGIC.copy(bytes, 0);
  bytes.writeUInt32LE(vector.length, MAGIC.length);
  key.copy(bytes, MAGIC.length + 4);
  vector.forEach((value, index) => {
    bytes.writeFloatLE(value, HEADER_BYTES + index * 4);
  });
  const body = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  createHash("sha256").update(body).digest().copy(bytes, body.length);
  return bytes;
}

/**
 * A cache file's vector, or why the file is not one: a wrong length, header, dimensions or key, a
 * checksum that does not match, a value that is not finite, or a vector whose length (norm) is not
 * 1 (the model's vectors are normalized).
 */
export function decodeVectorFile(
  bytes: Buffer,
  expected: { key: Buffer; dimensions: number },
): { vector: number[] } | { problem: string } {
  const size = cacheFileBytes(expected.dimensions);
  if (bytes.length !== size) return { problem: `it has ${bytes.length} bytes, not ${size}` };
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { problem: "it does not start with JMV1" };
  const dimensions = bytes.readUInt32LE(MAGIC.length);
  if (dimensions !== expected.dimensions)
    return { problem: `it holds ${dimensions} dimensions, not ${expected.dimensions}` };
  if (!bytes.subarray(MAGIC.length + 4, HEADER_BYTES).equals(expected.key))
    return { problem: "it was written for another text or model" };
  const body = bytes.subarray(0, size - CHECKSUM_BYTES);
  if (
    !createHash("sha256")
      .update(body)
      .digest()
      .equals(bytes.subarray(size - CHECKSUM_BYTES))
  )
    return { problem: "its checksum does not match its contents" };
  const vector: number[] = new Array(dimensions);
  let norm = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = bytes.readFloatLE(HEADER_BYTES + index * 4);
    if (!Number.isFinite(value)) return { problem: `it holds ${value}, not a finite number` };
    vector[index] = value;
    norm += value * value;
  }
  if (Math.abs(Math.sqrt(norm) - 1) > 1e-3)
    return { problem: `its vector's length is ${Math.sqrt(norm).toFixed(4)}, not 1` };
  return { vector };
}

/**
 * The folder vectors are kept in when none is given: `junction/embed-minilm` under the OS's cache
 * folder (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%`
 * on Windows).
 */
export function defaultCacheDirectory(env: Record<string, string | undefined> = process.env): string {
  const system = platform();
  const base =
    system === "darwin"
      ? join(homedir(), "Library", "Caches")
      : system === "win32"
        ? (env.LOCALAPPDATA ?? join(homedir(), "AppData", "Local"))
        : env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.length > 0
          ? env.XDG_CACHE_HOME
          : join(homedir(), ".cache");
  return join(base, "junction", "embed-minilm");
}

/** What reading one cache file found. */
export type CacheRead =
  | { kind: "hit"; vector: number[] }
  | { kind: "miss" }
  /** The file is there but is not to be trusted (or could not be read): embed again and rewrite. */
  | { kind: "rejected"; problem: string };

/** The files of one cache folder, one per key: `<folder>/<key hex>.vec`. */
export class VectorCacheFolder {
  readonly folder: string;
  readonly dimensions: number;
  #made: Promise<void> | undefined;

  constructor(folder: string, dimensions: number) {
    this.folder = folder;
    this.dimensions = dimensions;
  }

  /** The file a key's vector is kept in. */
  fileOf(key: Buffer): string {
    return join(this.folder, `${key.toString("hex")}.vec`);
  }

  /**
   * The vector kept under `key`, checked; a missing file is a miss. Read synchronously: a cache
   * file is 1,608 bytes on a local disk, read in microseconds, where an asynchronous read takes
   * four trips through libuv's four threads (open, stat, read, close) and 250 of them queue for
   * tens of milliseconds. The caller reads a bounded slice at a time and yields between slices.
   */
  readNow(key: Buffer): CacheRead {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.fileOf(key));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // No such file, or no such folder (a file stands where it would be): the write will say so.
      if (code === "ENOENT" || code === "ENOTDIR") return { kind: "miss" };
      return { kind: "rejected", problem: `it could not be read (${errorMessage(error)})` };
    }
    const decoded = decodeVectorFile(bytes, { key, dimensions: this.dimensions });
    return "vector" in decoded ? { kind: "hit", vector: decoded.vector } : { kind: "rejected", ...decoded };
  }

  /**
   * Keeps `vector` under `key`: written to a temporary file of this process (mode 0600) then
   * renamed over the key's file, so a reader sees the old file or the new one, never half of one.
   * Throws what the file system throws.
   */
  async write(key: Buffer, vector: readonly number[]): Promise<void> {
    this.#made ??= mkdir(this.folder, { recursive: true, mode: 0o700 }).then(() => undefined);
    try {
      await this.#made;
    } catch (error) {
      this.#made = undefined;
      throw error;
    }
    const file = this.fileOf(key);
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temporary, encodeVectorFile(key, vector), { mode: 0o600, flag: "wx" });
      await rename(temporary, file);
    } catch (error) {
      // Best effort: the temporary file may not exist (the write itself failed).
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}
