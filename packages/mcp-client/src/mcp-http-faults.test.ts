import { JunctionError } from "@junction/types";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../test/test-support.js";
// @ts-expect-error: a plain .mjs test server without type declarations
import { startHttpServer } from "../test-servers/http-server.mjs";
import { connectAll } from "./connect-all.js";
import { MCP } from "./mcp.js";

interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
}
interface TestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  sessionsCreated: number;
  forgetSessions(): void;
  dropNextToolCall(): void;
  close(): Promise<void>;
}
const start = startHttpServer as (options: { mode: string; port?: number }) => Promise<TestServer>;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
async function server(mode: string, port?: number): Promise<TestServer> {
  const started = await start({ mode, port });
  cleanups.push(() => started.close());
  return started;
}
function track(mcp: MCP): MCP {
  cleanups.push(() => mcp.close());
  return mcp;
}
async function caught(promise: Promise<unknown>): Promise<JunctionError> {
  try {
    await promise;
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new JunctionError("invalid-argument", "expected a rejection");
}
function text(result: { content: { type: string }[] }): string {
  return (result.content[0] as { text?: string }).text ?? "";
}

describe("Streamable HTTP", () => {
  it("sends the configured headers on every request", async () => {
    const http = await server("streamable");
    const mcp = track(new MCP({ transport: "http", url: http.url, headers: { "x-api-key": "key-abcdef" } }));
    await mcp.connect();
    expect(await mcp.callTool("echo", { message: "hi" })).toEqual({
      content: [{ type: "text", text: "session-1: hi" }],
      isError: false,
    });
    const posts = http.requests.filter((request) => request.method === "POST");
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(posts.every((request) => request.headers["x-api-key"] === "key-abcdef")).toBe(true);
  });

  it("uses a custom fetch and an OAuth authProvider's access token", async () => {
    const http = await server("streamable");
    const fetched: string[] = [];
    const provider = {
      redirectUrl: "http://127.0.0.1/callback",
      clientMetadata: { redirect_uris: ["http://127.0.0.1/callback"], client_name: "junction-test" },
      clientInformation: () => ({ client_id: "junction-test" }),
      tokens: () => ({ access_token: "oauth-access-token-xyz", token_type: "Bearer" }),
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => "verifier",
    };
    const mcp = track(
      new MCP({
        transport: "http",
        url: http.url,
        authProvider: provider,
        fetch: (input, init) => {
          fetched.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
          return fetch(input, init);
        },
      }),
    );
    await mcp.connect();
    expect(text(await mcp.callTool("echo", { message: "authorized" }))).toBe("session-1: authorized");
    expect(fetched.slice(0, 2)).toEqual(["POST /mcp", "POST /mcp"]);
    const posts = http.requests.filter((request) => request.method === "POST");
    expect(posts.every((request) => request.headers.authorization === "Bearer oauth-access-token-xyz")).toBe(
      true,
    );
  });

  it("re-establishes a session the server forgot (404) and retries the call transparently", async () => {
    const http = await server("streamable");
    const mcp = track(new MCP({ transport: "http", url: http.url, name: "forgetful" }));
    await mcp.connect();
    expect(text(await mcp.callTool("echo", { message: "one" }))).toBe("session-1: one");
    http.forgetSessions();
    expect(text(await mcp.callTool("echo", { message: "two" }))).toBe("session-2: two");
    expect(http.sessionsCreated).toBe(2);
    expect(mcp.connected).toBe(true);
    expect(http.requests.some((request) => request.status === 404)).toBe(true);
    expect(text(await mcp.callTool("echo", { message: "three" }))).toBe("session-2: three");
  });

  it("says a call resent on a new session was sent twice when that connection dies too, and does not send it a third time", async () => {
    const http = await server("streamable");
    const mcp = track(new MCP({ transport: "http", url: http.url, name: "forgetful", reconnect: false }));
    await mcp.connect();
    expect(text(await mcp.callTool("echo", { message: "one" }))).toBe("session-1: one");
    // A plain drop first: sent once, not sent again.
    http.dropNextToolCall();
    const dropped = await caught(mcp.callTool("echo", { message: "two" }));
    expect(dropped.code).toBe("mcp-connection-closed");
    expect(dropped.message).toMatch(
      /the request had been sent, so the server may have acted on it, and it was not sent again/,
    );
    // Then the session forgotten (404: the call never ran), the call resent, and that one dropped.
    await mcp.connect();
    http.forgetSessions();
    http.dropNextToolCall();
    const before = http.requests.length;
    const resent = await caught(mcp.callTool("echo", { message: "three" }));
    expect(resent.code).toBe("mcp-connection-closed");
    expect(resent.message).toMatch(/sent a second time \(the server had forgotten the session of the first/);
    expect(resent.message).toMatch(/not sent a third time/);
    expect(resent.message).not.toMatch(/it was not sent again/);
    const calls = http.requests
      .slice(before)
      .filter((request) => request.method === "POST" && request.status !== 200);
    // The 404 on the forgotten session, then the dropped resend: two tries, no third.
    expect(calls.map((request) => request.status)).toEqual([404, -1]);
  });

  it("tells onMessage and requestMeta the session each message belongs to, a re-established one too", async () => {
    const http = await server("streamable");
    const seen: string[] = [];
    const mcp = track(
      new MCP({
        transport: "http",
        url: http.url,
        name: "sessions",
        protocolVersion: "2025-11-25",
        onMessage: ({ direction, message, sessionId }) => {
          const what = "method" in message ? message.method : "result" in message ? "result" : "error";
          seen.push(`${direction} ${what} ${sessionId ?? "-"}`);
        },
        requestMeta: ({ method, sessionId }) => {
          seen.push(`meta ${method} ${sessionId ?? "-"}`);
          return undefined;
        },
      }),
    );
    await mcp.connect();
    await mcp.callTool("echo", { message: "one" });
    http.forgetSessions();
    await mcp.callTool("echo", { message: "two" });
    // The session ids the server saw, in the order it first saw them.
    const ids = [...new Set(http.requests.flatMap((request) => request.headers["mcp-session-id"] ?? []))];
    expect(ids).toHaveLength(2);
    const [first, second] = ids as [string, string];
    // Up to the initialize answer there is no session; from the answer on, each message names its own.
    expect(seen).toEqual([
      "meta initialize -",
      "out initialize -",
      `in result ${first}`,
      `meta notifications/initialized ${first}`,
      `out notifications/initialized ${first}`,
      `meta tools/list ${first}`,
      `out tools/list ${first}`,
      `in result ${first}`,
      `meta tools/call ${first}`,
      `out tools/call ${first}`,
      `in result ${first}`,
      // The forgotten session answers 404: a new one is opened and the call retried in it.
      `meta tools/call ${first}`,
      `out tools/call ${first}`,
      "meta initialize -",
      "out initialize -",
      `in result ${second}`,
      `meta notifications/initialized ${second}`,
      `out notifications/initialized ${second}`,
      // The new session may be a restarted server's: its tools are listed before the call is retried.
      `meta tools/list ${second}`,
      `out tools/list ${second}`,
      `in result ${second}`,
      `meta tools/call ${second}`,
      `out tools/call ${second}`,
      `in result ${second}`,
    ]);
  });

  it("survives a server restart on the same port", async () => {
    const first = await start({ mode: "streamable" });
    const mcp = track(new MCP({ transport: "http", url: first.url, name: "restarting" }));
    await mcp.connect();
    expect(text(await mcp.callTool("echo", { message: "before" }))).toBe("session-1: before");
    await first.close();
    // A restart takes a moment; meanwhile the client's HTTP pool notices its sockets were closed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await server("streamable", first.port);
    expect(text(await mcp.callTool("echo", { message: "after" }))).toBe("session-1: after");
    // The new process knew nothing of the old session: it answered 404, then a new session began.
    expect(second.requests[0]).toMatchObject({ method: "POST", status: 404 });
    expect(second.sessionsCreated).toBe(1);
  });

  it("ends the session with DELETE on close()", async () => {
    const http = await server("streamable");
    const mcp = new MCP({ transport: "http", url: http.url });
    await mcp.connect();
    await mcp.close();
    expect(http.requests.some((request) => request.method === "DELETE")).toBe(true);
    expect(mcp.connected).toBe(false);
  });
});

describe("fallback to legacy SSE", () => {
  it("falls back when the initial POST gets a 4xx", async () => {
    const http = await server("legacy-sse");
    const mcp = track(
      new MCP({ transport: "http", url: http.url, headers: { authorization: "Bearer tok-legacy-123" } }),
    );
    await mcp.connect();
    expect(text(await mcp.callTool("echo", { message: "old" }))).toBe("legacy: old");
    // The server/discover probe and then initialize each get 405; then the SSE stream opens.
    expect(http.requests[0]).toMatchObject({ method: "POST", path: "/mcp", status: 405 });
    expect(http.requests[1]).toMatchObject({ method: "POST", path: "/mcp", status: 405 });
    expect(http.requests[2]).toMatchObject({ method: "GET", path: "/mcp", status: 200 });
    // The headers go along on the SSE stream and on the message POSTs.
    expect(http.requests.every((request) => request.headers.authorization === "Bearer tok-legacy-123")).toBe(
      true,
    );
  });

  it("does not fall back when sseFallback is false", async () => {
    const http = await server("legacy-sse");
    const mcp = track(new MCP({ transport: "http", url: http.url, sseFallback: false, name: "strict" }));
    const error = await caught(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toMatch(
      /^could not connect to MCP server "strict" at http:\/\/127\.0\.0\.1:\d+\/mcp: HTTP 405/,
    );
    // The server/discover probe, then initialize: no GET.
    expect(http.requests.map((request) => request.method)).toEqual(["POST", "POST"]);
  });

  it("does not hide a 5xx behind a fallback, and never shows header values", async () => {
    const http = await server("broken");
    const secret = "sk-very-secret-token-42";
    const mcp = track(
      new MCP({
        transport: "http",
        url: http.url,
        name: "broken",
        headers: { Authorization: `Bearer ${secret}` },
      }),
    );
    const error = await caught(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toMatch(
      /^could not connect to MCP server "broken" at http:\/\/127\.0\.0\.1:\d+\/mcp: HTTP 500/,
    );
    // The server echoed our headers into its error body; the message keeps the body, not the secret.
    expect(error.message).toContain('"authorization":"[redacted]"');
    expect(error.message).not.toContain(secret);
    expect(String((error.cause as Error | undefined)?.message)).not.toContain(secret);
    expect(http.requests.map((request) => request.method)).toEqual(["POST"]);
  });

  it("does not hide a refused connection either: it says refused and names the URL, not negotiation", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const refused = `the connection was refused: nothing is listening there; check the URL and that the server is running (ECONNREFUSED)`;
    const mcp = track(new MCP({ transport: "http", url, name: "nobody" }));
    const error = await caught(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toBe(`could not connect to MCP server "nobody" at ${url}: ${refused}`);
    // The same over legacy SSE, and through connectAll (the playground's add-server form uses it).
    const sse = track(new MCP({ transport: "sse", url, reconnect: false }));
    expect((await caught(sse.connect())).message).toBe(
      `could not connect to MCP server at ${url} over SSE: ${refused}`,
    );
    const { connected, failed } = await connectAll({ nobody: { transport: "http", url } });
    expect(connected).toEqual([]);
    expect(failed.map(({ name, error }) => [name, error.message])).toEqual([
      ["nobody", `could not connect to MCP server "nobody" at ${url}: ${refused}`],
    ]);
  });

  it("reports negotiation only when a server answered", async () => {
    const port = await freePort();
    const unknownHost = track(
      new MCP({ transport: "http", url: `http://junction-test.invalid:${port}/mcp` }),
    );
    const error = await caught(unknownHost.connect());
    expect(error.message).toContain("the host name could not be resolved");
    expect(error.message).not.toContain("protocol revision");
  });

  it("names an unnamed server by its URL once, without the credentials in it", async () => {
    const port = await freePort();
    const url = `http://alice:hunter22@127.0.0.1:${port}/mcp?api_key=sk-abc%2B123`;
    const mcp = track(new MCP({ transport: "http", url }));
    const error = await caught(mcp.connect());
    expect(error.message).toMatch(/^could not connect to MCP server at http:\/\/127\.0\.0\.1:\d+\/mcp: /);
    // fetch refuses a URL with credentials and quotes it whole in its error.
    expect(error.message).toContain("[redacted]");
    for (const text of [error.message, String((error.cause as Error | undefined)?.message)]) {
      expect(text).not.toMatch(/hunter22|alice|sk-abc/);
    }
  });
});

describe("sse transport", () => {
  it("connects to a legacy SSE server directly", async () => {
    const http = await server("legacy-sse");
    const mcp = track(new MCP({ transport: "sse", url: http.url }));
    await mcp.connect();
    expect(mcp.serverInfo?.name).toBe("http-test-server-legacy");
    expect(text(await mcp.callTool("echo", { message: "direct" }))).toBe("legacy: direct");
    expect(http.requests[0]).toMatchObject({ method: "GET", path: "/mcp" });
  });
});
