import { JunctionError, type JunctionErrorCode } from "@junction/types";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
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
  let safeCause = cause;
  if (cause instanceof Error && secrets.some((secret) => cause.message.includes(secret))) {
    safeCause = new Error(redact(cause.message, secrets));
  }
  return new JunctionError(
    code,
    redact(message, secrets),
    safeCause === undefined ? undefined : { cause: safeCause },
  );
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
    return safeError(
      "mcp-aborted",
      `${method} to ${where} was aborted (notifications/cancelled sent)`,
      secrets,
      error,
    );
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
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
      `${where} answered ${method} with error ${error.code}: ${stripPrefix(error.message)}`,
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

/** The HTTP status of a StreamableHTTPError or SseError (both carry it as `code`). */
export function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof Error) || error instanceof McpError) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "number" || code < 100 || code > 599) return undefined;
  return /^(Streamable HTTP|SSE) error/.test(error.message) ? code : undefined;
}

function isValidationError(error: unknown): boolean {
  return error instanceof Error && (error.name === "ZodError" || error.name === "$ZodError");
}

function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, "");
}
