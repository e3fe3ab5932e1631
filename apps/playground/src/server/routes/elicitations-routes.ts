import { Hono } from "hono";
import { elicitationAnswerBody } from "../../shared/api-bodies.js";
import { body, id, type RouteKit } from "./route-kit.js";

/** `/api/elicitations`: the person's answers to servers' elicitation requests. */
export function elicitationsRoutes({ context: { elicitation }, answer }: RouteKit): Hono {
  return new Hono().post("/:id", id, body(elicitationAnswerBody), (c) => {
    elicitation.answer(c.req.valid("param").id, c.req.valid("json"));
    return answer(c, undefined);
  });
}
