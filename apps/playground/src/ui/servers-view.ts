import { errorMessage } from "@junction/types";
import type {
  AddServerBody,
  DeferToolsBody,
  EmptyBody,
  ImportServersBody,
  UpdateServerBody,
} from "../shared/api-bodies.js";
import type { ServerImport, ServerStatus } from "../shared/api-types.js";
import { api } from "./api.js";
import { clear, h, jsonBlock } from "./dom.js";
import { renderInspector } from "./inspector.js";
import { clearAfterTeardown } from "./mcp-app-frame.js";
import { healthIndicator, stderrPanel, trafficPanel } from "./server-diagnostics.js";

export type { ServerStatus } from "../shared/api-types.js";

let servers: ServerStatus[] = [];
let selectedId: string | undefined;
let root: HTMLElement;

/** The servers view: the list with status, and the selected server's details and inspector. */
export function mountServersView(container: HTMLElement): void {
  root = container;
  void refreshServers();
}

/** Reloads the server list (on a `servers-changed` event, after an edit). */
export async function refreshServers(): Promise<void> {
  try {
    servers = await api<ServerStatus[]>("GET", "/api/servers");
  } catch (error) {
    clear(root);
    root.append(h("div", { class: "banner error" }, errorMessage(error)));
    return;
  }
  if (!selectedId || !servers.some((server) => server.id === selectedId)) selectedId = servers[0]?.id;
  render();
}

function render(): void {
  const previousDetail = root.querySelector<HTMLElement>(":scope > .server-detail:not([hidden])");
  const keepDetail =
    previousDetail?.dataset.serverId === selectedId &&
    previousDetail?.dataset.status === servers.find((server) => server.id === selectedId)?.status;
  const list = h(
    "nav",
    { class: "server-list", testid: "server-list" },
    h("h2", {}, "MCP servers"),
    ...servers.map((server) =>
      h(
        "button",
        {
          class: `server-item ${server.id === selectedId ? "selected" : ""}`,
          testid: `server-${server.name}`,
          onclick: () => {
            selectedId = server.id;
            render();
          },
        },
        h("span", { class: `dot ${server.status}`, title: server.status }),
        h("span", { class: "server-name" }, server.name),
        h("span", { class: "status-text", testid: `server-status-${server.name}` }, server.status),
      ),
    ),
    h(
      "div",
      { class: "actions" },
      h("button", { testid: "add-server", onclick: () => openServerEditor() }, "Add server"),
      h("button", { testid: "import-servers", onclick: () => openImport() }, "Import mcpServers JSON"),
      servers.some((server) => server.name === "counter-app")
        ? null
        : h(
            "button",
            {
              testid: "add-example-app",
              title: "Adds a small example server whose show-counter tool opens an MCP App",
              onclick: () => void addExampleApp(),
            },
            "Add the MCP App example",
          ),
    ),
  );
  const selected = servers.find((server) => server.id === selectedId);
  const detail =
    keepDetail && previousDetail
      ? previousDetail
      : selected
        ? renderDetail(selected)
        : h(
            "div",
            { class: "server-detail muted" },
            "No servers configured. Add one, or import an mcpServers file.",
          );
  const previousList = root.querySelector(":scope > .server-list");
  if (detail === previousDetail && previousList && previousDetail.parentNode === root) {
    // Only the list changes: moving the detail out and back would reload any MCP App iframe in it.
    previousList.replaceWith(list);
    return;
  }
  // The apps in the detail that goes are told first (ui/resource-teardown), hidden meanwhile.
  clearAfterTeardown(root, "This app was closed: its server's panel was replaced.");
  root.append(list, detail);
}

