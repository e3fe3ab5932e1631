import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppDocument, DocumentRequest } from "./mcp-apps.js";
import { isLoopbackAddress } from "./security.js";

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

/** The one-label host name of an app's origin under `.localhost` (see `viewOriginOf`). */
const viewHostPattern = /^([a-z0-9]{32})\.localhost:(\d{1,5})$/;

/**
 * Starts the app origin: a second loopback listener (its own port, and for each app a host name
 * of its own, `<label>.localhost`, so an origin apart from the playground's page, its API and
 * every other app) that serves each app's sandbox proxy document once, into an iframe, and
 * nothing else: no API, no page, no token accepted or needed. It checks its own Host (DNS
 * rebinding: only `<label>.localhost` names on its port), refuses any request carrying an Origin
 * (a `fetch` does; a frame's navigation does not) or that the browser says is not for an iframe,
 * and hands the document only for its own label and to a frame whose Referer is the page that
 * opened it (the page frames with `referrerpolicy="origin"`; a frame opened by an app carries its
 * own origin, or none). The document's CSP has `frame-ancestors` set to that page.
 */
export async function startAppOrigin(options: {
  host: string;
  takeDocument(id: string, request: DocumentRequest): AppDocument | undefined;
}): Promise<AppOriginServer> {
  let port = 0;
  const server = createServer((request, response) => {
    const refusal = refusalOf(request, port);
    if ("status" in refusal) {
      refuse(response, refusal.status, refusal.message);
      return;
    }
    const id = documentPath.exec(new URL(request.url ?? "/", "http://localhost").pathname)?.[1];
    const document =
      id === undefined
        ? undefined
        : options.takeDocument(id, { label: refusal.label, referer: request.headers.referer });
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
  if (!isLoopbackAddress(options.host))
    throw new Error(`The app origin listens on loopback only, not ${options.host}.`);
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
): { status: 403 | 404 | 405; message: string } | { label: string } {
  const hostHeader = request.headers.host?.toLowerCase() ?? "";
  const view = viewHostPattern.exec(hostHeader);
  if (!view || Number(view[2]) !== port) {
    return {
      status: 403,
      message: `Refused: the Host header ${JSON.stringify(request.headers.host ?? "")} is not an app origin of this server.`,
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
  return { label: view[1]! };
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, refusalHeaders);
  response.end(message);
}
