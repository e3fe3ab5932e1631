import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  addServerBody,
  deferToolsBody,
  emptyBody,
  importServersBody,
  updateServerBody,
} from "../../shared/api-bodies.js";
import { exampleServerEntry, isExampleServer } from "../default-servers.js";
import { body, id, pathIds, type RouteKit } from "./route-kit.js";

/** `/api/servers`: the configured MCP servers, their connections and what they logged. */
export function serversRoutes({ context: { registry }, answer }: RouteKit): Hono {
  return new Hono()
    .get("/", (c) => answer(c, registry.list()))
    .post("/", body(addServerBody), (c) => {
      const { name, config } = c.req.valid("json");
      return answer(c, registry.add(name, config));
    })
    .post("/import", body(importServersBody), (c) => answer(c, registry.import(c.req.valid("json").document)))
    .post("/examples/:example", pathIds("example"), body(emptyBody), (c) => {
      const { example } = c.req.valid("param");
      if (!isExampleServer(example))
        throw new HTTPException(404, { message: `There is no example server ${example}.` });
      return answer(c, registry.add(example, exampleServerEntry(example)));
    })
    .put("/:id", id, body(updateServerBody), (c) => {
      const { name, config, enabled } = c.req.valid("json");
      return answer(c, registry.update(c.req.valid("param").id, { name, config, enabled }));
    })
    .put("/:id/defer-tools", id, body(deferToolsBody), (c) =>
      answer(c, registry.setDeferTools(c.req.valid("param").id, c.req.valid("json").deferTools)),
    )
    .delete("/:id", id, (c) => answer(c, registry.remove(c.req.valid("param").id)))
    .post("/:id/restart", id, body(emptyBody), (c) => answer(c, registry.restart(c.req.valid("param").id)))
    .get("/:id/logs", id, (c) => answer(c, registry.logs(c.req.valid("param").id)))
    .get("/:id/traffic", id, (c) => {
      const since = Number(c.req.query("since") ?? 0);
      return answer(c, registry.traffic(c.req.valid("param").id, Number.isFinite(since) ? since : 0));
    })
    .get("/:id/stderr", id, (c) => answer(c, registry.stderr(c.req.valid("param").id)))
    .post("/:id/ping", id, body(emptyBody), (c) => answer(c, registry.ping(c.req.valid("param").id)));
}
