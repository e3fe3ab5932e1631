import { Hono } from "hono";
import { getPromptBody } from "../../shared/api-bodies.js";
import { body, id, type RouteKit } from "./route-kit.js";

/** `/api/servers/:id/prompts`: a server's prompts, and getting one with its arguments. */
export function promptsRoutes({ context: { registry }, answer }: RouteKit): Hono {
  return new Hono()
    .get("/", id, (c) => {
      const client = registry.client(c.req.valid("param").id);
      return answer(c, client.capabilities?.prompts ? client.listPrompts() : []);
    })
    .post("/get", id, body(getPromptBody), (c) => {
      const { name, arguments: args } = c.req.valid("json");
      return answer(c, registry.client(c.req.valid("param").id).getPrompt(name, args ?? {}));
    });
}
