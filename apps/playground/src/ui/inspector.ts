import { errorMessage } from "@junction/types";
import type { CallToolBody, GetPromptBody, ReadResourceBody } from "../shared/api-bodies.js";
import { api, apiRequest } from "./api.js";
import { AppCallFeed, type AppCallOutcome } from "./app-call-feed.js";
import { clear, h, jsonBlock } from "./dom.js";
import {
  appFormWarning,
  clearAfterTeardown,
  MCP_APP_MIME_TYPE,
  mcpAppPreview,
  mcpAppView,
  teardownAppsIn,
  toolHasApp,
} from "./mcp-app-frame.js";
import { renderBlock, renderResourceContents, renderToolResult } from "./render-content.js";
import { resourceTemplateForm } from "./resource-template-form.js";
import { schemaForm } from "./schema-form.js";
import { type AnnotationBadge, annotationBadges } from "./tool-annotations.js";

interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The inspector of one connected server: tools, resources and prompts. */
export function renderInspector(serverId: string, serverName: string): HTMLElement {
  const body = h("div", { class: "inspector-body" });
  const tabs = ["Tools", "Resources", "Prompts"] as const;
  const tabBar = h("div", { class: "tabs" });
  const show = (tab: (typeof tabs)[number]) => {
    for (const button of tabBar.querySelectorAll("button"))
      button.classList.toggle("active", button.textContent === tab);
    clear(body);
    body.append(h("div", { class: "muted" }, "Loading…"));
    const load = tab === "Tools" ? toolsTab : tab === "Resources" ? resourcesTab : promptsTab;
    load(serverId, serverName).then(
      (element) => body.replaceChildren(element),
      (error: Error) => body.replaceChildren(h("div", { class: "banner error" }, error.message)),
    );
  };
  for (const tab of tabs)
    tabBar.append(h("button", { testid: `tab-${tab.toLowerCase()}`, onclick: () => show(tab) }, tab));
  show("Tools");
  return h("div", { class: "inspector", testid: "inspector" }, tabBar, body);
}

async function toolsTab(serverId: string, serverName: string): Promise<HTMLElement> {
  const tools = await api<ToolDefinition[]>("GET", `/api/servers/${serverId}/tools`);
  const panel = h("div", { class: "tool-panel" });
  const list = h("div", { class: "item-list", testid: "tool-list" });
  const select = (tool: ToolDefinition) => {
    for (const button of list.querySelectorAll("button"))
      button.classList.toggle("selected", button.dataset.name === tool.name);
    // The open app of the tool shown before goes the spec's way (hidden until its teardown is over).
    clearAfterTeardown(panel, "This app was closed: another tool was picked.");
    panel.append(toolPanel(serverId, serverName, tool));
  };
  for (const tool of tools) {
    const button = h(
      "button",
      { class: "item", testid: `tool-${tool.name}`, onclick: () => select(tool) },
      h("span", { class: "item-name" }, tool.name),
      ...annotationBadges(tool.annotations)
        .filter((badge) => badge.text === "read-only" || badge.text === "destructive")
        .map(badgeElement),
    );
    button.dataset.name = tool.name;
    list.append(button);
  }
  if (tools.length === 0) list.append(h("div", { class: "muted" }, "This server has no tools."));
  panel.append(h("div", { class: "muted" }, `${tools.length} tools. Pick one to call it.`));
  return h("div", { class: "split" }, list, panel);
}

