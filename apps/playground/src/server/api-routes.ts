import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { jsonAnswer } from "./json-answer.js";
import { openAppsRoutes, serverAppsRoutes } from "./routes/apps-routes.js";
import { completionsRoutes } from "./routes/completions-routes.js";
import { conversationsRoutes } from "./routes/conversations-routes.js";
import { elicitationsRoutes } from "./routes/elicitations-routes.js";
import { promptsRoutes } from "./routes/prompts-routes.js";
import { resourcesRoutes } from "./routes/resources-routes.js";
import type { AppContext, RouteKit } from "./routes/route-kit.js";
import { runsRoutes } from "./routes/runs-routes.js";
import { serveRoutes } from "./routes/serve-routes.js";
import { serversRoutes } from "./routes/servers-routes.js";
import { stateRoutes } from "./routes/state-routes.js";
import { toolsRoutes } from "./routes/tools-routes.js";
import { tracesRoutes } from "./routes/traces-routes.js";

export type { AppContext } from "./routes/route-kit.js";

const maximumBodyBytes = 8 * 1024 * 1024;

/**
 * The JSON API under `/api`, one sub-app per resource (each in `routes/`): the page's state and
 * settings, servers and what the inspector asks of them (tools, resources, prompts, completions,
 * MCP Apps), elicitations, conversations and their runs, the served endpoint, traces. Every body
 * is JSON checked by its schema in `shared/api-bodies.ts`. A handler returns its answer
 * (`{ ok: true }` when it has none) or throws: an `HTTPException` with its own status, or a
 * `JunctionError` whose code gives the status.
 */
export function apiRoutes(
  context: AppContext,
  options: {
    /** The app origin listener's port (each app's origin is a `.localhost` name on it). */
    appPort: number;
    redact(text: string): string;
  },
): Hono {
  const { redact } = options;
  const kit: RouteKit = {
    context,
    redact,
    answer: async (c: Context, body: unknown) =>
      jsonAnswer(c, { body: (await body) ?? { ok: true }, redact }),
    pageOf: (c: Context) => {
      const host = c.req.header("host")?.toLowerCase() ?? "";
      return { pageOrigin: `http://${host}`, appPort: options.appPort };
    },
  };

  const api = new Hono();
  api.use(async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "DELETE") {
      // No form posts: a browser sends JSON cross-origin only after a preflight this server never answers.
      if (!(c.req.header("content-type") ?? "").startsWith("application/json"))
        throw new HTTPException(415, { message: "Send JSON with content-type application/json." });
    }
    await next();
  });
  api.use(
    bodyLimit({
      maxSize: maximumBodyBytes,
      onError: () => {
        throw new HTTPException(413, { message: "The request body is larger than 8 MB." });
      },
    }),
  );
  return api
    .route("/", stateRoutes(kit))
    .route("/servers", serversRoutes(kit))
    .route("/servers/:id/tools", toolsRoutes(kit))
    .route("/servers/:id/resources", resourcesRoutes(kit))
    .route("/servers/:id/prompts", promptsRoutes(kit))
    .route("/servers/:id/complete", completionsRoutes(kit))
    .route("/servers/:id/apps", serverAppsRoutes(kit))
    .route("/apps/:appId", openAppsRoutes(kit))
    .route("/elicitations", elicitationsRoutes(kit))
    .route("/conversations", conversationsRoutes(kit))
    .route("/runs", runsRoutes(kit))
    .route("/serve", serveRoutes(kit))
    .route("/traces", tracesRoutes(kit));
}
