import { isAbortError, JunctionError } from "@junction/types";
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { rejection, testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
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

/** An HTTP failure as the v2 Streamable HTTP transport throws it. */
function httpError(status: number, message: string): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status } as never);
}

const failure = { server: "files", method: "tools/call", timeoutMs: 250, secrets: ["sk-secret-1234"] };

describe("SDK errors are recognised by class and code, not by their wording", () => {
  it("reads the HTTP status of an SdkHttpError or SseError whatever its message says", () => {
    expect(httpStatus(reworded(httpError(503, "x"), "POST failed"))).toBe(503);
    expect(httpStatus(reworded(sseError(405, "x"), "stream refused"))).toBe(405);
  });

  it("takes no status from other errors that merely look like HTTP errors", () => {
    const lookalike = Object.assign(new Error("Streamable HTTP error: Error POSTing to endpoint"), {
      code: 503,
      status: 503,
    });
    expect(httpStatus(lookalike)).toBeUndefined();
    expect(httpStatus(new ProtocolError(404, "not found"))).toBeUndefined();
    expect(
      httpStatus(new SdkError(SdkErrorCode.SendFailed, "Unexpected content type: text/html")),
    ).toBeUndefined();
    expect(httpStatus(new UnauthorizedError())).toBeUndefined();
  });

  it("knows a forgotten HTTP session by SdkHttpError status 404, or 400 naming the session of a request that had one", () => {
    expect(isSessionGone(reworded(httpError(404, "x"), "session unknown"), false)).toBe(true);
    expect(isSessionGone(httpError(400, "Bad Request"), true)).toBe(false);
    expect(
      isSessionGone(
        httpError(400, "Error POSTing to endpoint: Bad Request: No valid session ID provided"),
        true,
      ),
    ).toBe(true);
    // Without a session id, a 400 naming sessions is about something else (a stateless server).
    expect(isSessionGone(httpError(400, "Bad Request: No valid session ID provided"), false)).toBe(false);
    expect(isSessionGone(sseError(404, "Not Found"), true)).toBe(false);
    expect(
      isSessionGone(Object.assign(new Error("Streamable HTTP error: gone"), { status: 404 }), true),
    ).toBe(false);
  });

  it("knows the SDK's request timeout by SdkErrorCode.RequestTimeout", () => {
    expect(isRequestTimeout(new SdkError(SdkErrorCode.RequestTimeout, "deadline passed"))).toBe(true);
    expect(isRequestTimeout(new ProtocolError(ProtocolErrorCode.InternalError, "Request timed out"))).toBe(
      false,
    );
    expect(isRequestTimeout(new Error("Request timed out"))).toBe(false);
  });

  it("says a handshake timed out from the error's code, not its text", () => {
    expect(connectFailureReason(new SdkError(SdkErrorCode.RequestTimeout, "deadline passed"), 250)).toBe(
      "no answer to initialize within 250 ms",
    );
    expect(connectFailureReason(reworded(httpError(502, "x"), "bad gateway"), 250)).toBe(
      "HTTP 502: bad gateway",
    );
    expect(
      connectFailureReason(new SdkError(SdkErrorCode.EraNegotiationFailed, "server offers 2025-11-25"), 250),
    ).toBe("no protocol revision both sides speak: server offers 2025-11-25");
  });

  it("says a connection was refused from the socket's code in the cause chain, not from what a server wrote", () => {
    const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const probe = Object.assign(
      new SdkError(SdkErrorCode.EraNegotiationFailed, "Version negotiation probe failed: fetch failed"),
      { cause: new TypeError("fetch failed", { cause: socket }) },
    );
    expect(connectFailureReason(probe, 250)).toBe(
      "the connection was refused: nothing is listening there; check the URL and that the server is running (ECONNREFUSED)",
    );
    // A gateway that answered, quoting its upstream's error, did answer.
    expect(connectFailureReason(httpError(502, "upstream: connect ECONNREFUSED"), 250)).toBe(
      "HTTP 502: upstream: connect ECONNREFUSED",
    );
  });

  it("maps a reworded HTTP failure to mcp-request-failed with its status", () => {
    const error = toJunctionError(reworded(httpError(502, "x"), "upstream down"), failure);
    expect(error.code).toBe("mcp-request-failed");
    expect(error.message).toBe('tools/call to MCP server "files" failed with HTTP 502: upstream down');
  });

  it("maps SDK and protocol codes: timeout, closed connection, and a server's own error", () => {
    const timeout = toJunctionError(new SdkError(SdkErrorCode.RequestTimeout, "deadline passed"), failure);
    expect([timeout.code, timeout.message]).toEqual([
      "mcp-timeout",
      'MCP server "files" did not answer tools/call within 250 ms (notifications/cancelled sent)',
    ]);
    const closed = toJunctionError(new SdkError(SdkErrorCode.ConnectionClosed, "gone away"), failure);
    expect([closed.code, closed.message]).toEqual([
      "mcp-connection-closed",
      'connection to MCP server "files" closed during tools/call; the request had been sent, so the server may have acted on it, and it was not sent again',
    ]);
    const answered = toJunctionError(
      new ProtocolError(ProtocolErrorCode.InvalidParams, "no such tool"),
      failure,
    );
    expect([answered.code, answered.message]).toEqual([
      "mcp-request-failed",
      'MCP server "files" answered tools/call with error -32602: no such tool',
    ]);
  });

  it("maps the 2026-07-28 error codes -32021 and -32022 and the SDK's revision errors", () => {
    const capability = toJunctionError(
      new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, "needs elicitation"),
      failure,
    );
    expect([capability.code, capability.message]).toEqual([
      "mcp-capability-missing",
      'MCP server "files" needs a client capability this connection does not advertise for tools/call (error -32021): needs elicitation',
    ]);
    const version = toJunctionError(
      new ProtocolError(ProtocolErrorCode.UnsupportedProtocolVersion, "supported: 2027-01-01"),
      failure,
    );
    expect([version.code, version.message]).toEqual([
      "mcp-request-failed",
      'MCP server "files" does not support the protocol revision of tools/call (error -32022): supported: 2027-01-01',
    ]);
    const removed = toJunctionError(
      new SdkError(SdkErrorCode.MethodNotSupportedByProtocolVersion, "ping is not part of 2026-07-28"),
      { ...failure, method: "ping" },
    );
    expect([removed.code, removed.message]).toEqual([
      "mcp-capability-missing",
      'ping is not available on MCP server "files": ping is not part of 2026-07-28',
    ]);
    const rounds = toJunctionError(
      new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, "10 rounds"),
      failure,
    );
    expect(rounds.code).toBe("mcp-request-failed");
    expect(rounds.message).toBe(
      'MCP server "files" kept asking for input on tools/call past the round limit: 10 rounds',
    );
  });

  it("maps a result that fails the SDK's schema to mcp-invalid-response", () => {
    const invalid = new SdkError(SdkErrorCode.InvalidResult, "tools: expected array");
    const error = toJunctionError(invalid, { ...failure, method: "tools/list" });
    expect(error.code).toBe("mcp-invalid-response");
    expect(error.message).toBe('MCP server "files" sent an invalid tools/list result: tools: expected array');
    expect(error.cause).toBe(invalid);
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

describe("a server's JSON-RPC error answer", () => {
  it("keeps its code and data on the JunctionError, over real stdio", async () => {
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("raw-server.mjs")],
      reconnect: false,
    });
    await mcp.connect();
    try {
      const missing = await rejection(mcp.readResource("file:///nowhere.txt"));
      expect(missing.code).toBe("mcp-request-failed");
      expect(missing.jsonRPCCode).toBe(-32602);
      expect(missing.jsonRPCData).toEqual({ uri: "file:///nowhere.txt" });
      const unknown = await rejection(
        mcp.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }),
      );
      expect(unknown.jsonRPCCode).toBe(-32601);
      expect(unknown.jsonRPCData).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });

  it("is not set on failures that got no answer, and data echoing a secret is left out", () => {
    const timeout = toJunctionError(new SdkError(SdkErrorCode.RequestTimeout, "timed out"), failure);
    expect(timeout.jsonRPCCode).toBeUndefined();
    const echoed = toJunctionError(
      new ProtocolError(-32603, "bad token", { token: "sk-secret-1234" }),
      failure,
    );
    expect(echoed.jsonRPCCode).toBe(-32603);
    expect(echoed.jsonRPCData).toBeUndefined();
    expect(JSON.stringify(echoed)).not.toContain("sk-secret-1234");
  });
});
