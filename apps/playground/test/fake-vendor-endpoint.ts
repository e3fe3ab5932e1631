import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage } from "@junction/types";

/** A request a {@link FakeVendorEndpoint} received, its JSON body parsed. */
export interface RecordedRequest {
  method: string;
  /** The path with its query, for example `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A local stand-in for a vendor's API, for tests. */
export interface FakeVendorEndpoint {
  /** For example `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on a free loopback port that records every request and streams back
 * the server-sent-event frames `answer` returns for it, written one by one as the vendor would.
 * The vendor's real SDK, inside a provider package, is the client.
 */
export async function startFakeVendorEndpoint(
  answer: (request: RecordedRequest) => string[],
): Promise<FakeVendorEndpoint> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (incoming, response) => {
    let text = "";
    for await (const part of incoming) text += part;
    const request: RecordedRequest = {
      method: incoming.method ?? "GET",
      path: incoming.url ?? "/",
      headers: incoming.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(request);
    let frames: string[];
    try {
      frames = answer(request);
    } catch (error) {
      // A request the fake did not expect: say why, in the error the SDK reports.
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `fake endpoint: ${errorMessage(error)}` } }));
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const frame of frames) response.write(frame);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One server-sent event as the vendors frame it: an `event:` line when named, then the JSON data. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}
