import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  hostHeaderValidationResponse,
  isJsonContentType,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  OAuthError,
  OAuthErrorCode,
  type OAuthProtectedResourceMetadata,
  originValidationResponse,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type LegacySessionOptions, LegacySessions } from "./legacy-sessions.js";
import type { MCPServer } from "./mcp-server.js";
import { addressRateKey, RateLimiter, type RateLimitOptions } from "./rate-limit.js";

/** Bearer-token authentication for the HTTP endpoint, as an OAuth 2.1 protected resource. */
export interface MCPHTTPAuthOptions {
  /**
   * Checks a bearer token: the token's `clientId`, `scopes`, `expiresAt` (seconds since the
   * epoch; a token without it is refused) and `resource` (the audience it was issued for,
   * RFC 8707, e.g. from the token's `aud` claim or the introspection answer), or `undefined` when
   * the token is not valid. A token whose `resource` is not this endpoint's {@link resource} is
   * refused with 401 `invalid_token`, and so is one without a `resource` unless
   * {@link acceptTokensWithoutResource} is set: the MCP authorization spec requires a server to
   * check that a token was issued for it, so a token meant for another server cannot be replayed
   * here.
   */
  verifyToken(token: string, request: Request): AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /**
   * The endpoint's public URL (`https://example.com/mcp`): the protected resource's identifier,
   * from which the metadata URL is made.
   */
  resource: string;
  /** The authorization servers' issuer URLs, for the protected-resource metadata. */
  authorizationServers: string[];
  /** Scopes every request needs (403 `insufficient_scope` otherwise). */
  requiredScopes?: string[];
  /** Advertised as `scopes_supported`. */
  scopesSupported?: string[];
  /** Advertised as `resource_name`. */
  resourceName?: string;
  /**
   * Accepts a token whose `AuthInfo` names no `resource` (a verifier that cannot tell a token's
   * audience, e.g. an opaque token checked against a list). Only for verifiers that check the
   * audience themselves: otherwise a token issued for any other server the authorization server
   * serves is accepted here. A token that names another resource is refused either way.
   * @default false
   */
  acceptTokensWithoutResource?: boolean;
}

/** What `createMCPHTTPHandler()` takes. */
export interface MCPHTTPOptions {
  /**
   * Where the MCP endpoint is.
   * @default "/mcp"
   */
  path?: string;
  /**
   * Hostnames the `Host` header may name (DNS-rebinding protection); `false` turns the check off
   * (behind a proxy that checks it).
   * @default ["localhost", "127.0.0.1", "[::1]"]
   */
  allowedHosts?: string[] | false;
  /**
   * Hostnames a browser's `Origin` header may name; requests without `Origin` (non-browser
   * clients) pass. `false` turns the check off.
   * @default ["localhost", "127.0.0.1", "[::1]"]
   */
  allowedOrigins?: string[] | false;
  /** Bearer-token authentication with OAuth protected-resource metadata. Omitted: no authentication. */
  auth?: MCPHTTPAuthOptions;
  /**
   * Largest request body, in bytes: larger ones get 413 before they are read.
   * @default 4194304 (4 MiB)
   */
  maxRequestBodyBytes?: number;
  /**
   * Requests per client and window; over it a request gets 429 with `Retry-After`. `false` turns
   * it off.
   * @default `{ max: 600, windowMs: 60000 }` per client
   */
  rateLimit?: RateLimitOptions | false;
  /** Limits on 2025-11-25 sessions. */
  sessions?: LegacySessionOptions;
  /** Reports errors the SDK handled out of band (never changes a response). */
  onError?: (error: Error) => void;
}

