// The one module that owns the vector cache's file formats (a file per text's vector, and a pack of
// a whole call's vectors): key builders, encoders and their decoders as inverses, and the reads and
// writes of one folder. A cache file is untrusted input
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
/** The first bytes of every pack file. */
const PACK_MAGIC = Buffer.from("JMP1", "latin1");
/** Where a pack's keys start: magic, dimensions (u32 LE), count (u32 LE). */
const PACK_HEADER_BYTES = PACK_MAGIC.length + 8;
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
  return readUnitVector(bytes, { offset: HEADER_BYTES, dimensions });
}

/** The float32 LE vector at `offset`, or why it is not one of the model's: a value not finite, a length (norm) not 1. */
function readUnitVector(
  bytes: Buffer,
  at: { offset: number; dimensions: number },
): { vector: number[] } | { problem: string } {
  const vector: number[] = new Array(at.dimensions);
  let norm = 0;
  for (let index = 0; index < at.dimensions; index++) {
    const value = bytes.readFloatLE(at.offset + index * 4);
    if (!Number.isFinite(value)) return { problem: `it holds ${value}, not a finite number` };
    vector[index] = value;
    norm += value * value;
  }
  if (Math.abs(Math.sqrt(norm) - 1) > 1e-3)
    return { problem: `a vector's length is ${Math.sqrt(norm).toFixed(4)}, not 1` };
  return { vector };
}

/** How many bytes a pack of `count` vectors of `dimensions` numbers takes. */
export function packFileBytes(count: number, dimensions: number): number {
  return PACK_HEADER_BYTES + count * (KEY_BYTES + dimensions * 4) + CHECKSUM_BYTES;
}

/**
 * The key a pack is kept under: SHA-256 of its texts' keys in order (each already names the model
 * and its text), so any other list of texts, or of another model, is another pack.
 */
export function packKey(keys: readonly Buffer[]): Buffer {
  const digest = createHash("sha256").update(PACK_MAGIC);
  for (const key of keys) digest.update(key);
  return digest.digest();
}

/** Vectors as a pack's bytes: header, the keys, the vectors as float32 LE, SHA-256 of all before. */
export function encodePackFile(keys: readonly Buffer[], vectors: readonly (readonly number[])[]): Buffer {
  const dimensions = vectors[0]?.length ?? 0;
  const bytes = Buffer.alloc(packFileBytes(keys.length, dimensions));
  PACK_MAGIC.copy(bytes, 0);
  bytes.writeUInt32LE(dimensions, PACK_MAGIC.length);
  bytes.writeUInt32LE(keys.length, PACK_MAGIC.length + 4);
  keys.forEach((key, index) => {
    key.copy(bytes, PACK_HEADER_BYTES + index * KEY_BYTES);
  });
  const vectorsAt = PACK_HEADER_BYTES + keys.length * KEY_BYTES;
  vectors.forEach((vector, index) => {
    vector.forEach((value, at) => {
      bytes.writeFloatLE(value, vectorsAt + (index * dimensions + at) * 4);
    });
  });
  const body = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  createHash("sha256").update(body).digest().copy(bytes, body.length);
  return bytes;
}

/**
 * A pack's vectors (one per key, in order), or why the file is not the pack of these keys: a wrong
 * length, header, dimensions, count or keys, a checksum that does not match, a value that is not
 * finite, or a vector whose length (norm) is not 1.
 */
