// An HTTP/2 (h2c) load balancer on a loopback port, for the tests that run Restate workers
// behind one deployment URL, as a production setup puts them behind a load balancer that speaks
// HTTP/2. Each incoming stream (one invocation) goes to the next upstream in turn, skipping one
// that failed in the last second; a stream whose upstream dies is reset, and the Restate server
// retries the invocation (which then goes to another upstream). The balancer holds its port for
// as long as it runs, so a worker started again (on a port of its own) is behind the same URL:
// no test gives a port back and hopes to get it again. Never imported by shipped code.
import {
  type ClientHttp2Session,
  connect,
  constants,
  createServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from "node:http2";

/** A running balancer: its URL (register it as the deployment), and how to stop it. */
export interface Http2Balancer {
  readonly url: string;
  /** How many streams went to each upstream, by URL. */
  readonly routed: Map<string, number>;
  /** The upstreams from now on (a stream with none is reset, as if every worker were down). */
  setUpstreams(upstreams: string[]): void;
  stop(): Promise<void>;
}

/** Starts a balancer in front of `upstreams` (the workers' endpoint URLs, `http://127.0.0.1:<port>`). */
export async function startHttp2Balancer(initial: string[] = []): Promise<Http2Balancer> {
  let upstreams = [...initial];
  const sessions = new Map<string, ClientHttp2Session>();
  const failedAt = new Map<string, number>();
  const routed = new Map<string, number>();
  let next = 0;
  const session = (upstream: string) => {
    const existing = sessions.get(upstream);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const created = connect(upstream);
    const forget = () => {
      if (sessions.get(upstream) === created) sessions.delete(upstream);
    };
    created.on("error", () => {
      failedAt.set(upstream, Date.now());
      forget();
    });
    created.on("close", forget);
    sessions.set(upstream, created);
    return created;
  };
  const pick = (): string | undefined => {
    for (let tries = 0; tries < upstreams.length; tries++) {
      const upstream = upstreams[next++ % upstreams.length]!;
      if (Date.now() - (failedAt.get(upstream) ?? 0) > 1000) return upstream;
    }
    return upstreams.length === 0 ? undefined : upstreams[next++ % upstreams.length];
  };
  const server = createServer();
  server.on("stream", (stream, headers: IncomingHttpHeaders) => {
    const upstream = pick();
    stream.on("error", () => undefined); // the peer gone: nothing to answer
    if (upstream === undefined) {
      // No worker is up: what a load balancer with no healthy upstream answers.
      stream.respond({ ":status": 503 }, { endStream: true });
      return;
    }
    routed.set(upstream, (routed.get(upstream) ?? 0) + 1);
    const forwarded: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
      if (name === ":authority" || name === ":scheme") continue;
      forwarded[name] = value;
    }
    const reset = () => {
      if (!stream.destroyed) stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    };
    let request: ReturnType<ClientHttp2Session["request"]>;
    try {
      request = session(upstream).request(forwarded);
    } catch {
      failedAt.set(upstream, Date.now());
      reset();
      return;
    }
    request.on("response", (responseHeaders) => {
      const answer: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(responseHeaders)) {
        if (name.startsWith(":") && name !== ":status") continue;
        answer[name] = value;
      }
      if (!stream.headersSent && !stream.destroyed) stream.respond(answer);
      request.pipe(stream);
    });
    request.on("error", () => {
      failedAt.set(upstream, Date.now());
      reset();
    });
    stream.on("error", () => request.close(constants.NGHTTP2_CANCEL));
    stream.on("close", () => {
      if (!request.closed) request.close(constants.NGHTTP2_CANCEL);
    });
    stream.pipe(request);
  });
  server.on("sessionError", () => undefined); // a peer gone mid-session: its streams are reset
  // Port 0: the kernel's pick, bound at once (a port looked up first could be taken meanwhile).
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    setUpstreams: (next) => {
      upstreams = [...next];
      for (const [upstream, open] of sessions) {
        if (!upstreams.includes(upstream)) {
          open.destroy();
          sessions.delete(upstream);
        }
      }
    },
    stop: async () => {
      for (const open of sessions.values()) open.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
