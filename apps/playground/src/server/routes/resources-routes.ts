import { JunctionError } from "@junction/types";
import { Hono } from "hono";
import { readResourceBody } from "../../shared/api-bodies.js";
import { body, id, type RouteKit } from "./route-kit.js";

/** `/api/servers/:id/resources`: a server's resources and templates, and reading one. */
export function resourcesRoutes({ context: { registry }, answer }: RouteKit): Hono {
  return new Hono()
    .get("/", id, async (c) => {
      const client = registry.client(c.req.valid("param").id);
      if (!client.capabilities?.resources) return answer(c, { resources: [], templates: [] });
      const [resources, templates] = await Promise.all([
        client.listResources(),
        // resources/templates/list is optional: a server without it (-32601) has no templates.
        client.listResourceTemplates().catch((error: unknown) => {
          if (JunctionError.isInstance(error) && error.jsonRPCCode === -32601) return [];
          throw error;
        }),
      ]);
      return answer(c, { resources, templates });
    })
    .post("/read", id, body(readResourceBody), (c) =>
      answer(c, registry.client(c.req.valid("param").id).readResource(c.req.valid("json").uri)),
    );
}
