import { createAbortError, errorMessage, JunctionError, type JunctionErrorCode } from "@junction/types";
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
} from "@modelcontextprotocol/client";
import type { MCPConfig } from "./mcp-config.js";
import { networkEnvironmentSecrets } from "./stdio-environment.js";

/**
 * The values a config must never leak: env values and header values. Short values are left
 * out, since replacing every "1" in a message would make it unreadable and protects nothing.
 */
export function collectSecrets(config: MCPConfig): string[] {
  const values: string[] = [];
  if (config.transport === "stdio") {
    values.push(...Object.values(config.env ?? {}));
    // A proxy URL with credentials that the server inherits may show up in what it prints.
    for (const proxy of networkEnvironmentSecrets()) values.push(...urlSecrets(proxy));
  }
  if (config.transport === "http" || config.transport === "sse") {
    values.push(...urlSecrets(config.url));
    values.push(...Object.values(config.headers ?? {}));
    for (const value of Object.values(config.headers ?? {})) {
      // "Bearer abc": the token alone may be echoed back too.
      const token = value.split(/\s+/).pop();
      if (token && token !== value) values.push(token);
    }
  }
  return [...new Set(values.filter((value) => value.length >= 4))].sort((a, b) => b.length - a.length);
}

/**
 * The parts of a server URL that may be credentials: user name, password and query values (API
 * keys often travel as `?api_key=…`), raw and decoded, and the whole URL when it has any of them.
 */
function urlSecrets(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const values = [url.username, url.password, decode(url.username), decode(url.password)];
  for (const pair of url.search.slice(1).split("&")) {
    const raw = pair.slice(pair.indexOf("=") + 1);
    values.push(raw, decode(raw.replaceAll("+", " ")));
  }
  if (url.username || url.password || url.search) values.push(text, url.href);
  return values;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Replaces every secret value in a text with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join("[redacted]");
  return result;
}

/** A JunctionError whose message (and cause's message) carries no secret. */
export function safeError(
  code: JunctionErrorCode,
  message: string,
  redaction: { secrets: readonly string[]; cause?: unknown },
): JunctionError {
  const { secrets, cause } = redaction;
  const safeCause = redactCause(cause, secrets);
  return new JunctionError(code, redact(message, secrets), {
    ...(safeCause === undefined ? {} : { cause: safeCause }),
    ...jsonRPCError(cause, secrets),
  });
}

/**
 * The code and data of a server's JSON-RPC error answer (the SDK's `ProtocolError`), kept on the
 * JunctionError made from it, so a caller can tell `-32601` method not found from other failures
 * without reading the message. Data that echoes a secret is left out.
 */
function jsonRPCError(
  error: unknown,
  secrets: readonly string[],
): { jsonRPCCode?: number; jsonRPCData?: unknown } {
  if (!(error instanceof ProtocolError)) return {};
  if (error.data === undefined) return { jsonRPCCode: error.code };
  let text: string | undefined;
  try {
    text = JSON.stringify(error.data);
  } catch {
    // Data that cannot be serialized cannot have come from the wire: nothing to keep.
    return { jsonRPCCode: error.code };
  }
  const leaks = text !== undefined && secrets.some((secret) => text.includes(secret));
  return leaks ? { jsonRPCCode: error.code } : { jsonRPCCode: error.code, jsonRPCData: error.data };
}

/** The shared abort error (`createAbortError`, code `"aborted"`), with no secret in it. */
export function safeAbortError(message: string, secrets: readonly string[], cause?: unknown): JunctionError {
  return createAbortError(redact(message, secrets), redactCause(cause, secrets));
}

function redactCause(cause: unknown, secrets: readonly string[]): unknown {
  if (cause instanceof Error && secrets.some((secret) => cause.message.includes(secret))) {
    return new Error(redact(cause.message, secrets));
  }
  return cause;
}

/** What went wrong with a request, for the message. */
export interface RequestFailure {
  server: string;
  method: string;
  timeoutMs: number;
  signal?: AbortSignal;
  secrets: readonly string[];
  /** The request is the one sent once more on a new session, after the server forgot the session of the first (which so never ran). */
  resent?: boolean;
}

