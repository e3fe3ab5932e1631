import { isAbortError, JunctionError } from "@junction/types";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, ListToolsResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { httpStatus, isRequestTimeout, isSessionGone, toJunctionError } from "./mcp-errors.js";
import { connectFailureReason } from "./mcp-session.js";

/** The SDK's error with its wording changed, as a new SDK release may word it: class and code stay. */
function reworded<E extends Error>(error: E, message: string): E {
  error.message = message;
  return error;
}

/** An SseError as the SDK makes it when the stream fails (the event itself does not matter here). */
function sseError(code: number, message: string): SseError {
  return new SseError(code, message, undefined as unknown as ConstructorParameters<typeof SseError>[2]);
}

const failure = { server: "files", method: "tools/call", timeoutMs: 250, secrets: ["sk-secret-1234"] };

describe("SDK errors are recognised by class and code, not by their wording", () => {
  it("reads the HTTP status of a StreamableHTTPError or SseError whatever its message says", () => {
    expect(httpStatus(reworded(new StreamableHTTPError(503, "x"), "POST failed"))).toBe(503);
    expect(httpStatus(reworded(sseError(405, "x"), "stream refused"))).toBe(405);
  });

  it("takes no status from other errors that merely look like HTTP errors", () => {
    const lookalike = Object.assign(new Error("Streamable HTTP error: Error POSTing to endpoint"), {
      code: 503,
    });
    expect(httpStatus(lookalike)).toBeUndefined();
    expect(httpStatus(new McpError(404, "not found"))).toBeUndefined();
    // -1 is the SDK's code for an unexpected content type: not a status.
    expect(httpStatus(new StreamableHTTPError(-1, "Unexpected content type: text/html"))).toBeUndefined();
    expect(httpStatus(new UnauthorizedError())).toBeUndefined();
  });

  it("knows a forgotten HTTP session by StreamableHTTPError 404 alone", () => {
    expect(isSessionGone(reworded(new StreamableHTTPError(404, "x"), "session unknown"))).toBe(true);
    expect(isSessionGone(new StreamableHTTPError(400, "Bad Request"))).toBe(false);
    expect(isSessionGone(sseError(404, "Not Found"))).toBe(false);
    expect(isSessionGone(Object.assign(new Error("Streamable HTTP error: gone"), { code: 404 }))).toBe(false);
  });

  it("knows the SDK's request timeout by ErrorCode.RequestTimeout", () => {
    expect(isRequestTimeout(new McpError(ErrorCode.RequestTimeout, "deadline passed"))).toBe(true);
    expect(isRequestTimeout(new McpError(ErrorCode.InternalError, "Request timed out"))).toBe(false);
    expect(isRequestTimeout(new Error("Request timed out"))).toBe(false);
  });

  it("says an initialize timed out from the error's code, not its text", () => {
    expect(connectFailureReason(new McpError(ErrorCode.RequestTimeout, "deadline passed"), 250)).toBe(
      "no answer to initialize within 250 ms",
    );
    expect(connectFailureReason(reworded(new StreamableHTTPError(502, "x"), "bad gateway"), 250)).toBe(
      "HTTP 502: bad gateway",
    );
  });

  it("maps a reworded HTTP failure to mcp-request-failed with its status", () => {
    const error = toJunctionError(reworded(new StreamableHTTPError(502, "x"), "upstream down"), failure);
    expect(error.code).toBe("mcp-request-failed");
    expect(error.message).toBe('tools/call to MCP server "files" failed with HTTP 502: upstream down');
  });

  it("maps McpError codes: timeout, closed connection, and a server's own error", () => {
    const timeout = toJunctionError(new McpError(ErrorCode.RequestTimeout, "deadline passed"), failure);
    expect([timeout.code, timeout.message]).toEqual([
      "mcp-timeout",
      'MCP server "files" did not answer tools/call within 250 ms (notifications/cancelled sent)',
    ]);
    const closed = toJunctionError(new McpError(ErrorCode.ConnectionClosed, "gone away"), failure);
    expect([closed.code, closed.message]).toEqual([
      "mcp-connection-closed",
      'connection to MCP server "files" closed during tools/call',
    ]);
    const answered = toJunctionError(new McpError(ErrorCode.InvalidParams, "no such tool"), failure);
    expect([answered.code, answered.message]).toEqual([
      "mcp-request-failed",
      'MCP server "files" answered tools/call with error -32602: no such tool',
    ]);
  });

  it("maps a result that fails the SDK's schema to mcp-invalid-response", () => {
    const parsed = ListToolsResultSchema.safeParse({ tools: "none" });
    if (parsed.success) throw new TypeError("expected the schema to reject the page");
    const error = toJunctionError(parsed.error, { ...failure, method: "tools/list" });
    expect(error.code).toBe("mcp-invalid-response");
    expect(error.message).toMatch(/^MCP server "files" sent an invalid tools\/list result: /);
    expect(error.cause).toBe(parsed.error);
  });
});

describe("an aborted request", () => {
  it("is the shared abort error (code aborted), with secrets kept out of it", () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop with sk-secret-1234");
    controller.abort(reason);
    const error = toJunctionError(reason, {
      ...failure,
      signal: controller.signal,
    });
    expect(isAbortError(error)).toBe(true);
    expect(error.code).toBe("aborted");
    expect(error.message).toBe('tools/call to MCP server "files" was aborted (notifications/cancelled sent)');
    expect((error.cause as Error).message).toBe("user pressed stop with [redacted]");
  });

  it("keeps an abort reason that is already a Junction error as it is", () => {
    const reason = new JunctionError("aborted", "Stopped by the user.");
    const controller = new AbortController();
    controller.abort(reason);
    expect(toJunctionError(reason, { ...failure, signal: controller.signal })).toBe(reason);
  });
});
