import { request as httpRequest } from "node:http";
import { tool } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { fixtureServer } from "../test/fixture-server.js";
import { createMCPServer } from "./index.js";
import { type RunningHTTPServer, type ServeHTTPOptions, serveHTTP } from "./node.js";

const running: RunningHTTPServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: ServeHTTPOptions = {}): Promise<RunningHTTPServer> {
  const server = await serveHTTP(fixtureServer(), options);
  running.push(server);
  return server;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** A raw POST over a real socket, with headers fetch would not let us set (Host). */
function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("DNS-rebinding protection", () => {
  it("refuses a Host that is not loopback, and passes a loopback one", async () => {
    const server = await start();
    const rejected = await post(server.url, INITIALIZE, { host: "evil.example:80" });
    expect(rejected.status).toBe(403);
    expect(JSON.parse(rejected.body)).toMatchObject({ error: { message: "Invalid Host: evil.example" } });
    const accepted = await post(server.url, INITIALIZE);
    expect(accepted.status).toBe(200);
  });

  it("refuses a browser Origin from another site, and allows configured hosts and origins", async () => {
    const server = await start();
    const rejected = await post(server.url, INITIALIZE, { origin: "https://evil.example" });
    expect(rejected.status).toBe(403);
    expect(JSON.parse(rejected.body)).toMatchObject({ error: { message: "Invalid Origin: evil.example" } });
    expect((await post(server.url, INITIALIZE, { origin: "http://localhost:5173" })).status).toBe(200);

    const open = await start({ allowedHosts: ["mcp.example"], allowedOrigins: ["app.example"] });
    expect((await post(open.url, INITIALIZE, { host: "mcp.example" })).status).toBe(200);
    expect(
      (await post(open.url, INITIALIZE, { host: "mcp.example", origin: "https://app.example" })).status,
    ).toBe(200);
    expect((await post(open.url, INITIALIZE)).status).toBe(403);
  });
});

describe("bearer authentication", () => {
  const auth = {
    resource: "http://127.0.0.1/mcp",
    authorizationServers: ["https://auth.example"],
    scopesSupported: ["tools"],
    resourceName: "Fixture",
    verifyToken: (token: string): AuthInfo | undefined => tokens[token],
  };
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  /** Tokens as an authorization server would describe them: for whom, and for what. */
  const tokens: Record<string, AuthInfo> = {
    "good-token": {
      token: "good-token",
      clientId: "client-a",
      scopes: ["tools"],
      expiresAt,
      resource: new URL("http://127.0.0.1/mcp"),
    },
    // The same resource written with a trailing slash and a fragment: the same audience.
    "slash-token": {
      token: "slash-token",
      clientId: "client-a",
      scopes: ["tools"],
      expiresAt,
      resource: new URL("http://127.0.0.1/mcp/#part"),
    },
    "other-token": {
      token: "other-token",
      clientId: "client-a",
      scopes: ["tools"],
      expiresAt,
      resource: new URL("https://other.example/mcp"),
    },
    "no-audience-token": { token: "no-audience-token", clientId: "client-a", scopes: ["tools"], expiresAt },
  };

  /** The `error_description` of a 401's `WWW-Authenticate` challenge. */
  function description(response: { headers: Record<string, string | string[] | undefined> }): string {
    const header = String(response.headers["www-authenticate"]);
    return /error_description="([^"]*)"/.exec(header)?.[1] ?? header;
  }

  it("refuses a token issued for another resource, naming the audience", async () => {
    const server = await start({ auth });
    const refused = await post(server.url, INITIALIZE, { authorization: "Bearer other-token" });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toContain('error="invalid_token"');
    expect(description(refused)).toBe(
      "The access token was issued for another resource (https://other.example/mcp), not for http://127.0.0.1/mcp.",
    );
    expect(JSON.parse(refused.body)).toMatchObject({ error: "invalid_token" });
    expect((await post(server.url, INITIALIZE, { authorization: "Bearer slash-token" })).status).toBe(200);
    expect((await post(server.url, INITIALIZE, { authorization: "Bearer good-token" })).status).toBe(200);
  });

  it("refuses a token that names no audience unless the server opts out, and never one for another resource", async () => {
    const strict = await start({ auth });
    const refused = await post(strict.url, INITIALIZE, { authorization: "Bearer no-audience-token" });
    expect(refused.status).toBe(401);
    expect(description(refused)).toBe(
      "The access token names no audience: the token verifier must report the resource it was issued for (AuthInfo.resource), and this server accepts only tokens for http://127.0.0.1/mcp.",
    );

    const lenient = await start({ auth: { ...auth, acceptTokensWithoutResource: true } });
    expect((await post(lenient.url, INITIALIZE, { authorization: "Bearer no-audience-token" })).status).toBe(
      200,
    );
    expect((await post(lenient.url, INITIALIZE, { authorization: "Bearer other-token" })).status).toBe(401);
  });

  it("answers 401 with WWW-Authenticate naming the protected-resource metadata, which it serves", async () => {
    const server = await start({ auth });
    const missing = await post(server.url, INITIALIZE);
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toContain(
      'resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
    );
    const wrong = await post(server.url, INITIALIZE, { authorization: "Bearer bad-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');

    const origin = new URL(server.url).origin;
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: "http://127.0.0.1/mcp",
        authorization_servers: ["https://auth.example"],
        bearer_methods_supported: ["header"],
        scopes_supported: ["tools"],
        resource_name: "Fixture",
      });
    }
  });

  it.each(["2026-07-28", "2025-11-25"] as const)(
    "serves a client with a valid token (%s)",
    async (protocolVersion) => {
      const server = await start({ auth });
      const mcp = new MCP({
        transport: "http",
        url: server.url,
        protocolVersion,
        headers: { authorization: "Bearer good-token" },
      });
      await mcp.connect();
      expect(await mcp.callTool("add", { a: 1, b: 1 })).toEqual({
        content: [{ type: "text", text: "2" }],
        isError: false,
      });
      await mcp.close();
    },
  );
});

