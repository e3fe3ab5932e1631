import { Hono } from "hono";
import { emptyBody } from "../../shared/api-bodies.js";
import { body, pathIds, type RouteKit } from "./route-kit.js";

/** `/api/runs`: the runs in progress; stopping one. */
export function runsRoutes({ context: { chat }, answer }: RouteKit): Hono {
  return new Hono().post("/:runId/stop", pathIds("runId"), body(emptyBody), (c) => {
    chat.stop(c.req.valid("param").runId);
    return answer(c, undefined);
  });
}
