import { Hono } from "hono";
import { id, type RouteKit } from "./route-kit.js";

/** `/api/traces`: a chat turn's trace, for the page's waterfall: names, timings, tokens and errors, no content. */
export function tracesRoutes({ context: { traces }, answer }: RouteKit): Hono {
  return new Hono().get("/:id", id, (c) => answer(c, traces.trace(c.req.valid("param").id)));
}