describe("limits", () => {
  it("answers 429 with Retry-After once a client is over its rate, until the window passes", async () => {
    let now = 1_000_000;
    const server = await start({ rateLimit: { max: 2, windowMs: 10_000, now: () => now } });
    expect((await post(server.url, INITIALIZE)).status).toBe(200);
    expect((await post(server.url, INITIALIZE)).status).toBe(200);
    const limited = await post(server.url, INITIALIZE);
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("10");
    now += 10_000;
    expect((await post(server.url, INITIALIZE)).status).toBe(200);
  });

  it("answers 413 to a body over the limit", async () => {
    const server = await start({ maxRequestBodyBytes: 1024 });
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { pad: "x".repeat(2048) },
    });
    const response = await post(server.url, big);
    expect(response.status).toBe(413);
    expect((await post(server.url, INITIALIZE)).status).toBe(200);
  });
});

describe("2025 session caps", () => {
  /** An `initialize` over a real socket from `localAddress` (a loopback address of its own). */
  function initializeFrom(
    url: string,
    options: { localAddress?: string; authorization?: string } = {},
  ): Promise<{ status: number; sessionId: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method: "POST",
          ...(options.localAddress ? { localAddress: options.localAddress } : {}),
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(options.authorization ? { authorization: options.authorization } : {}),
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => {
            const sessionId = response.headers["mcp-session-id"];
            resolve({
              status: response.statusCode ?? 0,
              sessionId: typeof sessionId === "string" ? sessionId : undefined,
              body: text,
            });
          });
        },
      );
      request.on("error", reject);
      request.end(INITIALIZE);
    });
  }

  const PER_CLIENT_REFUSAL =
    "Too many open sessions for this client (at most 2): end sessions you no longer use (HTTP DELETE with their Mcp-Session-Id) or reuse one, then initialize again.";

  it("caps the sessions one remote address holds, and another address still gets one", async () => {
    const server = await start({ sessions: { maxSessions: 10, maxSessionsPerClient: 2 } });
    const first = await initializeFrom(server.url, { localAddress: "127.0.0.2" });
    const second = await initializeFrom(server.url, { localAddress: "127.0.0.2" });
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await initializeFrom(server.url, { localAddress: "127.0.0.2" });
    expect(refused.status).toBe(429);
    expect(refused.sessionId).toBeUndefined();
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: PER_CLIENT_REFUSAL },
      id: null,
    });
    const other = await initializeFrom(server.url, { localAddress: "127.0.0.3" });
    expect(other.status).toBe(200);
    expect(other.sessionId).toBeDefined();

    // Ending a session gives its place back.
    const ended = await fetch(server.url, {
      method: "DELETE",
      headers: { "mcp-session-id": String(first.sessionId), "mcp-protocol-version": "2025-11-25" },
    });
    expect(ended.status).toBe(200);
    expect((await initializeFrom(server.url, { localAddress: "127.0.0.2" })).status).toBe(200);
  });

  it("caps the sessions per authenticated client, not per address", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const server = await start({
      sessions: { maxSessions: 10, maxSessionsPerClient: 2 },
      auth: {
        resource: "http://127.0.0.1/mcp",
        authorizationServers: ["https://auth.example"],
        verifyToken: (token) =>
          token === "token-a" || token === "token-b"
            ? { token, clientId: token, scopes: [], expiresAt, resource: new URL("http://127.0.0.1/mcp") }
            : undefined,
      },
    });
    const a = { authorization: "Bearer token-a" };
    expect((await initializeFrom(server.url, a)).status).toBe(200);
    expect((await initializeFrom(server.url, a)).status).toBe(200);
    const refused = await initializeFrom(server.url, a);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.message).toBe(PER_CLIENT_REFUSAL);
    // Same address, another client: still served.
    expect((await initializeFrom(server.url, { authorization: "Bearer token-b" })).status).toBe(200);
  });
});

describe("custom headers (SEP-2243)", () => {
  const regional = tool({
    name: "regional",
    description: "Answers for a region",
    schema: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }) }),
    execute: async ({ region }) => `served ${region}`,
  });

  /** A 2026-07-28 tools/call of `regional` with `region`, and the given Mcp-Param-Region header. */
  async function call(url: string, region: string, header: string | undefined) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "regional",
        ...(header === undefined ? {} : { "mcp-param-region": header }),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "regional",
          arguments: { region },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    return { status: response.status, body: await response.json() };
  }

  it("runs a tool whose Mcp-Param header matches its argument, and refuses one that does not or is missing", async () => {
    const server = await serveHTTP(createMCPServer({ name: "regions", version: "1.0.0", tools: [regional] }));
    running.push(server);

    const plain = await call(server.url, "eu-west", "eu-west");
    expect(plain.status).toBe(200);
    expect(plain.body.result.content).toEqual([{ type: "text", text: "served eu-west" }]);
    const encoded = await call(server.url, "Grüße", `=?base64?${Buffer.from("Grüße").toString("base64")}?=`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.result.content).toEqual([{ type: "text", text: "served Grüße" }]);

    for (const header of ["us-east", undefined, "=?base64?SGVs!!!bG8=?="]) {
      const refused = await call(server.url, "eu-west", header);
      expect(refused.status).toBe(400);
      expect(refused.body.id).toBe(7);
      expect(refused.body.error.code).toBe(-32020);
      expect(refused.body.result).toBeUndefined();
    }
  });
});
