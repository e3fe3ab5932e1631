import { errorMessage } from "@junction/types";
import type { EmptyBody } from "../shared/api-bodies.js";
import type { ServerHealth, ServerStatus, StderrLog, TrafficEntry, TrafficLog } from "../shared/api-types.js";
import { api } from "./api.js";
import { h } from "./dom.js";

/** How often an open traffic or stderr view asks for what is new, and the health is checked. */
const POLL_MS = 1000;
const PING_MS = 10_000;
/** The most messages the traffic view shows; older ones go as new ones come. */
const SHOWN_MESSAGES = 300;

/** Runs `tick` every `ms` while `element` is in the page and `active()` holds. */
function every(
  element: HTMLElement,
  { ms, active }: { ms: number; active: () => boolean },
  tick: () => Promise<void>,
): void {
  const timer = setInterval(() => {
    if (!element.isConnected) {
      // The view was replaced: stop asking.
      if (element.dataset.mounted) clearInterval(timer);
      return;
    }
    element.dataset.mounted = "1";
    // A failed poll is retried on the next tick; each tick shows its own failures in the view (ping failed,
    // …).
    if (active()) void tick().catch(() => undefined);
  }, ms);
}

function describeHealth(server: ServerStatus, health: ServerHealth | undefined): string {
  if (!health) return server.status === "connected" ? "connected · checking…" : server.status;
  switch (health.state) {
    case "ok":
      return `healthy · ping ${health.latencyMs} ms`;
    case "unsupported":
      return "connected · ping not available on this server";
    case "reconnecting":
      return "reconnecting · the server stopped and is being restarted";
    case "failed":
      // The whole error is in the tooltip (and, for a server that is down, in its banner).
      return "ping failed";
    default: {
      const unknown: never = health.state;
      return String(unknown);
    }
  }
}

/**
 * The health indicator of a server: its connection state and the last ping's round trip,
 * checked every 10 s while shown, and a button to ping now.
 */
export function healthIndicator(server: ServerStatus): HTMLElement {
  const text = h(
    "span",
    { class: "health-text", testid: "health-text" },
    describeHealth(server, server.health),
  );
  const indicator = h("span", { class: `health ${server.health?.state ?? server.status}`, testid: "health" });
  const show = (health: ServerHealth) => {
    text.textContent = describeHealth(server, health);
    indicator.className = `health ${health.state}`;
    text.title = `checked ${health.at}${health.error ? `: ${health.error}` : ""}`;
  };
  const ping = async () => {
    try {
      show(await api<ServerHealth>("POST", `/api/servers/${server.id}/ping`, {} satisfies EmptyBody));
    } catch (error) {
      show({ state: "failed", at: new Date().toISOString(), error: errorMessage(error) });
    }
  };
  const live = server.status === "connected" || server.status === "reconnecting";
  const button = h("button", { testid: "ping", disabled: !live, onclick: () => void ping() }, "Ping");
  const element = h("span", { class: "health-indicator" }, indicator, text, button);
  if (live) {
    if (!server.health) void ping();
    every(element, { ms: PING_MS, active: () => true }, ping);
  }
  return element;
}

/**
 * Whether an entry is the server's refusal of the client's `server/discover` probe: a server of
 * a revision before 2026-07-28 does not know it, and the client falls back to `initialize`. That
 * is version negotiation going as planned, not an error.
 */
function isDiscoverFallback(entry: TrafficEntry): boolean {
  return entry.kind === "error" && entry.direction === "in" && entry.method === "server/discover";
}

function trafficRow(entry: TrafficEntry, first: number): HTMLElement {
  const arrow = entry.direction === "out" ? "→" : "←";
  const negotiation = isDiscoverFallback(entry);
  const kind = negotiation ? "negotiation" : entry.kind;
  // The kind column names the kind: the label says which message, once.
  const label =
    entry.kind === "notification"
      ? entry.method
      : entry.kind === "request"
        ? `${entry.method} #${entry.id}`
        : negotiation
          ? `#${entry.id ?? "?"} server/discover not offered: an earlier protocol revision, so the client uses initialize (expected)`
          : `#${entry.id ?? "?"}${entry.method ? ` ${entry.method}` : ""}`;
  const row = h(
    "details",
    { class: `traffic-row ${entry.direction} ${kind}`, testid: "traffic-row" },
    h(
      "summary",
      {},
      h("span", { class: "traffic-time muted" }, `+${((entry.at - first) / 1000).toFixed(3)} s`),
      h("span", { class: "traffic-arrow" }, arrow),
      h("span", { class: "traffic-kind", testid: "traffic-kind" }, kind),
      h("span", { class: "traffic-method" }, label ?? ""),
      entry.durationMs === undefined
        ? null
        : h(
            "span",
            { class: "badge traffic-duration", testid: "traffic-duration" },
            `${entry.durationMs} ms`,
          ),
      h("span", { class: "muted traffic-size" }, `${entry.size} B${entry.truncated ? " (cut)" : ""}`),
    ),
    // Server-sent content: text only, never markup.
    h("pre", { class: "traffic-json", testid: "traffic-json" }, prettyJson(entry.text, entry.truncated)),
  );
  row.dataset.direction = entry.direction;
  row.dataset.method = entry.method ?? "";
  return row;
}