function renderDetail(server: ServerStatus): HTMLElement {
  const detail = h("section", { class: "server-detail" });
  detail.dataset.serverId = server.id;
  detail.dataset.status = server.status;
  detail.append(
    h(
      "div",
      { class: "detail-header" },
      h("h2", {}, server.name, server.builtin ? h("span", { class: "badge" }, "default") : null),
      h("span", { class: `status-pill ${server.status}` }, server.status),
      server.serverInfo
        ? h("span", { class: "muted" }, `${server.serverInfo.name ?? ""} ${server.serverInfo.version ?? ""}`)
        : null,
      healthIndicator(server),
      h("span", { class: "spacer" }),
      h("button", { onclick: () => void restart(server) }, "Reconnect"),
      h("button", { testid: "edit-server", onclick: () => openServerEditor(server) }, "Edit"),
      h("button", { class: "danger", testid: "remove-server", onclick: () => void remove(server) }, "Remove"),
    ),
  );
  if (server.error) {
    detail.append(
      h(
        "div",
        { class: "banner error", testid: "server-error" },
        h("strong", {}, "Connection failed"),
        h("pre", {}, server.error),
      ),
    );
  }
  if (server.warnings?.length) {
    detail.append(
      h(
        "div",
        { class: "banner warn", testid: "server-warnings" },
        h("strong", {}, "Configuration warnings"),
        ...server.warnings.map((warning) => h("div", {}, warning)),
      ),
    );
  }
  detail.append(deferToolsOption(server));
  if (server.instructions)
    detail.append(
      h(
        "details",
        {},
        h("summary", {}, "Server instructions"),
        h("pre", { class: "text-block" }, server.instructions),
      ),
    );
  detail.append(h("details", {}, h("summary", {}, "Configuration"), jsonBlock(server.config)));
  const log = h("div", { class: "server-log", testid: "server-log" });
  const logDetails = h("details", {}, h("summary", {}, "Log messages"), log);
  logDetails.addEventListener("toggle", () => {
    if (!logDetails.open) return;
    api<{ entries: { at: string; level: string; logger?: string; data: unknown }[]; dropped: number }>(
      "GET",
      `/api/servers/${server.id}/logs`,
    ).then(
      ({ entries, dropped }) => {
        log.replaceChildren(...entries.map((entry) => logLine(entry)));
        if (dropped > 0) log.prepend(skippedLine(`${dropped} older messages dropped`));
        if (entries.length === 0) log.append(h("div", { class: "muted" }, "No log messages yet."));
      },
      (error: Error) => log.replaceChildren(h("div", { class: "banner error" }, error.message)),
    );
  });
  detail.append(logDetails, trafficPanel(server.id));
  if (server.config.command !== undefined) detail.append(stderrPanel(server.id));
  if (server.status === "connected") detail.append(renderInspector(server.id, server.name));
  return detail;
}

/** The tool search switch: the model gets the server's tools only once it searches for them. */
function deferToolsOption(server: ServerStatus): HTMLElement {
  const checkbox = h("input", {
    type: "checkbox",
    testid: "defer-tools",
    checked: server.deferTools,
    onchange: () => {
      checkbox.disabled = true;
      api<ServerStatus>("PUT", `/api/servers/${server.id}/defer-tools`, {
        deferTools: checkbox.checked,
      } satisfies DeferToolsBody)
        .then(
          (updated) => {
            server.deferTools = updated.deferTools;
          },
          (error: Error) => {
            checkbox.checked = server.deferTools;
            alertBanner(error.message);
          },
        )
        .finally(() => {
          checkbox.disabled = false;
        });
    },
  });
  return h(
    "label",
    {
      class: "option",
      title:
        "Each request to the model is smaller; the model spends one round trip on a search before it first uses one of these tools.",
    },
    checkbox,
    " Load this server's tools only when the model searches for them (tool search)",
  );
}

function logLine(entry: { at?: string; level: string; logger?: string; data: unknown }): HTMLElement {
  const text = typeof entry.data === "string" ? entry.data : JSON.stringify(entry.data);
  return h(
    "div",
    { class: `log-line ${entry.level}` },
    h(
      "span",
      { class: "muted" },
      `${entry.at ? entry.at.slice(11, 19) : ""} ${entry.level}${entry.logger ? ` ${entry.logger}` : ""} `,
    ),
    text,
  );
}

function skippedLine(text: string): HTMLElement {
  return h("div", { class: "log-line muted", testid: "log-skipped" }, text);
}

/** The most log lines an open log shows; older ones go as new ones come. */
const shownLogLines = 500;

/** Appends a batch of live log messages to the open log of that server. */
export function appendServerLog(event: {
  server: string;
  entries: { at: string; level: string; logger?: string; data: unknown }[];
  skipped: number;
}): void {
  const server = servers.find((candidate) => candidate.name === event.server);
  if (!server || server.id !== selectedId) return;
  const log = root.querySelector<HTMLElement>(".server-detail details[open] .server-log");
  if (!log) return;
  if (event.skipped > 0)
    log.append(skippedLine(`${event.skipped} messages skipped (the server sent too many)`));
  log.append(...event.entries.map((entry) => logLine(entry)));
  while (log.childElementCount > shownLogLines) log.firstElementChild?.remove();
}

/** Adds the shipped counter MCP App server and selects it. */
async function addExampleApp(): Promise<void> {
  try {
    const added = await api<ServerStatus>(
      "POST",
      "/api/servers/examples/counter-app",
      {} satisfies EmptyBody,
    );
    selectedId = added.id;
  } catch (error) {
    alertBanner(errorMessage(error));
  }
  await refreshServers();
}

async function restart(server: ServerStatus): Promise<void> {
  try {
    await api("POST", `/api/servers/${server.id}/restart`, {} satisfies EmptyBody);
  } catch (error) {
    alertBanner(errorMessage(error));
  }
  await refreshServers();
}

async function remove(server: ServerStatus): Promise<void> {
  if (!confirm(`Remove server ${server.name}?`)) return;
  await api("DELETE", `/api/servers/${server.id}`);
  selectedId = undefined;
  await refreshServers();
}

function alertBanner(message: string): void {
  root.prepend(h("div", { class: "banner error" }, message));
}

