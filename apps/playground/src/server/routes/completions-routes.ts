import { Hono } from "hono";
import { completeBody } from "../../shared/api-bodies.js";
import { body, id, type RouteKit } from "./route-kit.js";

/** `/api/servers/:id/complete`: suggestions for a resource template's or a prompt's argument. */
export function completionsRoutes({ context: { registry }, answer }: RouteKit): Hono {
  return new Hono().post("/", id, body(completeBody), async (c) => {
    const { ref, argument } = c.req.valid("json");
    const client = registry.client(c.req.valid("param").id);
    if (!client.capabilities?.completions) return answer(c, { values: [], unsupported: true });
    const completion = await client.complete({
      ref,
      argument: { name: argument.name, value: argument.value ?? "" },
    });
    // Suggestions come from the server: strings only, a bounded number of bounded length.
    return answer(c, {
      values: completion.values
        .filter((value): value is string => typeof value === "string")
        .slice(0, 100)
        .map((value) => value.slice(0, 500)),
      ...(completion.hasMore ? { hasMore: true } : {}),
    });
  });
}
