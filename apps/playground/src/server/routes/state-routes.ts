import { Hono } from "hono";
import { settingsBody } from "../../shared/api-bodies.js";
import type { PlaygroundState } from "../../shared/api-types.js";
import { eventStream } from "../event-stream.js";
import { body, type RouteKit } from "./route-kit.js";

/** `/api/events`, `/api/state`, `/api/settings`: the page's live events, what it starts with, and the settings. */
export function stateRoutes({ context: { hub, chat, elicitation }, answer }: RouteKit): Hono {
  return new Hono()
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
        providers: chat.providers(),
        settings: chat.settings(),
        elicitations: elicitation.list(),
      };
      return answer(c, state);
    })
    .post("/settings", body(settingsBody), (c) => answer(c, chat.updateSettings(c.req.valid("json"))));
}
