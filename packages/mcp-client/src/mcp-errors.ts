import { createAbortError, JunctionError, type JunctionErrorCode } from "@junction/types";
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { $ZodError } from "zod/v4/core";
import type { MCPConfig } from "./mcp-config.js";

/**
 * The values a config must never leak: env values and header values. Short values are left
 * out, since replacing every "1" in a message would make it unreadable and protects nothing.
 */
export function collectSecrets(config: MCPConfig): string[] {
  const values: string[] = [];
  if (config.transport === "stdio") values.push(...Object.values(config.env ?? {}));
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
  secrets: readonly string[],
  cause?: unknown,
): JunctionError {
  const safeCause = redactCause(cause, secrets);
  return new JunctionError(
    code,
    redact(message, secrets),
    safeCause === undefined ? undefined : { cause: safeCause },
  );
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
}

/** Maps whatever a request threw (SDK errors, HTTP errors, validation errors) to a JunctionError. */
export function toJunctionError(error: unknown, failure: RequestFailure): JunctionError {
  if (JunctionError.isInstance(error)) return error;
  const { server, method, timeoutMs, signal, secrets } = failure;
  const where = `MCP server "${server}"`;
  if (signal?.aborted) {
    return safeAbortError(`${method} to ${where} was aborted (notifications/cancelled sent)`, secrets, error);
  }
  if (error instanceof McpError) {
    if (isRequestTimeout(error)) {
      return safeError(
        "mcp-timeout",
        `${where} did not answer ${method} within ${timeoutMs} ms (notifications/cancelled sent)`,
        secrets,
        error,
      );
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      return safeError(
        "mcp-connection-closed",
        `connection to ${where} closed during ${method}`,
        secrets,
        error,
      );
    }
    return safeError(
      "mcp-request-failed",
      `${where} answered ${method} with error ${error.code}: ${serverMessage(error)}`,
      secrets,
      error,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isValidationError(error)) {
    return safeError(
      "mcp-invalid-response",
      `${where} sent an invalid ${method} result: ${message}`,
      secrets,
      error,
    );
  }
  const status = httpStatus(error);
  if (status !== undefined) {
    return safeError(
      "mcp-request-failed",
      `${method} to ${where} failed with HTTP ${status}: ${message}`,
      secrets,
      error,
    );
  }
  return safeError("mcp-request-failed", `${method} to ${where} failed: ${message}`, secrets, error);
}

/**
 * The HTTP status of a failed HTTP exchange: a `StreamableHTTPError` or an `SseError`, which
 * both carry it as `code`. Undefined for anything else, and for the codes these classes use
 * that are not statuses (-1 for an unexpected content type, a missing code on a dropped stream).
 */
export function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof StreamableHTTPError || error instanceof SseError)) return undefined;
  const code: unknown = error.code;
  return typeof code === "number" && code >= 100 && code <= 599 ? code : undefined;
}

/** The server answered 404 for our Streamable HTTP session id: it no longer knows the session. */
export function isSessionGone(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

/** The SDK's own request timeout (`ErrorCode.RequestTimeout`), for initialize as for any request. */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

/**
 * A result that failed the SDK's schema: the request layer rejects with zod's own error. zod 4
 * marks its errors with a `$ZodError` trait that `instanceof $ZodError` checks, so this holds
 * for the SDK's zod copy as for ours.
 */
function isValidationError(error: unknown): boolean {
  return error instanceof $ZodError;
}

/**
 * What the server said in a JSON-RPC error, without the prefix the SDK adds. `McpError` keeps
 * only the combined text (`MCP error <code>: <message>`), not the server's message on its own,
 * so this is the one place that takes a message apart; built from `error.code`, it leaves the
 * text whole if the SDK ever words its prefix differently, and no decision depends on it.
 */
function serverMessage(error: McpError): string {
  const prefix = `MCP error ${error.code}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
