// One HTTP request and its answer, as the lean Streamable HTTP transport needs them, over fetch or
// (under the package's "node" entry) over node:http. Fetch in Node.js is undici behind the WHATWG
// layer: a Request, a Headers, a Response and a web ReadableStream per request, about 400 µs of
// CPU per loopback call here against about 160 µs for the same POST through node:http with a
// keep-alive Agent (bench/results/http-profile.md). This module is runtime-neutral: the node:http
// half lives in node-http-exchange.ts and is handed in by node.ts.

/** What one request sends. */
export interface HttpExchangeInit {
  method: "POST" | "GET";
  /** Lower-case names. Not modified. */
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /**
   * Whether sending the request a second time is harmless: a GET, or a POST of requests that only
   * read (see `isRepeatable` in streamable-http-transport.ts). Only such a request is sent again
   * when a kept-alive connection fails under it; anything that may act (`tools/call`, an answer to
   * a server's request) never is, since the server may have read and run it (RFC 9110 §9.2.2).
   */
  repeatable: boolean;
}

/** The answer to one request: its status and headers, then its body read once, whole or as it arrives. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  /** A response header (any case), or `null` when absent. */
  header(name: string): string | null;
  /** The whole body as text. */
  text(): Promise<string>;
  /** The body as UTF-8 text, chunk by chunk as it arrives. */
  chunks(): AsyncIterable<string>;
}

/** Sends one request (no redirects followed) and resolves when the answer's headers are in. */
export type HttpExchange = (url: URL, init: HttpExchangeInit) => Promise<HttpAnswer>;

/** The node:http client a transport owns (its own keep-alive pool), closed with the transport. */
export interface OwnedHttpExchange {
  exchange: HttpExchange;
  /** Ends the pool's sockets. */
  close(): void;
}

/**
 * Loads the node:http module on first use (the package's import stays as light as without it) and
 * makes an {@link OwnedHttpExchange}, or `undefined` where this process should use fetch.
 */
export type OwnedHttpExchangeLoader = () => Promise<OwnedHttpExchange | undefined>;

// Set by the package's "node" entry; unset in the default entry, which uses fetch everywhere.
let loadNodeExchange: OwnedHttpExchangeLoader | undefined;

/** Called once by the "node" entry: from then on HTTP transports may send through node:http. */
export function provideNodeHttpExchange(loader: OwnedHttpExchangeLoader): void {
  loadNodeExchange = loader;
}

/**
 * A node:http client for one transport, when this is the "node" entry and nothing in the process
 * asks that HTTP go elsewhere (see `node-http-exchange.ts`); else `undefined`.
 */
export async function ownNodeHttpExchange(): Promise<OwnedHttpExchange | undefined> {
  return loadNodeExchange?.();
}

/** The global fetch as the process started with it, to tell when someone has replaced it since. */
export const startupFetch: typeof fetch | undefined = globalThis.fetch;

/** An {@link HttpExchange} over a fetch function. */
export function fetchExchange(fetchImpl: typeof fetch): HttpExchange {
  return async (url, init) => {
    const response = await fetchImpl(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: init.signal,
      // A redirect goes to the SDK's transport, which applies its redirect policy.
      redirect: "manual",
    });
    return {
      status: response.status,
      statusText: response.statusText,
      header: (name) => response.headers.get(name),
      text: () => response.text(),
      chunks: () => responseChunks(response),
    };
  };
}

async function* responseChunks(response: Response): AsyncGenerator<string> {
  const body = response.body;
  if (!body) return;
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    reader.releaseLock();
  }
}
