import { errorMessage } from "@junction/types";
import type { ServeBody } from "../shared/api-bodies.js";
import type { ServedCall, ServeStatus } from "../shared/api-types.js";
import { api } from "./api.js";
import { h } from "./dom.js";

/** The name a client's config gives the playground's endpoint. */
const serverName = "junction-playground";

/** A Claude Code command that adds the endpoint with its token. */
export function claudeCodeCommand(url: string, token: string): string {
  return `claude mcp add --transport http ${serverName} ${url} --header "Authorization: Bearer ${token}"`;
}

/** An `mcpServers` entry (Claude Desktop, Cursor, and most hosts) for the endpoint. */
export function mcpServersJSON(url: string, token: string): string {
  return JSON.stringify(
    { mcpServers: { [serverName]: { type: "http", url, headers: { Authorization: `Bearer ${token}` } } } },
    null,
    2,
  );
}

/**
 * The "Serve over MCP" view: the switch, the endpoint's URL and token with client config
 * snippets to copy, the tools it serves, and the clients that connected with their calls.
 * Everything a client sent (its name, version, session id, an error's text) is shown as text.
 */
export function mountServeView(root: HTMLElement): { refresh(): Promise<void> } {
  const body = h("div", { class: "serve-body" });
  root.replaceChildren(h("h2", {}, "Serve this playground over MCP"), body);
  let busy = false;

  const render = (status: ServeStatus, problem?: string) => {
    const toggle = h("input", {
      type: "checkbox",
      testid: "serve-toggle",
      checked: status.enabled,
      onchange: async () => {
        toggle.disabled = true;
        try {
          render(
            await api<ServeStatus>("PUT", "/api/serve", { enabled: toggle.checked } satisfies ServeBody),
          );
        } catch (error) {
          render(status, errorMessage(error));
        }
      },
    });
    const parts: (Node | false)[] = [
      h(
        "label",
        { class: "serve-switch" },
        toggle,
        " Serve the playground's agent (as ask_playground) and its connected servers' tools (as a gateway) on a local Streamable HTTP endpoint",
      ),
      !!problem && h("div", { class: "banner error", testid: "serve-problem" }, problem),
      !!status.error && h("div", { class: "banner error", testid: "serve-error" }, status.error),
    ];
    if (status.url && status.token) {
      parts.push(
        h(
          "section",
          { class: "serve-endpoint", testid: "serve-endpoint" },
          h("p", {}, "Endpoint: ", h("code", { testid: "serve-url" }, status.url)),
          h(
            "p",
            {},
            "Bearer token: ",
            h("code", { testid: "serve-token" }, status.token),
            " ",
            copyButton("Copy token", status.token, "copy-token"),
          ),
          h(
            "p",
            { class: "muted" },
            "Loopback only. Every request needs the token; requests whose Host or Origin is not loopback are refused. The token stays the same across restarts: switch serving off and on to keep it, or remove the data folder to make a new one.",
          ),
          h("h3", {}, "Claude Code"),
          h("pre", { testid: "snippet-claude-code" }, claudeCodeCommand(status.url, status.token)),
          copyButton("Copy command", claudeCodeCommand(status.url, status.token), "copy-claude-code"),
          h("h3", {}, "mcpServers JSON (Claude Desktop, Cursor, …)"),
          h("pre", { testid: "snippet-mcp-servers" }, mcpServersJSON(status.url, status.token)),
          copyButton("Copy JSON", mcpServersJSON(status.url, status.token), "copy-mcp-servers"),
          h("h3", {}, `Tools served (${status.tools.length})`),
          h("p", { class: "serve-tools", testid: "serve-tools" }, status.tools.join(", ")),
          h("h3", {}, "Approvals"),
          h("p", { class: "muted", testid: "serve-approvals" }, status.approvals),
        ),
      );
    }
    parts.push(clientsTable(status), callsTable(status.calls));
    body.replaceChildren(...parts.filter((part): part is Node => part !== false));
  };

  const refresh = async () => {
    if (busy) return;
    busy = true;
    try {
      render(await api<ServeStatus>("GET", "/api/serve"));
    } catch (error) {
      body.replaceChildren(h("div", { class: "banner error" }, errorMessage(error)));
    } finally {
      busy = false;
    }
  };
  return { refresh };
}

function copyButton(label: string, text: string, testid: string): HTMLButtonElement {
  const button = h("button", {
    testid,
    class: "secondary",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch {
        // No clipboard (a page not in focus, or permission refused): the text is there to select.
        button.textContent = "Select and copy it by hand";
      }
      setTimeout(() => {
        button.textContent = label;
      }, 1500);
    },
  });
  button.textContent = label;
  return button;
}

function clientsTable(status: ServeStatus): HTMLElement {
  if (status.clients.length === 0) {
    return h(
      "section",
      { testid: "serve-clients" },
      h("h3", {}, "Clients"),
      h("p", { class: "muted" }, "No client yet."),
    );
  }
  return h(
    "section",
    { testid: "serve-clients" },
    h("h3", {}, "Clients"),
    h(
      "table",
      { class: "serve-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["client", "version", "session", "protocol", "requests", "last seen"].map((c) => h("th", {}, c)),
        ),
      ),
      h(
        "tbody",
        {},
        ...status.clients.map((client) =>
          h(
            "tr",
            { testid: "serve-client" },
            h("td", { testid: "client-name" }, client.name),
            h("td", {}, client.version),
            h(
              "td",
              { testid: "client-session" },
              client.closed ? `${client.session} (closed)` : client.session,
            ),
            h("td", {}, client.protocolVersion ?? "?"),
            h("td", {}, String(client.requests)),
            h("td", {}, new Date(client.lastSeen).toLocaleTimeString()),
          ),
        ),
      ),
    ),
  );
}

function callsTable(calls: ServedCall[]): HTMLElement {
  if (calls.length === 0) {
    return h(
      "section",
      { testid: "serve-calls" },
      h("h3", {}, "Calls"),
      h("p", { class: "muted" }, "No call yet."),
    );
  }
  return h(
    "section",
    { testid: "serve-calls" },
    h("h3", {}, "Recent calls"),
    h(
      "table",
      { class: "serve-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["time", "client", "session", "tool", "duration", "outcome"].map((c) => h("th", {}, c)),
        ),
      ),
      h(
        "tbody",
        {},
        ...calls.map((call) =>
          h(
            "tr",
            { testid: "serve-call", class: `outcome-${call.outcome}` },
            h("td", {}, new Date(call.startedAt).toLocaleTimeString()),
            h("td", {}, call.clientName),
            h("td", {}, call.session),
            h("td", { testid: "call-tool" }, call.tool),
            h("td", {}, call.durationMs === undefined ? "…" : `${call.durationMs} ms`),
            h(
              "td",
              { testid: "call-outcome" },
              call.outcome,
              call.detail ? h("span", { class: "muted" }, ` — ${call.detail}`) : null,
            ),
          ),
        ),
      ),
    ),
  );
}
