import { JunctionError } from "@junction/types";

/**
 * Digests of what a run state binds: a tool as the model saw it, a call's validated arguments.
 * SHA-256 as lowercase hex, the same everywhere: `node:crypto`'s synchronous hash where the runtime
 * has it (Node, Bun, Deno: a program's nested calls digest their arguments one by one, and
 * WebCrypto's `digest` costs a thread-pool round trip each), else WebCrypto (`crypto.subtle`:
 * browsers, workers). Nothing Node-only is imported: `node:crypto` is taken with
 * `process.getBuiltinModule`, so the module bundles for browsers as it is.
 */

/**
 * JSON with object keys sorted, so equal values always give equal text: the bytes run-state
 * signatures, argument digests and task-record signatures are made of. A value JSON cannot write
 * as itself is refused rather than folded into another value's bytes: a non-finite number (`NaN`,
 * `Infinity`, which `JSON.stringify` writes as `null`) and `-0` (written as `0`) throw an
 * `invalid-argument` error naming the value's path (`$.input.amount`), so a signature or digest
 * never covers a value other than the one it is said to cover.
 */
export function canonicalJSON(value: unknown): string {
  // Written without paths first (most values have nothing to refuse); a refused value is found
  // again with them, to name its place.
  try {
    return JSON.stringify(value, sortedKeys);
  } catch (error) {
    if (!(error instanceof UnrepresentableNumber)) throw error;
  }
  return canonicalJSONWithPaths(value);
}

/** Thrown by {@link sortedKeys} at a number JSON cannot write as itself. */
class UnrepresentableNumber extends Error {}

/** `canonicalJSON`'s replacer, without the paths: objects with their keys sorted, numbers checked. */
function sortedKeys(_key: string, inner: unknown): unknown {
  if (typeof inner === "number") {
    if (!Number.isFinite(inner) || Object.is(inner, -0)) throw new UnrepresentableNumber();
    return inner;
  }
  if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return inner;
  return sortKeys(inner as Record<string, unknown>);
}

/**
 * `record` with its keys in sorted order: itself when they already are (most arguments: one key,
 * or written in order), else a sorted copy. Either way `JSON.stringify` writes the same text.
 */
function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(record);
  if (inOrder(keys)) return record;
  return Object.fromEntries(keys.sort().map((name) => [name, record[name]]));
}

/** Whether `keys` are in the order `Array.prototype.sort` gives (UTF-16 code units). */
function inOrder(keys: string[]): boolean {
  for (let index = 1; index < keys.length; index++) if (keys[index - 1]! > keys[index]!) return false;
  return true;
}

/** `canonicalJSON` with each value's path tracked, so a refused value's error names its place. */
function canonicalJSONWithPaths(value: unknown): string {
  // Each object or array the replacer hands on, with its path, to name a refused value's place.
  const paths = new WeakMap<object, string>();
  return JSON.stringify(value, function (this: unknown, key: string, inner: unknown) {
    const holderPath = typeof this === "object" && this !== null ? paths.get(this) : undefined;
    const path = holderPath === undefined ? "$" : childPath(holderPath, key, Array.isArray(this));
    if (typeof inner === "number") {
      if (!Number.isFinite(inner) || Object.is(inner, -0)) throw unrepresentable(path, inner);
      return inner;
    }
    if (typeof inner !== "object" || inner === null) return inner;
    if (Array.isArray(inner)) {
      paths.set(inner, path);
      return inner;
    }
    const sorted = sortKeys(inner as Record<string, unknown>);
    paths.set(sorted, path);
    return sorted;
  });
}

function childPath(holder: string, key: string, inArray: boolean): string {
  if (inArray) return `${holder}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${holder}.${key}` : `${holder}[${JSON.stringify(key)}]`;
}

function unrepresentable(path: string, value: number): JunctionError {
  const shown = Object.is(value, -0) ? "-0" : String(value);
  const written = Object.is(value, -0) ? "0" : "null";
  return new JunctionError(
    "invalid-argument",
    `The value at ${path} is ${shown}, which JSON cannot represent (it would be written as ${written}), so it cannot be signed or digested; use a finite number${Object.is(value, -0) ? " (0 instead of -0)" : ""} or a string.`,
  );
}

/** SHA-256 of a text (UTF-8), as lowercase hex. */
export function sha256Hex(text: string): Promise<string> {
  const hash = syncSha256Hex();
  if (hash === undefined) return webCryptoSha256Hex(text);
  try {
    return Promise.resolve(hash(text));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** SHA-256 of a text (UTF-8) with WebCrypto, as lowercase hex: where no synchronous hash is. */
export async function webCryptoSha256Hex(text: string): Promise<string> {
  const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(new Uint8Array(bytes));
}

interface NodeCrypto {
  /** One-shot hashing (Node 21.7+, Bun, Deno): no hash object per digest. */
  hash?(algorithm: "sha256", text: string, encoding: "hex"): string;
  createHash(algorithm: "sha256"): {
    update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string };
  };
  createHmac?(
    algorithm: "sha256",
    secret: string | Uint8Array,
  ): {
    update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string };
  };
}

/** The runtime's `node:crypto`, looked up once; null where there is none. */
let nodeCryptoModule: NodeCrypto | null | undefined;

/** `node:crypto` where the runtime has it (Node 22+, Bun, Deno), taken without importing it. */
function nodeCrypto(): NodeCrypto | undefined {
  if (nodeCryptoModule === undefined) {
    nodeCryptoModule = null;
    try {
      const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const crypto = process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
      if (typeof crypto?.createHash === "function") nodeCryptoModule = crypto;
    } catch {
      // A runtime that has a `process` but no such module: WebCrypto it is.
    }
  }
  return nodeCryptoModule ?? undefined;
}

/** The runtime's synchronous SHA-256 (`node:crypto`), made once; undefined where there is none. */
let syncHash: ((text: string) => string) | undefined;

/** `node:crypto`'s SHA-256 as lowercase hex, where the runtime has it (Node 22+, Bun, Deno). */
export function syncSha256Hex(): ((text: string) => string) | undefined {
  if (syncHash === undefined) {
    const crypto = nodeCrypto();
    const hash = crypto?.hash;
    if (typeof hash === "function") syncHash = (text) => hash("sha256", text, "hex");
    else if (crypto) syncHash = (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");
  }
  return syncHash;
}

/**
 * `node:crypto`'s HMAC-SHA-256 of a text (UTF-8) as lowercase hex, where the runtime has it: a
 * run state is signed and checked without WebCrypto's thread-pool round trip.
 */
export function syncHmacSha256Hex(): ((secret: string | Uint8Array, text: string) => string) | undefined {
  const crypto = nodeCrypto();
  const createHmac = crypto?.createHmac;
  if (typeof createHmac !== "function") return undefined;
  return (secret, text) => createHmac.call(crypto, "sha256", secret).update(text, "utf8").digest("hex");
}

/** The SHA-256 digest of a tool as the model sees it (description, schemas, annotations). */
export function toolDigest(tool: {
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}): Promise<string> {
  return sha256Hex(
    canonicalJSON({
      description: tool.description ?? "",
      inputSchema: tool.inputSchema ?? null,
      outputSchema: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null,
    }),
  );
}

/**
 * The SHA-256 digest of a call's validated arguments (canonical JSON; `undefined` counts as
 * `null`), hex: what a person approved, bound by a signed run state.
 */
export function argumentsDigest(input: unknown): Promise<string> {
  return sha256Hex(canonicalJSON(input ?? null));
}

/** Bytes as lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
