import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { capDepth, MAXIMUM_DEPTH } from "./output-limits.js";

/** The largest JSON answer the API sends; a server's bigger answer is an error, not a hang. */
const maximumAnswerBytes = 16 * 1024 * 1024;

/**
 * The API's JSON answer: cut below {@link capDepth}'s depth (so serialising can never fail
 * half-way), refused past {@link maximumAnswerBytes}, and with every expanded secret redacted.
 */
export function jsonAnswer(
  c: Context,
  answer: { body: unknown; status?: number; redact: (text: string) => string },
): Response {
  let status = answer.status ?? 200;
  // Deeper than any result is cut to (MAXIMUM_DEPTH), so a cut result keeps its own note.
  let text = JSON.stringify(capDepth(answer.body, MAXIMUM_DEPTH * 2).value) ?? "null";
  if (text.length > maximumAnswerBytes) {
    status = 502;
    text = JSON.stringify({
      error: `The answer is ${(text.length / 1024 / 1024).toFixed(1)} MB, more than the page takes (${maximumAnswerBytes / 1024 / 1024} MB).`,
    });
  }
  return c.body(answer.redact(text), status as ContentfulStatusCode, {
    "content-type": "application/json; charset=utf-8",
  });
}
