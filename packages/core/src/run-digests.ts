/**
 * The digests that bind a person's decision to what they were shown: the tool as the model saw
 * it, and the validated arguments. Both are SHA-256 hex of canonical JSON, so the same tool or
 * arguments give the same digest in every process.
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

/** SHA-256 of `text` (UTF-8), hex. */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
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

/** The SHA-256 digest of a call's validated arguments (canonical JSON), hex: `PendingToolCall.argumentsDigest`. */
export function argumentsDigest(input: unknown): Promise<string> {
  return sha256Hex(canonicalJSON(input ?? null));
}
