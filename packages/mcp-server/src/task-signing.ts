import { canonicalJSON } from "@junction/core";
import type { AgentTaskRecord } from "./task-store.js";

// A task record's signature: HMAC-SHA-256 with the server's `stateKey` over the canonical JSON of
// the rest of the record, hex. A store holds only what this signs; a record changed there (or
// written with another key) is refused when read.

/** The HMAC key a server signs its task records with. */
export function taskSigningKey(key: Uint8Array): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** The record with its `signature` (any old one replaced). */
export async function signTaskRecord(key: CryptoKey, record: AgentTaskRecord): Promise<AgentTaskRecord> {
  const { signature: _old, ...rest } = record;
  const mac = await globalThis.crypto.subtle.sign("HMAC", key, encode(canonicalJSON(rest)));
  return { ...rest, signature: toHex(new Uint8Array(mac)) };
}

/** Whether the record's signature holds with `key`. */
export async function isSignedTaskRecord(key: CryptoKey, record: AgentTaskRecord): Promise<boolean> {
  const { signature, ...rest } = record;
  return (
    typeof signature === "string" &&
    /^[0-9a-f]{64}$/.test(signature) &&
    (await globalThis.crypto.subtle.verify("HMAC", key, fromHex(signature), encode(canonicalJSON(rest))))
  );
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}
