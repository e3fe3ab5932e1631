import { JunctionError, type Warning } from "@junction/types";
import { argumentsDigest, canonicalJSON, syncHmacSha256Hex, toHex } from "./run-digests.js";
import { parseRunState, type RunState, type RunStateSignature } from "./run-state.js";

/**
 * An application secret that signs the run states it stops with and verifies the ones it
 * resumes: `id` is stored in the state (`signature.keyId`) so keys can rotate. Keep the secret
 * on the server. The secret must be 32 bytes or longer (a string's UTF-8 bytes): 32 random bytes,
 * e.g. `crypto.randomBytes(32).toString("base64url")`.
 */
export interface RunStateKey {
  /** Names the key in a signed state; pick a new id for a new secret. */
  id: string;
  /** The HMAC-SHA-256 secret: text (UTF-8) or bytes. */
  secret: string | Uint8Array;
}

/**
 * One key, or several for rotation: the first signs, any of them verifies. Set, a resume refuses
 * a state that is unsigned, signed with another key or changed since it was signed.
 */
export type RunStateKeys = RunStateKey | readonly RunStateKey[];

const ALGORITHM = "HS256";
/** The shortest secret a key may have, in bytes (a string's UTF-8 bytes): HMAC-SHA-256's output size. */
const MIN_SECRET_BYTES = 32;
const cryptoKeys = new Map<string, Promise<CryptoKey>>();

/** The keys as a list, checked: each needs a non-empty string `id` and a secret of 32 bytes or more. */
export function keyList(keys: RunStateKeys | undefined): RunStateKey[] {
  if (keys === undefined) return [];
  const list = Array.isArray(keys) ? [...keys] : [keys as RunStateKey];
  if (list.length === 0)
    throw new JunctionError("invalid-argument", "`runStateKey` must hold at least one key.");
  for (const key of list) {
    const secretLength =
      typeof key?.secret === "string" || key?.secret instanceof Uint8Array ? key.secret.length : 0;
    if (typeof key?.id !== "string" || key.id.length === 0 || secretLength === 0) {
      throw new JunctionError(
        "invalid-argument",
        "`runStateKey` must be { id: string, secret: string | Uint8Array } (or a list of them) with a non-empty id and secret.",
      );
    }
    const secretBytes =
      typeof key.secret === "string"
        ? new TextEncoder().encode(key.secret).byteLength
        : key.secret.byteLength;
    if (secretBytes < MIN_SECRET_BYTES) {
      throw new JunctionError(
        "invalid-argument",
        `\`runStateKey\` "${key.id}" has a ${secretBytes}-byte secret; a run-state secret must be ${MIN_SECRET_BYTES} bytes or longer (as \`stateKey\` must), or its signatures can be guessed. Make one with \`node -e "console.log(crypto.randomBytes(32).toString('base64url'))"\` and keep it in your secret store.`,
      );
    }
  }
  return list;
}

/**
 * Signs a run state with the first key, as an Agent or `stream()` with `runStateKey` does when a
 * run stops: HMAC-SHA-256 over a canonical serialisation of the whole state (without
 * `signature`) and of each pending call's id, tool digest and arguments digest.
 */
export function signRunState(state: RunState, keys: RunStateKeys): Promise<RunState> {
  return signWith(state, keyList(keys));
}

/**
 * Reads a stored run state and checks its signature with `keys` (any of them): the state, or a
 * `run-state-invalid` error naming the field that is wrong, that it is unsigned, signed with an
 * unknown key, or changed since it was signed. For an application that shows a stored state's
 * pending calls (an approval inbox) and must not show a forged one; `resume()` does it itself.
 */
export async function verifyRunState(value: unknown, keys: RunStateKeys): Promise<RunState> {
  const state = parseRunState(value);
  await checkSignature(typeof value === "string" ? JSON.parse(value) : value, keyList(keys));
  return state;
}

