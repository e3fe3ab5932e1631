import { errorMessage } from "@junction/types";
import type { CompleteBody } from "../shared/api-bodies.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { expandTemplate, templateVariables } from "./uri-template.js";

/** How long typing pauses before completions are asked for. */
const COMPLETE_DELAY_MS = 150;

/**
 * A form for a resource template: one field per variable of its URI template, each with the
 * server's completions (`completion/complete` with a `ref/resource`) offered as a datalist and as
 * buttons, the URI it makes shown as it is typed, and a button that reads it.
 */
export function resourceTemplateForm(
  serverId: string,
  template: { uriTemplate: string; name: string; description?: string },
  read: (uri: string) => Promise<void>,
): HTMLElement {
  const names = templateVariables(template.uriTemplate);
  const values: Record<string, string> = {};
  const preview = h("code", { class: "template-uri", testid: "template-uri" });
  const update = () => {
    preview.textContent = expandTemplate(template.uriTemplate, values);
  };
  const fields = names.map((name, index) => {
    const listId = `template-${serverId}-${index}-options`;
    const options = h("datalist", { id: listId });
    const suggestions = h("div", { class: "suggestions", testid: `template-suggestions-${name}` });
    const input = h("input", { type: "text", testid: `template-field-${name}` });
    input.autocomplete = "off";
    input.setAttribute("list", listId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    const complete = async () => {
      const ticket = ++asked;
      try {
        const completion = await api<{ values: string[]; hasMore?: boolean; unsupported?: boolean }>(
          "POST",
          `/api/servers/${serverId}/complete`,
          {
            ref: { type: "ref/resource", uri: template.uriTemplate },
            argument: { name, value: input.value },
          } satisfies CompleteBody,
        );
        if (ticket !== asked) return;
        options.replaceChildren(...completion.values.map((value) => h("option", { value })));
        suggestions.replaceChildren(
          ...(completion.unsupported
            ? [h("span", { class: "muted" }, "This server offers no completions.")]
            : completion.values.slice(0, 12).map((value) =>
                h(
                  "button",
                  {
                    type: "button",
                    class: "suggestion",
                    testid: "template-suggestion",
                    onclick: () => {
                      input.value = value;
                      values[name] = value;
                      update();
                      void complete();
                    },
                  },
                  // A server's suggestion, as text.
                  value,
                ),
              )),
          ...(completion.hasMore ? [h("span", { class: "muted" }, "…more")] : []),
        );
      } catch (error) {
        if (ticket === asked)
          suggestions.replaceChildren(h("span", { class: "form-message error" }, errorMessage(error)));
      }
    };
    input.addEventListener("input", () => {
      values[name] = input.value;
      update();
      clearTimeout(timer);
      timer = setTimeout(() => void complete(), COMPLETE_DELAY_MS);
    });
    input.addEventListener("focus", () => void complete(), { once: true });
    return h("div", { class: "template-field" }, h("label", {}, name), input, options, suggestions);
  });
  update();
  return h(
    "form",
    {
      class: "template-form",
      testid: "template-form",
      onsubmit: (event) => {
        event.preventDefault();
        void read(expandTemplate(template.uriTemplate, values));
      },
    },
    h("div", { class: "label" }, `${template.name}: `, h("code", {}, template.uriTemplate)),
    template.description ? h("div", { class: "muted" }, template.description) : null,
    ...fields,
    h("div", { class: "muted" }, "URI: ", preview),
    h("button", { type: "submit", testid: "template-read" }, "Read"),
  );
}
