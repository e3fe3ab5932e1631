/**
 * Digests of what a run state binds: a tool as the model saw it, a call's validated arguments.
 * WebCrypto only (`crypto.subtle`), so they are the same in Node, browsers and workers.
 */

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return inner;
    const record = inner as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}

/** SHA-256 of a text (UTF-8), as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(new Uint8Array(bytes));
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