function prettyJson(text: string, truncated: boolean): string {
  if (truncated) return `${text}… (cut: the message was too large to keep whole)`;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The protocol traffic of a server: every JSON-RPC message in and out, newest last, with its
 * direction, kind, method, the round trip of each response and its size; secrets masked by the
 * server before they reach the page. Polls for new messages while open.
 */
export function trafficPanel(serverId: string): HTMLElement {
  const list = h("div", { class: "traffic-list", testid: "traffic-list" });
  const note = h("div", { class: "muted traffic-note", testid: "traffic-note" });
  const filter = h("input", { type: "search", placeholder: "filter by method", testid: "traffic-filter" });
  let since = 0;
  let first: number | undefined;
  const applyFilter = () => {
    const term = filter.value.trim().toLowerCase();
    for (const row of list.querySelectorAll<HTMLElement>(".traffic-row"))
      row.hidden = term !== "" && !(row.dataset.method ?? "").toLowerCase().includes(term);
  };
  filter.addEventListener("input", applyFilter);
  let loading: Promise<void> | undefined;
  // One request at a time: the toggle and the poll may both ask at once.
  const load = () => {
    loading ??= loadNew().finally(() => {
      loading = undefined;
    });
    return loading;
  };
  const loadNew = async () => {
    const log = await api<TrafficLog>("GET", `/api/servers/${serverId}/traffic?since=${since}`);
    const fresh = log.entries.filter((entry) => entry.seq > since);
    if (fresh.length === 0 && since > 0) return;
    first ??= fresh[0]?.at;
    for (const entry of fresh) list.append(trafficRow(entry, first ?? entry.at));
    since = fresh.at(-1)?.seq ?? since;
    while (list.childElementCount > SHOWN_MESSAGES) list.firstElementChild?.remove();
    note.textContent =
      `${list.childElementCount} messages shown` +
      (log.dropped > 0 ? `; ${log.dropped} older ones no longer kept` : "") +
      ". Secrets (env and header values) are masked.";
    applyFilter();
  };
  const details = h(
    "details",
    { class: "traffic", testid: "traffic" },
    h("summary", {}, "Protocol traffic"),
    h(
      "div",
      { class: "traffic-toolbar" },
      filter,
      h(
        "button",
        {
          testid: "traffic-clear",
          onclick: () => {
            list.replaceChildren();
            first = undefined;
          },
        },
        "Clear view",
      ),
    ),
    note,
    list,
  );
  details.addEventListener("toggle", () => {
    if (details.open) void load().catch((error: Error) => (note.textContent = error.message));
  });
  every(details, { ms: POLL_MS, active: () => details.open }, load);
  return details;
}

/** What a running server wrote to stderr, refreshed while open. */
export function stderrPanel(serverId: string): HTMLElement {
  const output = h("pre", { class: "stderr-output", testid: "stderr-output" });
  const note = h("div", { class: "muted" });
  const load = async () => {
    const log = await api<StderrLog>("GET", `/api/servers/${serverId}/stderr`);
    // Server-sent text, shown as text.
    output.textContent = log.text || "Nothing on stderr yet.";
    note.textContent =
      log.dropped > 0 ? `${log.dropped} older characters no longer kept.` : "Secrets are masked.";
  };
  const details = h(
    "details",
    { class: "stderr", testid: "stderr" },
    h("summary", {}, "stderr"),
    note,
    output,
  );
  details.addEventListener("toggle", () => {
    if (details.open) void load().catch((error: Error) => (output.textContent = error.message));
  });
  every(details, { ms: POLL_MS, active: () => details.open }, load);
  return details;
}
