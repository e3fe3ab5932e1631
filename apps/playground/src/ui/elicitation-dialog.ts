import { errorMessage } from "@junction/types";
import type { ElicitationAnswerBody } from "../shared/api-bodies.js";
import type { ElicitationRequest } from "../shared/api-types.js";
import { api } from "./api.js";
import { h, safeLink } from "./dom.js";
import { schemaForm } from "./schema-form.js";

/** The requests waiting for the person, oldest first; only the first one is shown. */
const queue = new Map<string, ElicitationRequest>();
let shown: { id: string; dialog: HTMLDialogElement; count: HTMLElement } | undefined;

/**
 * Queues a server's request for the person (an elicitation form, or a sampling request to
 * accept or decline). One dialog at a time, saying how many wait behind it; the server side
 * bounds how many each server may have waiting.
 */
export function showElicitation(request: ElicitationRequest): void {
  if (queue.has(request.id)) return;
  queue.set(request.id, request);
  if (shown) updateCount();
  else showNext();
}

/** Removes a request once answered (here or on another page) and shows the next one. */
export function closeElicitation(id: string): void {
  if (!queue.delete(id)) return;
  if (shown?.id !== id) {
    updateCount();
    return;
  }
  shown.dialog.close();
  shown.dialog.remove();
  shown = undefined;
  showNext();
}

function updateCount(): void {
  if (!shown) return;
  shown.count.textContent = queue.size > 1 ? `1 of ${queue.size} requests waiting` : "";
}

function showNext(): void {
  const request = queue.values().next().value;
  if (!request) return;
  const sampling = request.kind === "sampling";
  const schema = request.requestedSchema as { url?: unknown };
  const form = schemaForm(request.requestedSchema, `elicit-${request.id}`, "");
  const message = h("div", { class: "form-message" });
  const answer = async (action: "accept" | "decline" | "cancel") => {
    let content: Record<string, unknown> | undefined;
    if (action === "accept") {
      try {
        content = form.read();
      } catch (error) {
        message.className = "form-message error";
        message.textContent = errorMessage(error);
        return;
      }
    }
    try {
      await api("POST", `/api/elicitations/${request.id}`, {
        action,
        ...(content ? { content: content as ElicitationAnswerBody["content"] } : {}),
      } satisfies ElicitationAnswerBody);
      closeElicitation(request.id);
    } catch (error) {
      message.className = "form-message error";
      message.textContent = errorMessage(error);
    }
  };
  const count = h("div", { class: "muted", testid: "elicitation-count" });
  const dialog = h(
    "dialog",
    { class: "modal", testid: "elicitation" },
    h("h2", {}, sampling ? `${request.server} wants to ask the model` : `${request.server} asks for input`),
    count,
    // A sampling request's text is everything the model would receive: shown whole, scrollable.
    sampling
      ? h(
          "pre",
          { class: "elicitation-message sampling-request", testid: "sampling-request" },
          request.message,
        )
      : h("p", { class: "elicitation-message" }, request.message),
    typeof schema.url === "string"
      ? h("p", {}, "The server asks you to open: ", safeLink(schema.url, schema.url))
      : null,
    sampling ? null : form.element,
    message,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "primary", testid: "elicitation-accept", onclick: () => void answer("accept") },
        sampling ? "Accept: send it to the model" : "Send",
      ),
      h("button", { testid: "elicitation-decline", onclick: () => void answer("decline") }, "Decline"),
      h("button", { onclick: () => void answer("cancel") }, "Cancel"),
    ),
  );
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    void answer("cancel");
  });
  shown = { id: request.id, dialog, count };
  updateCount();
  document.body.append(dialog);
  dialog.showModal();
}
