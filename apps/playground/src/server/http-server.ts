import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { errorMessage, JunctionError } from "@junction/types";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { type AppContext, apiRoutes } from "./api-routes.js";
import { jsonAnswer } from "./json-answer.js";
import { startAppOrigin } from "./mcp-app-origin.js";
import { viewFrameSource } from "./mcp-app-proxy.js";
import { checkRequest, isLoopbackAddress } from "./security.js";

export type { AppContext } from "./api-routes.js";

/** The page's CSP; `frameSource` is the app origin as this page reaches it (apps are framed from there only). */
const pageCsp = (frameSource: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; frame-src ${frameSource}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

const securityHeaders = {
  "content-security-policy": pageCsp("'none'"),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** The page's files: served without the token (the page loads them before it can send one). */
const staticFiles: Record<string, { file: string; type: string }> = {
  "/assets/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/assets/styles.css": { file: "styles.css", type: "text/css; charset=utf-8" },
  "/assets/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
};

/** The Hono app of the playground's own origin, with the Node request and response as bindings. */
type PlaygroundEnv = { Bindings: HttpBindings };

/**
 * Starts the playground's web server on loopback: a Hono app on Node's HTTP server. Every API
 * call needs the per-run token, and every request must name this server in Host (and Origin,
 * when the browser sends one). MCP App documents come from a second listener, the app origin
 * (see mcp-app-origin.ts): this origin never serves a server's HTML.
 */
export async function startHttpServer(
  context: AppContext,
  options: { host?: string; port?: number; token: string; uiDirectory?: string },
): Promise<{
  server: Server;
  url: string;
  port: number;
  /** The app origin's listener: MCP App documents only. */
  appServer: Server;
  appPort: number;
  close(): Promise<void>;
}> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackAddress(host)) {
    throw new JunctionError(
      "invalid-argument",
      `The playground listens on loopback only; ${host} is not a loopback address.`,
    );
  }
  const uiDirectory = options.uiDirectory ?? fileURLToPath(new URL("../../dist/ui/", import.meta.url));
  const appOrigin = await startAppOrigin({
    // Browsers resolve `<label>.localhost` to 127.0.0.1 or ::1: the app origin listens there.
    host: host === "::1" ? "::1" : "127.0.0.1",
    takeDocument: (id, request) => context.apps.takeDocument(id, request),
  });
  const redact = (text: string) => context.registry.redactText(text);
  let port = 0;

  const app = new Hono<PlaygroundEnv>();
  app.use(async (c, next) => {
    // Checked on Node's own request, before anything else reads it (CVE-2025-49596).
    const incoming = c.env.incoming;
    const path = c.req.path;
    const refusal = checkRequest(incoming, {
      port,
      host,
      token: options.token,
      requireToken: !(c.req.method === "GET" && path in staticFiles),
    });
    if (refusal) {
      c.res = path.startsWith("/api/")
        ? jsonAnswer(c, { body: { error: refusal.message }, status: refusal.status, redact })
        : c.text(refusal.message, refusal.status);
    } else {
      await next();
    }
    for (const [name, value] of Object.entries(securityHeaders)) c.res.headers.set(name, value);
    // Host is one of this server's names now: the page may frame the app origin under that name.
    if (!refusal) c.res.headers.set("content-security-policy", pageCsp(viewFrameSource(appOrigin.port)));
  });
  app.get("/", async (c) => c.html(await readFile(`${uiDirectory}/index.html`, "utf8")));
  for (const [path, asset] of Object.entries(staticFiles)) {
    app.get(path, async (c) =>
      c.body(await readFile(`${uiDirectory}/${asset.file}`), 200, { "content-type": asset.type }),
    );
  }
  app.route("/api", apiRoutes(context, { appPort: appOrigin.port, redact }));
  app.notFound((c) =>
    jsonAnswer(c, {
      body: { error: `No such endpoint: ${c.req.method} ${c.req.path}` },
      status: 404,
      redact,
    }),
  );
  app.onError((error, c) =>
    jsonAnswer(c, { body: { error: errorMessage(error) }, status: statusOf(error), redact }),
  );

  const server = createServer(
    getRequestListener(app.fetch, {
      // A request Node accepted but whose Host or URL cannot make a URL is refused like any foreign Host.
      errorHandler: () =>
        new Response("Refused: the request's Host or URL is not this server's.", {
          status: 403,
          headers: { ...securityHeaders, "content-type": "text/plain; charset=utf-8" },
        }),
    }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    await appOrigin.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    appServer: appOrigin.server,
    appPort: appOrigin.port,
    close: async () => {
      await new Promise<void>((resolve) => {
        context.hub.close();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await appOrigin.close();
    },
  };
}

/** An error's HTTP status: its own for an HTTP error, else what its Junction code means. */
function statusOf(error: unknown): number {
  if (error instanceof HTTPException) return error.status;
  if (!JunctionError.isInstance(error)) return 500;
  switch (error.code) {
    case "invalid-argument":
    case "mcp-config-invalid":
    case "tool-input-invalid":
      return 400;
    case "tool-not-found":
      return 404;
    // A stored run state that was changed, or not signed by this playground.
    case "run-state-invalid":
      return 409;
    case "mcp-not-connected":
    case "mcp-connect-failed":
    case "mcp-connection-closed":
      return 503;
    case "mcp-timeout":
      return 504;
    default:
      return 502;
  }
}