function toolPanel(serverId: string, serverName: string, tool: ToolDefinition): HTMLElement {
  const form = schemaForm(tool.inputSchema, `tool-${tool.name}`);
  const output = h("div", { class: "output", testid: "tool-output" });
  const run = h("button", { class: "primary", testid: "run-tool", type: "submit" }, "Run tool");
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    let args: Record<string, unknown>;
    try {
      args = form.read();
    } catch (error) {
      output.replaceChildren(
        h("div", { class: "banner error", testid: "tool-call-error" }, errorMessage(error)),
      );
      return;
    }
    run.disabled = true;
    await teardownAppsIn(output, "This app was closed: the tool is being run again.");
    const controller = new AbortController();
    const slot = h(
      "div",
      {},
      h("span", { class: "muted" }, `Calling ${tool.name}… `),
      h("button", { testid: "cancel-tool", type: "button", onclick: () => controller.abort() }, "Cancel"),
    );
    output.replaceChildren(slot);
    // A tool with an app opens its view while the call runs: the view gets the input at once, then
    // the result, or tool-cancelled when the call is cancelled or fails.
    let settle: (outcome: AppCallOutcome) => void = () => {};
    if (await toolHasApp(serverId, tool.name)) {
      const outcome = new Promise<AppCallOutcome>((resolve) => {
        settle = resolve;
      });
      output.append(mcpAppView({ serverId, tool: tool.name, feed: AppCallFeed.of(args, outcome) }));
    }
    try {
      const answer = await apiRequest<{ result: unknown; durationMs: number; truncated?: string }>(
        "POST",
        `/api/servers/${serverId}/tools/call`,
        { body: { name: tool.name, arguments: args } satisfies CallToolBody, signal: controller.signal },
      );
      slot.replaceChildren(renderToolResult(answer.result, answer.durationMs, answer.truncated));
      settle({ result: answer.result });
    } catch (error) {
      const message = controller.signal.aborted ? "You cancelled the call." : errorMessage(error);
      slot.replaceChildren(h("div", { class: "banner error", testid: "tool-call-error" }, message));
      settle({
        cancelled: controller.signal.aborted
          ? "The person cancelled the call."
          : `The call failed: ${message}`,
      });
    } finally {
      run.disabled = false;
    }
  };
  return h(
    "div",
    { class: "tool-detail" },
    h("h3", {}, `${serverName} · ${tool.name}`),
    h("p", { class: "description" }, tool.description),
    annotationList(tool.annotations),
    appFormWarning(serverId, tool.name),
    h("form", { onsubmit: (event) => void submit(event), testid: "tool-form" }, form.element, run),
    h("details", {}, h("summary", {}, "Input schema"), jsonBlock(tool.inputSchema)),
    tool.outputSchema
      ? h("details", {}, h("summary", {}, "Output schema"), jsonBlock(tool.outputSchema))
      : null,
    output,
  );
}

function badgeElement(badge: AnnotationBadge): HTMLElement {
  return h(
    "span",
    { class: badge.tone === "warn" ? "badge warn" : "badge", title: badge.meaning },
    badge.text,
  );
}

/** A tool's annotations as badges, with its title when the server gave one; nothing when it gave none. */
function annotationList(annotations: unknown): HTMLElement | null {
  const badges = annotationBadges(annotations);
  const title = (annotations as { title?: unknown } | undefined)?.title;
  if (badges.length === 0 && typeof title !== "string") return null;
  return h(
    "div",
    { class: "annotations", testid: "tool-annotations" },
    typeof title === "string" ? h("span", { class: "annotation-title" }, title) : null,
    ...badges.map(badgeElement),
  );
}

/**
 * One read content: an MCP App document (`text/html;profile=mcp-app` at a `ui://` URI) is shown
 * as a preview in the apps' sandboxed frame, no tools, with its source as inert text below;
 * anything else as the resource it is.
 */
function renderReadContents(serverId: string, uri: string, contents: unknown): HTMLElement {
  const item = (typeof contents === "object" && contents !== null ? contents : {}) as {
    uri?: unknown;
    mimeType?: unknown;
  };
  const isApp =
    typeof item.mimeType === "string" &&
    item.mimeType.replace(/\s/g, "").toLowerCase() === MCP_APP_MIME_TYPE &&
    item.uri === uri &&
    uri.startsWith("ui://");
  if (!isApp) return renderResourceContents(contents);
  return h(
    "div",
    { testid: "resource-app" },
    mcpAppPreview(serverId, uri),
    h(
      "details",
      { testid: "resource-app-source" },
      h("summary", {}, "Source (the app's HTML, shown as text: it does not run here)"),
      renderResourceContents(contents),
    ),
  );
}