/** A fetch-style MCP endpoint: mount `fetch` on any runtime, or `app` in a hono app. */
export interface MCPHTTPHandler {
  /** Serves one request. */
  fetch(request: Request, env?: unknown): Promise<Response>;
  /** The hono app behind `fetch`. */
  app: Hono;
  /** Closes every session and in-flight 2026-07-28 exchange. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/**
 * Serves an `MCPServer` over Streamable HTTP, both protocol eras on one endpoint: 2026-07-28
 * requests (stateless, `server/discover`, cache hints, `input_required`) through the SDK's
 * `createMcpHandler`, 2025-11-25 traffic with sessions (`Mcp-Session-Id`) through the SDK's
 * transport. In front: the `Host`/`Origin` checks against DNS rebinding (loopback by default),
 * a per-client rate limit, a body size limit, and optional bearer authentication with
 * `/.well-known/oauth-protected-resource`.
 *
 * @example
 * ```ts
 * const handler = createMCPHTTPHandler(server);
 * export default { fetch: handler.fetch }; // Workers, Bun, Deno
 * ```
 */
export function createMCPHTTPHandler(server: MCPServer, options: MCPHTTPOptions = {}): MCPHTTPHandler {
  const path = options.path ?? "/mcp";
  const maxBody = options.maxRequestBodyBytes ?? DEFAULT_MAX_BODY;
  const allowedHosts =
    options.allowedHosts === false ? undefined : (options.allowedHosts ?? localhostAllowedHostnames());
  const allowedOrigins =
    options.allowedOrigins === false ? undefined : (options.allowedOrigins ?? localhostAllowedOrigins());
  const limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit);
  const rateKey = options.rateLimit === false ? undefined : options.rateLimit?.key;
  const auth = options.auth;
  const metadataUrl = auth ? getOAuthProtectedResourceMetadataUrl(new URL(auth.resource)) : undefined;
  const modern = createMcpHandler(server.factory, {
    legacy: "reject",
    // `server.listChanged()` and `server.resourceUpdated()` reach this handler's listen streams.
    bus: server.eventBus,
    maxRequestBodySize: maxBody,
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  const sessions = new LegacySessions(server.factory, options.sessions);

  const app = new Hono<{ Variables: { authInfo?: AuthInfo } }>();

  // DNS rebinding: a page on another site must not reach a local server through its own name.
  const rebindingCheck = rebindingGuard(allowedHosts, allowedOrigins);
  app.use("*", async (c, next) => {
    const rejected = rebindingCheck(c.req.raw);
    if (rejected) return rejected;
    await next();
  });

  if (auth && metadataUrl) {
    const document = protectedResourceMetadata(auth);
    const metadataPath = new URL(metadataUrl).pathname;
    app.get(metadataPath, (c) => c.json(document));
    if (metadataPath !== "/.well-known/oauth-protected-resource") {
      app.get("/.well-known/oauth-protected-resource", (c) => c.json(document));
    }
  }

  // Only when there is something to check: an empty middleware still costs every request a step.
  const bearer = auth && metadataUrl ? bearerCheck(auth, metadataUrl) : undefined;
  if (bearer || limiter) {
    app.use(path, async (c, next) => {
      if (bearer) {
        const checked = await bearer(c.req.raw);
        if (checked instanceof Response) return checked;
        c.set("authInfo", checked);
      }
      if (limiter) {
        const peer = peerAddress(c.env);
        const key =
          rateKey?.(c.req.raw) ??
          c.get("authInfo")?.clientId ??
          (peer === undefined ? undefined : addressRateKey(peer)) ??
          "anonymous";
        const retryAfter = limiter.take(key);
        if (retryAfter !== undefined) return tooManyRequests(retryAfter);
      }
      await next();
    });
  }

  app.use(path, bodyWithin(maxBody));

  app.all(path, async (c) => {
    const authInfo = c.get("authInfo");
    const read = await readJSONBody(c.req.raw);
    if (read instanceof Response) return read;
    const { request, parsedBody } = read;
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: maxBody })) {
      return sessions.handle(request, { authInfo, parsedBody, remoteAddress: peerAddress(c.env) });
    }
    return modern.fetch(request, {
      ...(authInfo ? { authInfo } : {}),
      ...(parsedBody === undefined ? {} : { parsedBody }),
    });
  });

  return {
    fetch: (request, env) => Promise.resolve(app.fetch(request, env)),
    app: app as unknown as Hono,
    async close() {
      await Promise.all([modern.close(), sessions.close()]);
    },
  };
}

/**
 * The bearer token check of `auth`: a request's verified token, or the 401/403 answer (with the
 * `WWW-Authenticate` challenge naming `metadataUrl`) to send instead.
 */
function bearerCheck(
  auth: MCPHTTPAuthOptions,
  metadataUrl: string,
): (request: Request) => Promise<AuthInfo | Response> {
  const audience = audienceCheck(auth);
  const scopes = auth.requiredScopes ? { requiredScopes: auth.requiredScopes } : {};
  return async (request) => {
    try {
      return await verifyBearerToken(request.headers.get("authorization") ?? undefined, {
        verifier: {
          async verifyAccessToken(token) {
            const info = await auth.verifyToken(token, request);
            if (!info) throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is not valid.");
            audience(info);
            return info;
          },
        },
        resourceMetadataUrl: metadataUrl,
        ...scopes,
      });
    } catch (error) {
      return bearerAuthChallengeResponse(error, { resourceMetadataUrl: metadataUrl, ...scopes });
    }
  };
}

function tooManyRequests(retryAfter: number): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: "Too many requests; slow down." }, id: null },
    { status: 429, headers: { "Retry-After": String(retryAfter) } },
  );
}

/** Refuses a request body over `maxBody` bytes (413, a JSON-RPC error). */
function bodyWithin(maxBody: number): MiddlewareHandler {
  const tooLarge = () =>
    Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: `Request body too large (limit ${maxBody} bytes).` },
        id: null,
      },
      { status: 413 },
    );
  const limitBody = bodyLimit({ maxSize: maxBody, onError: tooLarge });
  return (c, next) => {
    // hono's `bodyLimit` decides a request with a declared length (and no Transfer-Encoding) by
    // that length alone; decided here first, the same way, the body is not turned into a web
    // stream just to be looked at, so @hono/node-server can later read it straight from the socket.
    const headers = c.req.raw.headers;
    const length = headers.get("content-length");
    if (length === null || headers.has("transfer-encoding")) return limitBody(c, next);
    if (Number.parseInt(length || "0", 10) <= maxBody) return next();
    return limitBody(c, next);
  };
}

