import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { settingsBody } from "../../shared/api-bodies.js";
import type { PlaygroundState } from "../../shared/api-types.js";
import { eventStream } from "../event-stream.js";
import { body, type RouteKit } from "./route-kit.js";

/** `/api/events`, `/api/state`, `/api/settings`: the page's live events, what it starts with, and the settings. */
export function stateRoutes({ context: { hub, providers, elicitation }, answer }: RouteKit): Hono {
  return (
    new Hono()
      .get("/events", (c) =>
        eventStream(
          c,
          (send, signal) =>
            new Promise<void>((resolve) => {
              const detach = hub.attach({ send, close: resolve });
              signal.addEventListener("abort", () => {
                detach();
                resolve();
              });
            }),
        ),
      )
      .get("/state", (c) => {
        const state: PlaygroundState = {
          providers: providers.providers(),
          settings: providers.settings(),
          elicitations: elicitation.list(),
        };
        return answer(c, state);
      })
      .post("/settings", body(settingsBody), (c) => answer(c, providers.updateSettings(c.req.valid("json"))))
      // The code modes a provider's model can have: "provider" only where the model runs programs.
      .get("/code-mode", (c) => {
        const provider = c.req.query("provider");
        if (!provider) {
          throw new HTTPException(400, {
            message: "Name the provider and model: /api/code-mode?provider=<id>&model=<name>.",
          });
        }
        return answer(c, providers.codeModeChoices(provider, c.req.query("model") ?? ""));
      })
  );
}
