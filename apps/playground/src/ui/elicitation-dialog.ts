import { errorMessage } from "@junction/types";
import { api } from "./api.js";
import { h, safeLink } from "./dom.js";
import { schemaForm } from "./schema-form.js";

const open = new Map<string, HTMLDialogElement>();

/** Shows a server's elicitation request as a form; the person accepts, declines or cancels. */
export function showElicitation(request: {
  id: string;
  server: string;
  message: string;
  requestedSchema: unknown;
}): void {
  if (open.has(request.id)) return;
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
      await api("POST", `/api/elicitations/${request.id}`, { action, content });
      closeElicitation(request.id);
    } catch (error) {
      message.className = "form-message error";
      message.textContent = errorMessage(error);
    }
  };
  const dialog = h(
    "dialog",
    { class: "modal", testid: "elicitation" },
    h("h2", {}, `${request.server} asks for input`),
    h("p", { class: "elicitation-message" }, request.message),
    typeof schema.url === "string"
      ? h("p", {}, "The server asks you to open: ", safeLink(schema.url, schema.url))
      : null,
    form.element,
    message,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "primary", testid: "elicitation-accept", onclick: () => void answer("accept") },
        "Send",
      ),
      h("button", { testid: "elicitation-decline", onclick: () => void answer("decline") }, "Decline"),
      h("button", { onclick: () => void answer("cancel") }, "Cancel"),
    ),
  );
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    void answer("cancel");
  });
  open.set(request.id, dialog);
  document.body.append(dialog);
  dialog.showModal();
}

export function closeElicitation(id: string): void {
  const dialog = open.get(id);
  if (!dialog) return;
  open.delete(id);
  dialog.close();
  dialog.remove();
}
