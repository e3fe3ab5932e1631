import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { callToolBody } from "../../shared/api-bodies.js";
import { capToolResult } from "../output-limits.js";
import { checkToolArguments } from "../tool-arguments.js";
import { body, id, type RouteKit } from "./route-kit.js";

/** `/api/servers/:id/tools`: a server's tools, and the inspector's call of one. */
export function toolsRoutes({ context: { registry }, answer }: RouteKit): Hono {
  return new Hono()
    .get("/", id, (c) => answer(c, registry.client(c.req.valid("param").id).listToolDefinitions()))
    .post("/call", id, body(callToolBody), async (c) => {
      const { id } = c.req.valid("param");
      const { name, arguments: input } = c.req.valid("json");
      const client = registry.client(id);
      const definition = (await client.listToolDefinitions()).find((tool) => tool.name === name);
      if (!definition) {
        throw new HTTPException(404, {
          message: `Server ${registry.status(id).name} has no tool named ${name}.`,
        });
      }
      const args = await checkToolArguments(name, definition.inputSchema, input ?? {});
      const started = performance.now();
      // The page going away (or its Cancel) before the answer cancels the call: the server gets
      // notifications/cancelled. Only then: the connection also closes once answered, and an
      // abort after that must not reach the client (it would cut short a restart under way).
      const cancelled = new AbortController();
      let answered = false;
      c.req.raw.signal.addEventListener("abort", () => {
        if (!answered) cancelled.abort();
      });
      let called: Awaited<ReturnType<typeof client.callTool>>;
      try {
        called = await client.callTool(name, args, { signal: cancelled.signal });
      } finally {
        answered = true;
      }
      const { result, truncated } = capToolResult(called);
      return answer(c, {
        result,
        durationMs: Math.round(performance.now() - started),
        ...(truncated ? { truncated } : {}),
      });
    });
}