function protectedResourceMetadata(auth: MCPHTTPAuthOptions): OAuthProtectedResourceMetadata {
  return {
    resource: auth.resource,
    authorization_servers: auth.authorizationServers,
    bearer_methods_supported: ["header"],
    ...(auth.scopesSupported ? { scopes_supported: auth.scopesSupported } : {}),
    ...(auth.resourceName ? { resource_name: auth.resourceName } : {}),
  };
}

/**
 * The audience check on a verified token: its `resource` must be this endpoint's, compared the
 * way the SDK's `verifyBearerToken({ expectedResource })` compares them (as URLs, ignoring a
 * fragment and one trailing slash). Done here rather than through `expectedResource` so a
 * refusal says which of the two problems it is, and so a token without a resource can be let
 * through where the server opted into that.
 */
function audienceCheck(auth: MCPHTTPAuthOptions): (info: AuthInfo) => void {
  const expected = comparableResource(new URL(auth.resource).href);
  return (info) => {
    const reported = info.resource;
    if (reported === undefined) {
      if (auth.acceptTokensWithoutResource) return;
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        `The access token names no audience: the token verifier must report the resource it was issued for (AuthInfo.resource), and this server accepts only tokens for ${auth.resource}.`,
      );
    }
    let actual: string;
    try {
      actual = comparableResource(new URL(String(reported)).href);
    } catch {
      actual = String(reported);
    }
    if (actual !== expected) {
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        `The access token was issued for another resource (${String(reported)}), not for ${auth.resource}.`,
      );
    }
  };
}

/** A resource URL as the SDK compares it: without its fragment and one trailing slash. */
function comparableResource(href: string): string {
  const hash = href.indexOf("#");
  return (hash === -1 ? href : href.slice(0, hash)).replace(/\/$/, "");
}

/** The peer address @hono/node-server reports in `env.incoming`; other runtimes give none here. */
function peerAddress(env: unknown): string | undefined {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

/** How many distinct accepted `Host` (and `Origin`) values the rebinding check remembers. */
const REMEMBERED_HEADERS = 64;

/**
 * The SDK's `Host` and `Origin` checks, remembering the values they accepted: each check is a
 * pure function of the header and the allowlist, and a client sends the same values on every
 * request, so a value is parsed as a URL once rather than on every request. Rejections, and
 * values beyond the first few accepted, always go through the SDK's check.
 */
function rebindingGuard(
  allowedHosts: string[] | undefined,
  allowedOrigins: string[] | undefined,
): (request: Request) => Response | undefined {
  const acceptedHosts = new Set<string>();
  const acceptedOrigins = new Set<string>();
  const remember = (accepted: Set<string>, value: string | null) => {
    if (value !== null && accepted.size < REMEMBERED_HEADERS) accepted.add(value);
  };
  return (request) => {
    if (allowedHosts) {
      const host = request.headers.get("host");
      if (host === null || !acceptedHosts.has(host)) {
        const rejected = hostHeaderValidationResponse(request, allowedHosts);
        if (rejected) return rejected;
        remember(acceptedHosts, host);
      }
    }
    if (allowedOrigins) {
      const origin = request.headers.get("origin");
      if (origin === null || !acceptedOrigins.has(origin)) {
        const rejected = originValidationResponse(request, allowedOrigins);
        if (rejected) return rejected;
        remember(acceptedOrigins, origin);
      }
    }
    return undefined;
  };
}

/**
 * A JSON POST's body, read and parsed once: the SDK's era check (`isLegacyRequest`) and both
 * eras' handlers take it parsed, instead of each cloning the request and reading and parsing
 * the body again. Anything else (another method or content type, a body that is empty or not
 * JSON) goes on as it came, or rebuilt with the same text, for the SDK to answer as it would.
 */
async function readJSONBody(
  request: Request,
): Promise<{ request: Request; parsedBody?: unknown } | Response> {
  if (request.method.toUpperCase() !== "POST" || !isJsonContentType(request.headers.get("content-type"))) {
    return { request };
  }
  let text: string;
  try {
    text = await request.text();
  } catch {
    // What the SDK's entry answers for a body it cannot read.
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32700, message: "Parse error: the request body could not be read" },
        id: null,
      },
      { status: 400 },
    );
  }
  if (text.length > 0) {
    try {
      return { request, parsedBody: JSON.parse(text) };
    } catch {
      // Not JSON: the SDK reads it again from the rebuilt request and answers the parse error.
    }
  }
  return { request: new Request(request, { body: text }) };
}
