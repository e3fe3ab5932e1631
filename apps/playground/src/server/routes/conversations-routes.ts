import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  chatApprovalBody,
  codeModeBody,
  createConversationBody,
  outputSchemaBody,
  turnBody,
} from "../../shared/api-bodies.js";
import type { ChatEvent } from "../../shared/api-types.js";
import { eventStream } from "../event-stream.js";
import { capDepth } from "../output-limits.js";
import { body, id, pathIds, type RouteKit } from "./route-kit.js";

/**
 * `/api/conversations`: the chat's conversations, their turns, and the answers to their stopped
 * runs' approvals. A turn and a continued run stream their events.
 */
export function conversationsRoutes({ context: { store, chat }, answer, redact }: RouteKit): Hono {
  // The chat service knows nothing of HTTP: it emits events, and these routes write them.
  const written = (send: (data: string) => void) => (event: ChatEvent) =>
    send(redact(JSON.stringify(capDepth(event).value)));
  return (
    new Hono()
      .get("/", (c) => answer(c, store.listConversations()))
      .post("/", body(createConversationBody), (c) => answer(c, chat.createConversation(c.req.valid("json"))))
      .get("/:id", id, (c) => {
        const { id } = c.req.valid("param");
        const conversation = store.getConversation(id);
        if (!conversation) throw new HTTPException(404, { message: `No conversation with id ${id}.` });
        return answer(c, conversation);
      })
      .delete("/:id", id, (c) => {
        store.removeConversation(c.req.valid("param").id);
        return answer(c, undefined);
      })
      .post("/:id/messages", id, body(turnBody), (c) => {
        const { id } = c.req.valid("param");
        const { text, provider, model } = c.req.valid("json");
        return eventStream(c, (send, signal) =>
          chat.runTurn(id, { text, provider, model, signal }, written(send)),
        );
      })
      // The JSON Schema every answer of the conversation must match (null clears it).
      .put("/:id/output-schema", id, body(outputSchemaBody), (c) =>
        answer(c, {
          outputSchema: chat.setOutputSchema(c.req.valid("param").id, c.req.valid("json").schema ?? null)
            .outputSchema,
        }),
      )
      // Code mode for the conversation's next runs (off, sandbox, provider): the model may write
      // programs that call the tools. "provider" on a model that does not run programs is a 400.
      .put("/:id/code-mode", id, body(codeModeBody), async (c) => {
        const conversation = await chat.setCodeMode(c.req.valid("param").id, c.req.valid("json"));
        return answer(c, {
          codeMode: conversation.codeMode,
          provider: conversation.provider,
          model: conversation.model,
        });
      })
      // An answer to a stopped run's approval continues the run: its events stream like a turn's.
      .post("/:id/approvals/:callId", pathIds("id", "callId"), body(chatApprovalBody), async (c) => {
        const { id, callId } = c.req.valid("param");
        const { approve, reason } = c.req.valid("json");
        // Refused before the stream opens: no such call or a busy conversation (400), or a stored run
        // that fails its signature (409). Claimed before anything is awaited, so one answer counts.
        const claim = await chat.claimApproval(id, callId);
        return eventStream(c, (send, signal) =>
          claim.answer({ approve, ...(reason !== undefined ? { reason } : {}), signal }, written(send)),
        );
      })
  );
}