/** Maps whatever a request threw (SDK errors, HTTP errors, validation errors) to a JunctionError. */
export function toJunctionError(error: unknown, failure: RequestFailure): JunctionError {
  if (JunctionError.isInstance(error)) return error;
  const { server, method, timeoutMs, signal, secrets } = failure;
  const where = `MCP server "${server}"`;
  // The SDK rejects an aborted request with its timeout error (message: the abort reason), so
  // the signal is asked first.
  if (signal?.aborted) {
    return safeAbortError(`${method} to ${where} was aborted (notifications/cancelled sent)`, secrets, error);
  }
  if (isRequestTimeout(error)) {
    return safeError(
      "mcp-timeout",
      `${where} did not answer ${method} within ${timeoutMs} ms (notifications/cancelled sent)`,
      { secrets, cause: error },
    );
  }
  if (isConnectionClosed(error) || isConnectionReset(error)) {
    // The request was sent: whether the server ran it is unknown, and it is not sent again.
    const sent = failure.resent
      ? "the request had been sent a second time (the server had forgotten the session of the first, which so never ran), so the server may have acted on that one, and it was not sent a third time"
      : "the request had been sent, so the server may have acted on it, and it was not sent again";
    return safeError("mcp-connection-closed", `connection to ${where} closed during ${method}; ${sent}`, {
      secrets,
      cause: error,
    });
  }
  const about: ErrorContext = { where, method, secrets };
  if (error instanceof ProtocolError) return fromProtocolError(error, about);
  const message = errorMessage(error);
  const sdkFailure = error instanceof SdkError ? fromSdkError(error, about) : undefined;
  if (sdkFailure) return sdkFailure;
  const status = httpStatus(error);
  if (status !== undefined) {
    return safeError("mcp-request-failed", `${method} to ${where} failed with HTTP ${status}: ${message}`, {
      secrets,
      cause: error,
    });
  }
  return safeError("mcp-request-failed", `${method} to ${where} failed: ${message}`, {
    secrets,
    cause: error,
  });
}

/** What a request's error is reported about: the server (`MCP server "name"`), the method, the secrets to hide. */
interface ErrorContext {
  where: string;
  method: string;
  secrets: readonly string[];
}

/** The JunctionError of a server's JSON-RPC error answer. */
function fromProtocolError(error: ProtocolError, { where, method, secrets }: ErrorContext): JunctionError {
  if (error.code === ProtocolErrorCode.MissingRequiredClientCapability) {
    return safeError(
      "mcp-capability-missing",
      `${where} needs a client capability this connection does not advertise for ${method} (error ${error.code}): ${error.message}`,
      { secrets, cause: error },
    );
  }
  if (error.code === ProtocolErrorCode.UnsupportedProtocolVersion) {
    return safeError(
      "mcp-request-failed",
      `${where} does not support the protocol revision of ${method} (error ${error.code}): ${error.message}`,
      { secrets, cause: error },
    );
  }
  return safeError(
    "mcp-request-failed",
    `${where} answered ${method} with error ${error.code}: ${error.message}`,
    { secrets, cause: error },
  );
}

/** The JunctionError of an SDK error that says what went wrong, or `undefined` for the others. */
function fromSdkError(error: SdkError, { where, method, secrets }: ErrorContext): JunctionError | undefined {
  const message = errorMessage(error);
  switch (error.code) {
    case SdkErrorCode.InvalidResult:
    case SdkErrorCode.UnsupportedResultType:
    case SdkErrorCode.ListPaginationExceeded:
      return safeError("mcp-invalid-response", `${where} sent an invalid ${method} result: ${message}`, {
        secrets,
        cause: error,
      });
    case SdkErrorCode.InputRequiredRoundsExceeded:
      return safeError(
        "mcp-request-failed",
        `${where} kept asking for input on ${method} past the round limit: ${message}`,
        { secrets, cause: error },
      );
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
    case SdkErrorCode.CapabilityNotSupported:
      return safeError("mcp-capability-missing", `${method} is not available on ${where}: ${message}`, {
        secrets,
        cause: error,
      });
    case SdkErrorCode.NotConnected:
      return safeError("mcp-not-connected", `${method}: ${where} is not connected: ${message}`, {
        secrets,
        cause: error,
      });
    default:
      return undefined;
  }
}

/**
 * The HTTP status of a failed HTTP exchange: an `SdkHttpError` (`status`) or an `SseError`
 * (`code`). Undefined for anything else, and for values that are not statuses (a missing
 * code on a dropped SSE stream).
 */
export function httpStatus(error: unknown): number | undefined {
  let status: unknown;
  if (error instanceof SdkHttpError) status = error.status;
  else if (error instanceof SseError) status = error.code;
  else return undefined;
  return typeof status === "number" && status >= 100 && status <= 599 ? status : undefined;
}

/**
 * The server no longer knows our Streamable HTTP session, so the request never ran: it answered
 * 404 (as the specification asks), or, for a request that carried a session id (`withSessionId`),
 * 400 with a body that names the session ("Bad Request: No valid session ID provided", as many
 * servers built on the SDK's examples answer).
 */
export function isSessionGone(error: unknown, withSessionId: boolean): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  if (error.status === 404) return true;
  return error.status === 400 && withSessionId && /session/i.test(error.message);
}

/** The SDK's own request timeout (`SdkErrorCode.RequestTimeout`), for the handshake as for any request. */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** The connection closed under a request (`SdkErrorCode.ConnectionClosed`). */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

/**
 * The HTTP connection broke after the request went out (`ECONNRESET`, `EPIPE`: a server, proxy or
 * balancer that reset or closed it), on node:http or under fetch's `TypeError`.
 */
export function isConnectionReset(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return true;
    current = current.cause;
  }
  return false;
}

/** Version negotiation found no revision both sides speak (`SdkErrorCode.EraNegotiationFailed`). */
export function isEraNegotiationFailure(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
}