const exampleEntry = { command: "node", args: ["path/to/server.js"], env: {} };

function openServerEditor(server?: ServerStatus): void {
  const name = h("input", {
    type: "text",
    value: server?.name ?? "",
    placeholder: "my-server",
    testid: "server-name-input",
  });
  const config = h("textarea", { rows: 10, testid: "server-config-input" });
  config.value = JSON.stringify(server ? server.config : exampleEntry, null, 2);
  const enabled = h("input", { type: "checkbox" });
  enabled.checked = server?.enabled ?? true;
  const message = h("div", { class: "form-message", testid: "server-form-message" });
  const save = h(
    "button",
    { class: "primary", testid: "save-server", onclick: () => void submit() },
    "Save and connect",
  );
  const close = h(
    "button",
    {
      testid: "close-server-editor",
      onclick: () => {
        dialog.close();
        dialog.remove();
      },
    },
    "Cancel",
  );
  const submit = async () => {
    message.textContent = "Connecting…";
    message.className = "form-message";
    // What the person typed, as it is: the server checks it and says what is wrong.
    let entry: AddServerBody["config"];
    try {
      entry = JSON.parse(config.value);
    } catch (error) {
      message.textContent = `The configuration is not valid JSON: ${errorMessage(error)}`;
      message.className = "form-message error";
      return;
    }
    try {
      const status = server
        ? await api<ServerStatus>("PUT", `/api/servers/${server.id}`, {
            name: name.value.trim(),
            config: entry,
            enabled: enabled.checked,
          } satisfies UpdateServerBody)
        : await api<ServerStatus>("POST", "/api/servers", {
            name: name.value.trim(),
            config: entry,
          } satisfies AddServerBody);
      selectedId = status.id;
      if (status.warnings?.length) {
        // Saved, but the person should read what the loader said before the dialog goes away:
        // a misspelt key ("arg") is ignored, so the server may not start as they meant.
        message.className = "form-message form-warning";
        message.replaceChildren(
          h("strong", {}, "Saved, with warnings:"),
          ...status.warnings.map((warning) => h("div", {}, warning)),
        );
        save.hidden = true;
        close.textContent = "Close";
        await refreshServers();
        return;
      }
      dialog.close();
      dialog.remove();
      await refreshServers();
    } catch (error) {
      message.textContent = errorMessage(error);
      message.className = "form-message error";
    }
  };
  const dialog = h(
    "dialog",
    { class: "modal", testid: "server-editor" },
    h("h2", {}, server ? `Edit ${server.name}` : "Add an MCP server"),
    h(
      "p",
      { class: "muted" },
      'One entry of an mcpServers file: {"command", "args", "env", "cwd"} for stdio, or {"url", "type", "headers"} for HTTP.',
    ),
    h("label", {}, "Name"),
    name,
    h("label", {}, "Configuration (JSON)"),
    config,
    server ? h("label", {}, enabled, " enabled") : null,
    message,
    h("div", { class: "actions" }, save, close),
  );
  document.body.append(dialog);
  dialog.showModal();
}

function openImport(): void {
  const text = h("textarea", {
    rows: 12,
    placeholder: '{ "mcpServers": { "name": { "command": "…" } } }',
    testid: "import-input",
  });
  const file = h("input", { type: "file" });
  file.accept = "application/json,.json";
  file.onchange = async () => {
    const chosen = file.files?.[0];
    if (chosen) text.value = await chosen.text();
  };
  const message = h("div", { class: "form-message", testid: "import-message" });
  const run = async () => {
    try {
      const result = await api<ServerImport>("POST", "/api/servers/import", {
        document: text.value,
      } satisfies ImportServersBody);
      message.className = result.warnings.length ? "form-message form-warning" : "form-message";
      message.replaceChildren(
        `Added: ${result.added.join(", ") || "none"}.` +
          (result.skipped.length
            ? ` Skipped: ${result.skipped.map((s) => `${s.name} (${s.reason})`).join(", ")}.`
            : ""),
        ...result.warnings.map((warning) => h("div", {}, warning)),
      );
      await refreshServers();
    } catch (error) {
      message.className = "form-message error";
      message.textContent = errorMessage(error);
    }
  };
  const dialog = h(
    "dialog",
    { class: "modal", testid: "import-dialog" },
    h("h2", {}, "Import an mcpServers file"),
    h(
      "p",
      { class: "muted" },
      "Claude Desktop, Cursor (mcpServers) and VS Code (servers) files work. Nothing is added unless every entry is valid.",
    ),
    file,
    text,
    message,
    h(
      "div",
      { class: "actions" },
      h("button", { class: "primary", testid: "run-import", onclick: () => void run() }, "Import"),
      h(
        "button",
        {
          onclick: () => {
            dialog.close();
            dialog.remove();
          },
        },
        "Close",
      ),
    ),
  );
  document.body.append(dialog);
  dialog.showModal();
}
