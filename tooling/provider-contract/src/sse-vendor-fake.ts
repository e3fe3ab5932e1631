import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type RecordedRequest, startWireFake, type WireReply } from "@junction/wire-fake";
import type { HeldStream, ScriptContext, ScriptedReply, VendorFake } from "./vendor-adapter.ts";

/** Renders a neutral reply in one vendor's HTTP + SSE wire format. */
export type RenderSSEReply = (reply: ScriptedReply, context: ScriptContext) => WireReply;

/**
 * The context for scripting an answer to `request`: the vendor's name for each real tool, read from
 * the request (tools are declared in the order the suite gave them).
 */
export function scriptContext(
  request: RecordedRequest,
  toolNames: (body: unknown) => string[],
  realNames: readonly string[],
): ScriptContext {
  const vendorNames = request.body === undefined ? [] : toolNames(request.body);
  return {
    vendorToolName(name) {
      const index = realNames.indexOf(name);
      return vendorNames[index] ?? name;
    },
  };
}

/**
 * A {@link VendorFake} for a vendor that speaks HTTP + SSE, on `@junction/wire-fake`: each neutral
 * reply is rendered when its request arrives, so tool names follow what the request declared.
 */
export async function startSSEVendorFake(options: {
  render: RenderSSEReply;
  toolNames: (body: unknown) => string[];
  /** The path the SDK's base URL needs after the fake's origin, for example `/v1`. */
  basePath?: string;
}): Promise<VendorFake> {
  const fake = await startWireFake();
  return {
    url: `${fake.url}${options.basePath ?? ""}`,
    requests: fake.requests,
    enqueue: (...replies) =>
      fake.enqueue(
        ...replies.map(
          (reply) => (request: RecordedRequest) =>
            options.render(
              reply,
              scriptContext(request, options.toolNames, reply.kind === "turn" ? (reply.tools ?? []) : []),
            ),
        ),
      ),
    close: () => fake.close(),
  };
}

/**
 * A {@link HeldStream} for an SSE vendor: a server that answers the first request with `chunks`
 * up to and including the first one containing `marker` (the first text delta), then keeps the
 * response open and notes when the client closes it. The wire fake cannot report that, so this
 * one small server does.
 */
export async function startHeldSSEStream(options: {
  chunks: string[];
  marker: string;
  basePath?: string;
}): Promise<HeldStream> {
  const requests: RecordedRequest[] = [];
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const last = options.chunks.findIndex((chunk) => chunk.includes(options.marker));
  const opening = options.chunks.slice(0, last + 1);
  const server = createServer(async (req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString("utf8");
    requests.push({
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      text,
      body: parseJSON(text),
    });
    res.on("close", () => markClosed());
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const chunk of opening) res.write(chunk);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.basePath ?? ""}`,
    requests,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJSON(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
