import { Hono } from "hono";
import { serveBody } from "../../shared/api-bodies.js";
import { body, type RouteKit } from "./route-kit.js";

/** `/api/serve`: the playground's own MCP endpoint: on or off (kept), its URL and token, clients and calls. */
export function serveRoutes({ context: { endpoint }, answer }: RouteKit): Hono {
  return new Hono()
    .get("/", (c) => answer(c, endpoint.statusWithTools()))
    .put("/", body(serveBody), (c) => answer(c, endpoint.setEnabled(c.req.valid("json").enabled)));
}