/** Signs with the first of `keys`; with none, the state is returned as it is. */
export async function signWith(state: RunState, keys: RunStateKey[]): Promise<RunState> {
  const key = keys[0];
  if (!key) return state;
  const { signature: _old, ...unsigned } = state;
  const value = await macHex(key.secret, await signedText(unsigned));
  const signature: RunStateSignature = { keyId: key.id, alg: ALGORITHM, value };
  return { ...unsigned, signature };
}

/**
 * Checks a stored state's signature against `keys`: with no keys, a signed state gives a warning
 * (nothing is verified); with keys, an unsigned state, an unknown key id or a signature that does
 * not match is refused (`run-state-invalid`).
 */
export async function checkSignature(raw: Record<string, unknown>, keys: RunStateKey[]): Promise<Warning[]> {
  const signature = raw.signature as RunStateSignature | undefined;
  if (keys.length === 0) {
    if (signature === undefined) return [];
    return [
      {
        code: "run-state-unverified",
        message: `This run state is signed (key "${signature.keyId}"), but no \`runStateKey\` is configured, so its signature was not checked; set \`runStateKey\` to refuse states that were changed.`,
      },
    ];
  }
  if (signature === undefined) {
    throw refused(
      "it is not signed (`signature` is missing) and a `runStateKey` is set; resume only states this application stopped and signed, or start the run again",
    );
  }
  const key = keys.find((candidate) => candidate.id === signature.keyId);
  if (!key) {
    throw refused(
      `\`signature.keyId\` is "${signature.keyId}", which is none of the configured keys (${keys.map((k) => `"${k.id}"`).join(", ")}); add that key to \`runStateKey\` (a rotated key stays in the list until its states are gone)`,
    );
  }
  const { signature: _signature, ...unsigned } = raw;
  const valid =
    typeof signature.value === "string" &&
    /^[0-9a-f]{64}$/.test(signature.value) &&
    sameText(signature.value, await macHex(key.secret, await signedText(unsigned)));
  if (!valid) {
    throw refused(
      `\`signature.value\` does not match the state (key "${key.id}"): the state was changed after it was signed; do not resume it, start the run again`,
    );
  }
  return [];
}

/** What the MAC covers: the state without its signature, and each pending call's bindings. */
async function signedText(unsigned: Record<string, unknown>): Promise<string> {
  const state = unsigned as Omit<RunState, "signature">;
  const digests = new Map(
    (Array.isArray(state.tools) ? state.tools : []).map((tool) => [tool.name, tool.digest]),
  );
  const calls = await Promise.all(
    (Array.isArray(state.pending) ? state.pending : []).map(async (call) => ({
      id: call.id,
      toolDigest: digests.get(call.name) ?? null,
      argumentsDigest: await argumentsDigest(call.input),
    })),
  );
  return canonicalJSON({ alg: ALGORITHM, calls, state: unsigned });
}

/**
 * HMAC-SHA-256 of `text` (UTF-8) as lowercase hex: `node:crypto`'s, synchronous, where the runtime
 * has it (Node, Bun, Deno), else WebCrypto's (a thread-pool round trip in Node, so not preferred).
 */
async function macHex(secret: string | Uint8Array, text: string): Promise<string> {
  const hmac = syncHmacSha256Hex();
  if (hmac) return hmac(secret, text);
  const mac = await globalThis.crypto.subtle.sign(
    "HMAC",
    await cryptoKey(secret),
    new TextEncoder().encode(text),
  );
  return toHex(new Uint8Array(mac));
}

/** Whether two texts of the same length are equal, in time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

function cryptoKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : new Uint8Array(secret);
  const cacheKey = toHex(bytes);
  let key = cryptoKeys.get(cacheKey);
  if (!key) {
    key = globalThis.crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    // Bounded: an application has a handful of keys; a process that makes keys per call should not grow.
    if (cryptoKeys.size >= 16) cryptoKeys.clear();
    cryptoKeys.set(cacheKey, key);
  }
  return key;
}

function refused(detail: string): JunctionError {
  return new JunctionError("run-state-invalid", `This run state cannot be resumed: ${detail}.`);
}
