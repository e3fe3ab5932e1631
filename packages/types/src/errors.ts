const marker = Symbol.for("junction.error");

/** Machine-readable error codes. Each names what went wrong, not where. */
export type JunctionErrorCode =
  // MCP connections
  | "mcp-connect-failed"
  | "mcp-connection-closed"
  | "mcp-not-connected"
  | "mcp-timeout"
  | "mcp-request-failed"
  | "mcp-invalid-response"
  | "mcp-config-invalid"
  | "mcp-transport-unsupported"
  | "mcp-capability-missing"
  | "mcp-skill-verification-failed"
  // tools and the agent
  | "tool-not-found"
  | "tool-input-invalid"
  | "tool-execution-failed"
  | "tool-name-collision"
  | "tool-denied"
  | "run-state-invalid"
  | "run-state-resumed"
  | "max-steps-reached"
  | "aborted"
  | "invalid-argument"
  | "agent-busy"
  // served tasks
  | "task-store-busy"
  // structured output
  | "output-invalid"
  | "output-refused"
  | "output-truncated"
  // providers
  | "provider-api-error"
  | "provider-stream-error"
  | "provider-response-invalid"
  | "provider-config-invalid";

/** What a {@link JunctionError} keeps besides its code and message. */
export interface JunctionErrorOptions {
  /** What was caught. */
  cause?: unknown;
  /** The JSON-RPC error code of the answer that failed (see {@link JunctionError.jsonRPCCode}). */
  jsonRPCCode?: number;
  /** The JSON-RPC error's `data` (see {@link JunctionError.jsonRPCData}). */
  jsonRPCData?: unknown;
}

/**
 * The base of every error Junction throws. Check with `JunctionError.isInstance(error)`:
 * it works across duplicate copies of this package, where `instanceof` does not.
 */
export class JunctionError extends Error {
  readonly [marker] = true;
  readonly code: JunctionErrorCode;
  /**
   * The JSON-RPC error code the other side answered with, when the error is such an answer (an
   * MCP server's `-32601` method not found, `-32602` invalid params, `-32042` URL elicitation
   * required, …). Undefined for failures that never got an answer (timeouts, lost connections).
   */
  declare readonly jsonRPCCode?: number;
  /** The `data` of that JSON-RPC error answer, as the other side sent it (untrusted). */
  declare readonly jsonRPCData?: unknown;

  constructor(code: JunctionErrorCode, message: string, options?: JunctionErrorOptions) {
    super(message, options && "cause" in options ? { cause: options.cause } : undefined);
    this.name = "JunctionError";
    this.code = code;
    if (options?.jsonRPCCode !== undefined) this.jsonRPCCode = options.jsonRPCCode;
    if (options?.jsonRPCData !== undefined) this.jsonRPCData = options.jsonRPCData;
  }

  /** True for any Junction error, from whatever copy of the package it came. */
  static isInstance(error: unknown): error is JunctionError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** A model vendor's API failed: an HTTP error, or an error inside a streamed response. */
export class ProviderError extends JunctionError {
  /** The provider's name, for example `anthropic`. */
  readonly provider: string;
  /** HTTP status, when the failure had one. */
  readonly status?: number;
  /** Whether the same request may succeed later (rate limits, overload, server errors). */
  readonly retryable: boolean;
  /** The vendor's request id, for support tickets. */
  readonly requestId?: string;

  constructor(options: {
    code?:
      | "provider-api-error"
      | "provider-stream-error"
      | "provider-response-invalid"
      | "provider-config-invalid";
    provider: string;
    message: string;
    status?: number;
    retryable?: boolean;
    requestId?: string;
    cause?: unknown;
  }) {
    super(options.code ?? "provider-api-error", options.message, { cause: options.cause });
    this.name = "ProviderError";
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.requestId = options.requestId;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return JunctionError.isInstance(error) && error.code.startsWith("provider-") && "provider" in error;
  }
}

/** The codes of an {@link OutputError}. */
export type OutputErrorCode = "output-invalid" | "output-refused" | "output-truncated";

/**
 * A run asked for a structured answer and did not get a valid one:
 *
 * - `output-invalid`: the answer did not parse or did not match the schema, repair turns included;
 *   `issues` says why.
 * - `output-refused`: the model refused (its refusal, or the vendor's content filter).
 * - `output-truncated`: the answer was cut at the output limit (finish reason `length`); raise
 *   `maxTokens` or ask for less.
 *
 * `text` is the raw answer as the model sent it (untrusted): never a half object passed as valid.
 */
export class OutputError extends JunctionError {
  declare readonly code: OutputErrorCode;
  /** The model's raw answer (the JSON text, or the answer tool's arguments as JSON). */
  readonly text: string;
  /** What was wrong with it, one line per problem. Empty for a refusal or a truncation. */
  readonly issues: string[];

  constructor(options: {
    code: OutputErrorCode;
    message: string;
    text: string;
    issues?: string[];
    cause?: unknown;
  }) {
    super(options.code, options.message, { cause: options.cause });
    this.name = "OutputError";
    this.text = options.text;
    this.issues = options.issues ?? [];
  }

  static override isInstance(error: unknown): error is OutputError {
    return JunctionError.isInstance(error) && error.code.startsWith("output-") && "issues" in error;
  }
}

/** Whether an HTTP status is worth retrying: timeouts, conflicts, rate limits and server errors. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
}

/**
 * The one error every Junction package throws when an `AbortSignal` stops its work: code
 * `"aborted"`, with the signal's reason (or the given cause) kept as `cause`.
 *
 * @example
 * ```ts
 * if (signal.aborted) throw createAbortError("The MCP call was aborted.", signal.reason);
 * ```
 */
export function createAbortError(message: string, cause?: unknown): JunctionError {
  return new JunctionError("aborted", message, { cause });
}

/** True for the error `createAbortError` makes, from whatever copy of this package it came. */
export function isAbortError(error: unknown): error is JunctionError {
  return JunctionError.isInstance(error) && error.code === "aborted";
}