async function resourcesTab(serverId: string): Promise<HTMLElement> {
  const { resources, templates } = await api<{
    resources: { uri: string; name: string; mimeType?: string; description?: string }[];
    templates: { uriTemplate: string; name: string; description?: string }[];
  }>("GET", `/api/servers/${serverId}/resources`);
  const output = h("div", { class: "output", testid: "resource-output" });
  const read = async (uri: string) => {
    output.replaceChildren(h("div", { class: "muted" }, `Reading ${uri}…`));
    try {
      const result = await api<{ contents: unknown[] }>("POST", `/api/servers/${serverId}/resources/read`, {
        uri,
      } satisfies ReadResourceBody);
      output.replaceChildren(
        ...(result.contents ?? []).map((contents) => renderReadContents(serverId, uri, contents)),
      );
    } catch (error) {
      output.replaceChildren(h("div", { class: "banner error" }, errorMessage(error)));
    }
  };
  const list = h("div", { class: "item-list", testid: "resource-list" });
  for (const resource of resources) {
    list.append(
      h(
        "button",
        { class: "item", onclick: () => void read(resource.uri) },
        h("span", { class: "item-name" }, resource.name),
        h("span", { class: "muted" }, resource.uri),
      ),
    );
  }
  if (resources.length === 0) list.append(h("div", { class: "muted" }, "No resources."));
  const uriInput = h("input", {
    type: "text",
    placeholder: "a URI, or a template filled in",
    testid: "resource-uri",
  });
  const templateForm = h("div", { class: "template-form-slot" });
  const templateList = h(
    "div",
    {},
    ...templates.map((template) =>
      h(
        "button",
        {
          class: "item",
          testid: `template-${template.name}`,
          onclick: () => {
            uriInput.value = template.uriTemplate;
            templateForm.replaceChildren(resourceTemplateForm(serverId, template, read));
          },
        },
        h("span", { class: "item-name" }, template.name),
        h("span", { class: "muted" }, template.uriTemplate),
      ),
    ),
  );
  return h(
    "div",
    { class: "split" },
    list,
    h(
      "div",
      {},
      h("h3", {}, "Read a resource"),
      templates.length
        ? h("div", {}, h("div", { class: "label" }, "Templates"), templateList, templateForm)
        : null,
      h(
        "form",
        {
          onsubmit: (event) => {
            event.preventDefault();
            void read(uriInput.value.trim());
          },
        },
        uriInput,
        h("button", { type: "submit" }, "Read"),
      ),
      output,
    ),
  );
}

async function promptsTab(serverId: string): Promise<HTMLElement> {
  const prompts = await api<
    {
      name: string;
      description?: string;
      arguments?: { name: string; description?: string; required?: boolean }[];
    }[]
  >("GET", `/api/servers/${serverId}/prompts`);
  const panel = h("div", {}, h("div", { class: "muted" }, `${prompts.length} prompts.`));
  const list = h("div", { class: "item-list", testid: "prompt-list" });
  for (const prompt of prompts) {
    list.append(
      h(
        "button",
        {
          class: "item",
          testid: `prompt-${prompt.name}`,
          onclick: () => {
            const schema = {
              type: "object",
              properties: Object.fromEntries(
                (prompt.arguments ?? []).map((argument) => [
                  argument.name,
                  { type: "string", description: argument.description },
                ]),
              ),
              required: (prompt.arguments ?? [])
                .filter((argument) => argument.required)
                .map((argument) => argument.name),
            };
            const form = schemaForm(schema, `prompt-${prompt.name}`);
            const output = h("div", { class: "output", testid: "prompt-output" });
            const submit = async (event: SubmitEvent) => {
              event.preventDefault();
              try {
                const args = Object.fromEntries(
                  Object.entries(form.read()).map(([key, value]) => [key, String(value)]),
                );
                const result = await api<{
                  description?: string;
                  messages: { role: string; content: unknown }[];
                }>("POST", `/api/servers/${serverId}/prompts/get`, {
                  name: prompt.name,
                  arguments: args,
                } satisfies GetPromptBody);
                output.replaceChildren(
                  result.description ? h("p", {}, result.description) : "",
                  ...result.messages.map((message) =>
                    h(
                      "div",
                      { class: `prompt-message ${message.role}` },
                      h("div", { class: "label" }, message.role),
                      renderBlock(message.content),
                    ),
                  ),
                );
              } catch (error) {
                output.replaceChildren(h("div", { class: "banner error" }, errorMessage(error)));
              }
            };
            panel.replaceChildren(
              h("h3", {}, prompt.name),
              h("p", {}, prompt.description ?? ""),
              h(
                "form",
                { onsubmit: (event) => void submit(event) },
                form.element,
                h("button", { class: "primary", type: "submit" }, "Get prompt"),
              ),
              output,
            );
          },
        },
        h("span", { class: "item-name" }, prompt.name),
      ),
    );
  }
  if (prompts.length === 0) list.append(h("div", { class: "muted" }, "No prompts."));
  return h("div", { class: "split" }, list, panel);
}
