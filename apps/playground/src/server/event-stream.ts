import type { Context } from "hono";
import { streamSSE } from "hono/streaming";

/** Sends one server-sent event whose data is `data` (one line of JSON, already redacted). */
export type SendEvent = (data: string) => void;

/**
 * The playground's one server-sent-events writer, for the live events of every page
 * (`GET /api/events`) and a chat turn (`POST /api/conversations/:id/messages`).
 *
 * The stream opens with a comment (so the browser sees the stream open at once), then carries
 * what `run` sends, in order, as `data:` frames, and ends when `run` settles. `signal` aborts
 * when the page goes away, so `run` can stop its work.
 */
export function eventStream(
  c: Context,
  run: (send: SendEvent, signal: AbortSignal) => Promise<void>,
): Response {
  return streamSSE(c, async (stream) => {
    const gone = new AbortController();
    stream.onAbort(() => gone.abort());
    // Writes are queued so events keep their order; a write to a page that went away is dropped
    // by hono's stream (the page no longer reads), which is why a send never throws.
    let written: Promise<unknown> = stream.write(": connected\n\n");
    const send: SendEvent = (data) => {
      written = written.then(() => stream.writeSSE({ data }));
    };
    try {
      await run(send, gone.signal);
    } finally {
      await written;
    }
  });
}
