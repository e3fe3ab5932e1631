// Serves a web-standard fetch handler (the v2 SDK server's createMcpHandler) over node:http on
// 127.0.0.1, prints "listening <port>" once bound, and ends cleanly on SIGTERM. Shared by the
// test servers and the bench's modern echo server.
import { createServer } from "node:http";
import { Readable } from "node:stream";

/**
 * @param {(request: Request) => Promise<Response>} fetchHandler
 * @param {{ port?: number, onBody?: (body: Buffer) => void }} [options] onBody sees each raw request body first
 */
export function serveFetchHandler(fetchHandler, options = {}) {
  const http = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      options.onBody?.(body);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
        method: req.method,
        headers,
        ...(body.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
      });
      const response = await fetchHandler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) Readable.fromWeb(response.body).pipe(res);
      else res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  http.listen(options.port ?? 0, "127.0.0.1", () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
  return http;
}
