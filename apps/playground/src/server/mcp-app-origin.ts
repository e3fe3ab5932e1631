import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppDocument } from "./mcp-apps.js";
import { allowedHosts } from "./security.js";

/** What the app origin serves for anything but a document it may hand out. */
const refusalHeaders = {
  "content-type": "text/plain; charset=utf-8",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "cross-origin-resource-policy": "same-origin",
};

const documentPath = /^\/([A-Za-z0-9_-]{32})$/;

/** The app origin: a loopback listener of its own that serves MCP App documents and nothing else. */
export interface AppOriginServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the app origin: a second loopback listener (same host, its own port, so a different
 * origin from the playground's page and API) that serves each MCP App document once, into an
 * iframe, and nothing else: no API, no page, no token accepted or needed. It checks its own Host
 * (DNS rebinding), refuses any request carrying an Origin (a `fetch` from an app, whose origin
 * is opaque, always does; a frame's navigation does not), any request the browser says is not
 * for an iframe or comes from another site (an app's own frames are cross-site: their origin is
 * opaque), and serves the document with the app's CSP, whose `frame-ancestors` is the page
 * that opened it.
 */
export async function startAppOrigin(options: {
  host: string;
  takeDocument(id: string): AppDocument | undefined;
}): Promise<AppOriginServer> {
  let port = 0;
  const server = createServer((request, response) => {
    const refusal = refusalOf(request, port, options.host);
    if (refusal) {
      refuse(response, refusal.status, refusal.message);
      return;
    }
    const id = documentPath.exec(new URL(request.url ?? "/", "http://localhost").pathname)?.[1];
    const document = id === undefined ? undefined : options.takeDocument(id);
    if (!document) {
      refuse(response, 404, "No such app document: each is served once, into the frame that opened it.");
      return;
    }
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": document.cspHeader,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "cross-origin-resource-policy": "same-origin",
    });
    response.end(document.html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function refusalOf(
  request: IncomingMessage,
  port: number,
  host: string,
): { status: 403 | 404 | 405; message: string } | undefined {
  const hostHeader = request.headers.host?.toLowerCase();
  if (!hostHeader || !allowedHosts(port, host).has(hostHeader)) {
    return {
      status: 403,
      message: `Refused: the Host header ${JSON.stringify(request.headers.host ?? "")} is not this server.`,
    };
  }
  if (request.method !== "GET")
    return { status: 405, message: "The app origin serves documents only (GET)." };
  if (request.headers.origin !== undefined) {
    return { status: 403, message: "Refused: the app origin serves frames, not fetches." };
  }
  const destination = request.headers["sec-fetch-dest"];
  if (destination !== undefined && destination !== "iframe") {
    return { status: 404, message: "Refused: an app document loads only into its frame." };
  }
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-site") {
    return { status: 403, message: "Refused: only the playground's page opens app documents." };
  }
  return undefined;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, refusalHeaders);
  response.end(message);
}
