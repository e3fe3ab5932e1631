import type { ToolCallRecord } from "../shared/api-types.js";
import { api } from "./api.js";
import { AppCallFeed } from "./app-call-feed.js";
import { h } from "./dom.js";
import { mcpAppView, toolHasApp } from "./mcp-app-frame.js";

/** A chat card's app: the slot it opens in, and the feed that tells it of the call. */
interface CardApp {
  callId: string;
  slot: HTMLElement;
  feed: AppCallFeed;
}

/** The cards that may hold an app (their tool is a server's), by card element. */
const cardApps = new WeakMap<HTMLElement, CardApp>();

/**
 * Opens the app of a chat card's tool under the card, when the tool has one: as soon as the card
 * is first shown, so while the model still streams the call's arguments (the spec lets the host
 * render early) the view gets them as they come. A call that was denied or stopped before its
 * card was shown opens none.
 */
export function openChatApp(
  card: HTMLElement,
  call: ToolCallRecord,
  sendToChat: (text: string) => Promise<void>,
): void {
  const server = call.server;
  if (!server || !call.name.startsWith(`${server}_`)) return;
  if (call.status === "denied" || call.status === "stopped") return;
  const slot = h("div", { class: "tool-card-app" });
  card.append(slot);
  const feed = new AppCallFeed();
  cardApps.set(card, { callId: call.id, slot, feed });
  feedCall(feed, call);
  const tool = call.name.slice(server.length + 1);
  void serverIdOf(server).then(async (serverId) => {
    if (!serverId || !(await toolHasApp(serverId, tool))) return;
    slot.append(mcpAppView({ serverId, tool, callId: call.id, feed, sendToChat }));
  });
}

/**
 * Shows `call` in the card that already shows it, when that card may hold an app: its content
 * becomes `fresh`'s, its app slot (and the view's iframe in it) stays where it is, since an iframe
 * that is moved or removed loses its document. Returns whether it did; otherwise the caller
 * replaces the card.
 */
export function updateChatCard(card: HTMLElement, fresh: HTMLElement, call: ToolCallRecord): boolean {
  const app = cardApps.get(card);
  if (!app || app.callId !== call.id) return false;
  for (const child of [...card.children]) if (child !== app.slot) child.remove();
  app.slot.before(...fresh.children);
  card.className = fresh.className;
  for (const [key, value] of Object.entries(fresh.dataset)) card.dataset[key] = value;
  feedCall(app.feed, call);
  return true;
}

/** Tells a card's feed what the transcript now says of its call. */
function feedCall(feed: AppCallFeed, call: ToolCallRecord): void {
  if (call.inputStreaming) {
    if (typeof call.input === "object" && call.input !== null && call.status === "running")
      feed.partial(call.input as Record<string, unknown>);
  } else feed.input(call.input);
  if (call.status === "done" && call.result !== undefined) feed.end({ result: call.result });
  else if (call.status === "denied")
    feed.end({ cancelled: "The call did not run: it was denied, or its run failed." });
  else if (call.status === "stopped") feed.end({ cancelled: "The run was stopped before the call ended." });
}

/** The id of the server a chat tool name is prefixed with, or undefined when none has that name. */
async function serverIdOf(name: string): Promise<string | undefined> {
  const servers = await api<{ id: string; name: string }[]>("GET", "/api/servers").catch(() => []);
  return servers.find((candidate) => candidate.name === name)?.id;
}