export function decodePackFile(
  bytes: Buffer,
  expected: { keys: readonly Buffer[]; dimensions: number },
): { vectors: number[][] } | { problem: string } {
  const count = expected.keys.length;
  const size = packFileBytes(count, expected.dimensions);
  if (bytes.length !== size) return { problem: `it has ${bytes.length} bytes, not ${size}` };
  if (!bytes.subarray(0, PACK_MAGIC.length).equals(PACK_MAGIC))
    return { problem: "it does not start with JMP1" };
  const dimensions = bytes.readUInt32LE(PACK_MAGIC.length);
  if (dimensions !== expected.dimensions)
    return { problem: `it holds ${dimensions} dimensions, not ${expected.dimensions}` };
  const held = bytes.readUInt32LE(PACK_MAGIC.length + 4);
  if (held !== count) return { problem: `it holds ${held} vectors, not ${count}` };
  const vectorsAt = PACK_HEADER_BYTES + count * KEY_BYTES;
  if (!bytes.subarray(PACK_HEADER_BYTES, vectorsAt).equals(Buffer.concat(expected.keys)))
    return { problem: "it was written for other texts or another model" };
  const body = bytes.subarray(0, size - CHECKSUM_BYTES);
  if (
    !createHash("sha256")
      .update(body)
      .digest()
      .equals(bytes.subarray(size - CHECKSUM_BYTES))
  )
    return { problem: "its checksum does not match its contents" };
  const vectors: number[][] = [];
  for (let index = 0; index < count; index++) {
    const read = readUnitVector(bytes, { offset: vectorsAt + index * dimensions * 4, dimensions });
    if ("problem" in read) return read;
    vectors.push(read.vector);
  }
  return { vectors };
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

/** What reading a pack found. */
export type PackRead =
  | { kind: "hit"; vectors: number[][] }
  | { kind: "miss" }
  /** The pack is there but is not to be trusted (or could not be read): read each text's file, and rewrite it. */
  | { kind: "rejected"; problem: string };

/**
 * The files of one cache folder: one per key (`<folder>/<key hex>.vec`), and one per pack of a
 * call's texts (`<folder>/<pack key hex>.pack`).
 */
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
    const read = readOrMiss(this.fileOf(key));
    if ("kind" in read) return read;
    const decoded = decodeVectorFile(read.bytes, { key, dimensions: this.dimensions });
    return "vector" in decoded ? { kind: "hit", vector: decoded.vector } : { kind: "rejected", ...decoded };
  }

  /** The file of the pack of these keys (in this order). */
  packFileOf(keys: readonly Buffer[]): string {
    return join(this.folder, `${packKey(keys).toString("hex")}.pack`);
  }

  /** The vectors of the pack of these keys, checked; a missing file is a miss. Read synchronously, as {@link readNow}. */
  readPackNow(keys: readonly Buffer[]): PackRead {
    const read = readOrMiss(this.packFileOf(keys));
    if ("kind" in read) return read;
    const decoded = decodePackFile(read.bytes, { keys, dimensions: this.dimensions });
    return "vectors" in decoded
      ? { kind: "hit", vectors: decoded.vectors }
      : { kind: "rejected", ...decoded };
  }

  /** Keeps `vectors` (one per key) as the pack of these keys, as {@link write} does a file. */
  async writePack(keys: readonly Buffer[], vectors: readonly (readonly number[])[]): Promise<void> {
    await this.#writeAtomically(this.packFileOf(keys), encodePackFile(keys, vectors));
  }

  /**
   * Keeps `vector` under `key`: written to a temporary file of this process (mode 0600) then
   * renamed over the key's file, so a reader sees the old file or the new one, never half of one.
   * Throws what the file system throws.
   */
  async write(key: Buffer, vector: readonly number[]): Promise<void> {
    await this.#writeAtomically(this.fileOf(key), encodeVectorFile(key, vector));
  }

  async #writeAtomically(file: string, bytes: Buffer): Promise<void> {
    this.#made ??= mkdir(this.folder, { recursive: true, mode: 0o700 }).then(() => undefined);
    try {
      await this.#made;
    } catch (error) {
      this.#made = undefined;
      throw error;
    }
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temporary, bytes, { mode: 0o600, flag: "wx" });
      await rename(temporary, file);
    } catch (error) {
      // Best effort: the temporary file may not exist (the write itself failed).
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}

/** A file's bytes; a missing file (or folder) is a miss, any other failure a rejection. */
function readOrMiss(
  file: string,
): { bytes: Buffer } | { kind: "miss" } | { kind: "rejected"; problem: string } {
  try {
    return { bytes: readFileSync(file) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // No such file, or no such folder (a file stands where it would be): the write will say so.
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "miss" };
    return { kind: "rejected", problem: `it could not be read (${errorMessage(error)})` };
  }
}
