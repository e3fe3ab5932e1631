import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureServer } from "../test/fixture-server.js";
import { createMCPHTTPHandler, type MCPHTTPHandler } from "./http-handler.js";
import { type RunningHTTPServer, type ServeHTTPOptions, serveHTTP } from "./node.js";

const handlers: MCPHTTPHandler[] = [];
const running: RunningHTTPServer[] = [];
afterEach(async () => {
  await Promise.all([
    ...handlers.splice(0).map((handler) => handler.close()),
    ...running.splice(0).map((server) => server.close()),
  ]);
});

function handler(): MCPHTTPHandler {
  const made = createMCPHTTPHandler(fixtureServer(), { rateLimit: false });
  handlers.push(made);
  return made;
}

async function start(options: ServeHTTPOptions = {}): Promise<RunningHTTPServer> {
  const server = await serveHTTP(fixtureServer(), options);
  running.push(server);
  return server;
}

/**
 * A POST that counts how often it is cloned (each clone is one more read of its body), with its
 * Content-Length declared as an HTTP server's request has it.
 */
class CountingRequest extends Request {
  clones = 0;
  constructor(headers: Record<string, string>, body: string) {
    super("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      body,
    });
  }
  override clone(): Request {
    this.clones++;
    return super.clone();
  }
}

const HEADERS = {
  host: "127.0.0.1",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/**
 * The JSON-RPC messages of a response, whether it came as JSON or as server-sent events (less a
 * 2025-11-25 stream's priming event, which has an empty `data`).
 */
async function messagesOf(response: Response): Promise<unknown[]> {
  const text = await response.text();
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line.length > "data: ".length)
      .map((line) => JSON.parse(line.slice("data: ".length)));
  }
  return [JSON.parse(text)];
}

/** A raw POST over a real socket, its body sent in chunks without a Content-Length. */
function postChunked(url: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        headers: { "content-type": HEADERS["content-type"], accept: HEADERS.accept },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe("the request body", () => {
  it("is read once for a 2026-07-28 tools/call: the request is never cloned", async () => {
    const request = new CountingRequest(
      { ...HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" },
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: {
          name: "add",
          arguments: { a: 2, b: 3 },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    );
    const response = await handler().fetch(request);
    expect(response.status).toBe(200);
    const [message] = (await messagesOf(response)) as { id: number; result: { content: unknown } }[];
    expect(message?.id).toBe(3);
    expect(message?.result.content).toEqual([{ type: "text", text: "5" }]);
    expect(request.clones).toBe(0);
  });

  it("is read once for a 2025-11-25 initialize: the request is never cloned", async () => {
    const request = new CountingRequest(HEADERS, INITIALIZE);
    const response = await handler().fetch(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    const [message] = (await messagesOf(response)) as { id: number; result: { protocolVersion: string } }[];
    expect(message?.id).toBe(1);
    expect(message?.result.protocolVersion).toBe("2025-11-25");
    expect(request.clones).toBe(0);
  });

  it("that is not JSON gets the SDK's parse error", async () => {
    const response = await handler().fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: HEADERS,
        body: '{"jsonrpc": "2.0", "id": 1,',
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: Invalid JSON" },
      id: null,
    });
  });

  it("that is empty gets the SDK's parse error", async () => {
    const response = await handler().fetch(
      new Request("http://127.0.0.1/mcp", { method: "POST", headers: HEADERS, body: "" }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: Invalid JSON" },
      id: null,
    });
  });

  it("of another content type is refused with 415", async () => {
    const response = await handler().fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...HEADERS, "content-type": "text/plain" },
        body: INITIALIZE,
      }),
    );
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: -32000 } });
  });

  it("sent in chunks is measured as it comes: 413 over the limit, served under it", async () => {
    const server = await start({ maxRequestBodyBytes: 1024 });
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { pad: "x".repeat(2048) },
    });
    const refused = await postChunked(server.url, [big.slice(0, 1000), big.slice(1000)]);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Request body too large (limit 1024 bytes)." },
      id: null,
    });
    const served = await postChunked(server.url, [INITIALIZE.slice(0, 40), INITIALIZE.slice(40)]);
    expect(served.status).toBe(200);
    expect(served.body).toContain('"protocolVersion":"2025-11-25"');
  });
});

describe("the Host and Origin checks", () => {
  it("still refuse a bad Host or Origin after good ones were accepted", async () => {
    const endpoint = handler();
    const post = (headers: Record<string, string>) =>
      endpoint.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { ...HEADERS, ...headers },
          body: INITIALIZE,
        }),
      );
    for (let round = 0; round < 2; round++) {
      expect((await post({ host: "localhost:3000", origin: "http://localhost:5173" })).status).toBe(200);
      const badHost = await post({ host: "evil.example:3000" });
      expect(badHost.status).toBe(403);
      expect(await badHost.json()).toMatchObject({ error: { message: "Invalid Host: evil.example" } });
      const badOrigin = await post({ host: "localhost:3000", origin: "https://evil.example" });
      expect(badOrigin.status).toBe(403);
      expect(await badOrigin.json()).toMatchObject({ error: { message: "Invalid Origin: evil.example" } });
    }
    // More distinct accepted values than it remembers: each is still checked, and accepted.
    for (let port = 1; port <= 80; port++) {
      expect((await post({ host: `127.0.0.1:${port}` })).status).toBe(200);
    }
    expect((await post({ host: "evil.example" })).status).toBe(403);
  });
});
