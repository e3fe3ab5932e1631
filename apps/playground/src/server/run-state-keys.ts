import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { RunStateKey } from "@junction/core";
import { errorMessage, JunctionError } from "@junction/types";

/** The key file's format version: a file of another version is refused, never overwritten. */
const KEY_FILE_VERSION = 1;

/** One key as the file keeps it: the secret as base64url text. */
interface StoredKey {
  id: string;
  secret: string;
  createdAt: string;
}

/**
 * The keys that sign the playground's stored run states, from the data folder's key file
 * (`run-state-key.json`, mode 0600): the first signs, every one verifies. The file and a first
 * key (32 random bytes) are made on first start; a file that exists is never rewritten here, and
 * one that cannot be read is an error naming the file (replacing it would make every stored
 * state unresumable without saying why).
 */
export function loadRunStateKeys(file: string): RunStateKey[] {
  if (!existsSync(file)) {
    try {
      // `wx`: two playgrounds starting at once on one folder keep the first one's key.
      writeFileSync(file, keyFileText([newKey()]), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  // Tightened like the database: a file copied in with a looser mode holds a secret.
  chmodSync(file, 0o600);
  return readKeys(file).map((key) => ({ id: key.id, secret: Buffer.from(key.secret, "base64url") }));
}

/**
 * Makes a new key and puts it first in the key file, keeping the older ones after it so the
 * states they signed still resume: `pnpm playground rotate-key`. Returns the new key's id and
 * how many older keys stay.
 */
export function rotateRunStateKey(file: string): { id: string; kept: number } {
  const existing = existsSync(file) ? readKeys(file) : [];
  const key = newKey();
  const temporary = `${file}.${process.pid}.tmp`;
  // Written whole, then renamed over the old file: a crash leaves one file or the other.
  writeFileSync(temporary, keyFileText([key, ...existing]), { mode: 0o600 });
  renameSync(temporary, file);
  return { id: key.id, kept: existing.length };
}

function newKey(): StoredKey {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const id = `${new Date().toISOString().slice(0, 10)}-${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString("hex")}`;
  return { id, secret: Buffer.from(secret).toString("base64url"), createdAt: new Date().toISOString() };
}

function keyFileText(keys: StoredKey[]): string {
  return `${JSON.stringify({ version: KEY_FILE_VERSION, keys }, null, 2)}\n`;
}

/** The file's keys, checked; anything else is an error saying which file and what to do. */
function readKeys(file: string): StoredKey[] {
  const unreadable = (detail: string) =>
    new JunctionError(
      "invalid-argument",
      `The run-state key file ${file} cannot be used: ${detail}. Restore it from a backup, or move it away to start with a new key (stored runs waiting for an approval then cannot be resumed).`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw unreadable(`it is not JSON (${errorMessage(error)})`);
  }
  const { version, keys } = (parsed ?? {}) as { version?: unknown; keys?: unknown };
  if (version !== KEY_FILE_VERSION) throw unreadable(`its version is ${JSON.stringify(version)}, not 1`);
  if (!Array.isArray(keys) || keys.length === 0) throw unreadable("it lists no keys");
  const ids = new Set<string>();
  return keys.map((key, index) => {
    const { id, secret, createdAt } = (key ?? {}) as Record<string, unknown>;
    if (typeof id !== "string" || id === "" || ids.has(id))
      throw unreadable(`keys[${index}].id must be a non-empty id no other key has`);
    if (typeof secret !== "string" || Buffer.from(secret, "base64url").length < 32)
      throw unreadable(`keys[${index}].secret must be at least 32 bytes, as base64url`);
    ids.add(id);
    return { id, secret, createdAt: typeof createdAt === "string" ? createdAt : "" };
  });
}
