// The lean transport's requests over node:http(s) with a keep-alive Agent of its own (loaded only
// by the "node" entry). A pool per transport: no cap on sockets, so eight parallel calls use eight
// connections and none waits behind another's answer (no pipelining, no head-of-line blocking);
// idle sockets are kept (unreferenced, so they never hold the process open) and reused LIFO.
// Through the modules' objects, not named imports: an interceptor that patches `http.request`
// (nock, msw) sees these requests as it sees fetch's.
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { HttpAnswer, HttpExchange, HttpExchangeInit, OwnedHttpExchange } from "./http-exchange.js";

/**
 * How long an idle kept-alive socket is kept: under the 5 s keep-alive timeout of Node's own
 * HTTP server (and most servers built on it), so the server rarely closes one we are about to use.
 */
const IDLE_SOCKET_MS = 4_000;

/** Where fetch keeps the dispatcher `setGlobalDispatcher()` installs (Node's and npm's undici). */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/**
 * Whether HTTP in this process is routed somewhere node:http would not follow: a proxy taken from
 * the environment (`NODE_USE_ENV_PROXY`), or an undici dispatcher installed with
 * `setGlobalDispatcher()` other than a plain `Agent` (a `ProxyAgent`, `EnvHttpProxyAgent`,
 * `MockAgent`, …). Then the transport keeps to fetch, so every request goes the same way.
 */
export function httpRoutedElsewhere(
  env: Record<string, string | undefined> = process.env,
  scope: object = globalThis,
): boolean {
  const useEnvProxy = env.NODE_USE_ENV_PROXY;
  if (useEnvProxy !== undefined && useEnvProxy !== "" && useEnvProxy !== "0") return true;
  const dispatcher = (scope as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  if (dispatcher === undefined) return false;
  return (dispatcher as { constructor?: { name?: string } }).constructor?.name !== "Agent";
}

/** A node:http(s) client with keep-alive pools of its own, or `undefined` when fetch should be used. */
export function createNodeHttpExchange(): OwnedHttpExchange | undefined {
  if (httpRoutedElsewhere()) return undefined;
  // An idle socket is retired after IDLE_SOCKET_MS (or sooner, when the server's `Keep-Alive:
  // timeout=` hint says so), before the keep-alive timeout of most servers ends it from their side:
  // a request is then rarely sent on a connection the server is closing, and the one that is gets
  // sent again only when that is harmless (`repeatable`).
  const plain = new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
  const secure = new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
  // A request that may act is never sent twice, so it must not go out on a kept-alive connection
  // the server has already closed: it first lets the event loop take in what arrived meanwhile
  // (one more poll for I/O, in which a server's FIN or reset takes an idle socket out of the pool).
  const exchange: HttpExchange = (url, init) =>
    init.repeatable ? send(url, init, true) : afterArrivals().then(() => send(url, init, false));
  const send = (url: URL, init: HttpExchangeInit, mayRetry: boolean) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      const isSecure = url.protocol === "https:";
      const { signal } = init;
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const request = (isSecure ? https : http).request(
        url,
        { method: init.method, headers: init.headers, agent: isSecure ? secure : plain },
        (response) => resolve(nodeAnswer(response)),
      );
      // Not node:http's own `signal` option: that destroys the request with an AbortError which,
      // once the answer has begun, also reaches the socket's listeners and surfaces uncaught.
      // Destroyed without an error, the request ends quietly and a body being read ends early.
      const abort = () => request.destroy();
      signal.addEventListener("abort", abort, { once: true });
      request.on("close", () => signal.removeEventListener("abort", abort));
      let answered = false;
      request.on("response", () => {
        answered = true;
      });
      request.on("error", (error) => {
        if (signal.aborted) return reject(signal.reason);
        // A kept-alive connection the server closed just before this request went out on it (its
        // close not yet seen here): a request that is harmless to repeat goes again, once, on a
        // new connection, as Node's documentation advises (`request.reusedSocket`). Anything else
        // fails: a server (or a proxy) that resets after reading the request may have run it.
        const code = (error as { code?: unknown }).code;
        if (mayRetry && !answered && request.reusedSocket && (code === "ECONNRESET" || code === "EPIPE")) {
          signal.removeEventListener("abort", abort);
          resolve(send(url, init, false));
          return;
        }
        reject(error);
      });
      // Fetch sends one too; some servers and gateways refuse a request without.
      if (!("user-agent" in init.headers)) request.setHeader("user-agent", "node");
      // The whole body in `end()`: node:http sends it with a Content-Length, not chunked.
      request.end(init.body);
    });
  return {
    exchange,
    close() {
      plain.destroy();
      secure.destroy();
    },
  };
}

/**
 * Resolves after the event loop has polled for I/O once more: closes that already arrived are
 * seen. (One `setImmediate` from within the poll phase runs before the next poll; the second,
 * queued from the check phase, runs after it.)
 */
function afterArrivals(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

function nodeAnswer(response: IncomingMessage): HttpAnswer {
  response.setEncoding("utf8");
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    header(name) {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
    text: () =>
      new Promise<string>((resolve, reject) => {
        let text = "";
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve(text));
        response.on("error", reject);
        // A connection that closes before the body is complete, without an error of its own.
        response.on("close", () => {
          if (!response.complete) reject(new Error("The server closed the connection before the body ended"));
        });
      }),
    chunks: () => response as AsyncIterable<string>,
  };
}
