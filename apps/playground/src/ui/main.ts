import { errorMessage } from "@junction/types";
import type { PlaygroundState } from "../shared/api-types.js";
import { api, openEvents, token } from "./api.js";
import { mountChatView } from "./chat-view.js";
import { h } from "./dom.js";
import { closeElicitation, showElicitation } from "./elicitation-dialog.js";
import { appProgress, closeApp } from "./mcp-app-frame.js";
import { mountServeView } from "./serve-view.js";
import { appendServerLog, mountServersView, refreshServers } from "./servers-view.js";

async function start(): Promise<void> {
  const app = document.getElementById("app")!;
  if (!token) {
    app.replaceChildren(
      h(
        "div",
        { class: "banner error" },
        "Open the playground with the URL it printed in the terminal (it carries ?token=…).",
      ),
    );
    return;
  }
  const chat = h("main", { class: "view chat-view", testid: "chat-view" });
  const servers = h("main", { class: "view servers-view", testid: "servers-view" });
  const serve = h("main", { class: "view serve-view", testid: "serve-view" });
  const views = { chat, servers, serve };
  const nav = h("nav", { class: "top-nav" });
  const show = (name: keyof typeof views) => {
    for (const [key, view] of Object.entries(views)) view.hidden = key !== name;
    if (name === "serve") void serving.refresh();
    for (const button of nav.querySelectorAll("button"))
      button.classList.toggle("active", button.dataset.view === name);
    history.replaceState(null, "", `${location.pathname}${location.search}#${name}`);
  };
  for (const [name, label] of [
    ["servers", "Servers & inspector"],
    ["chat", "Chat"],
    ["serve", "Serve over MCP"],
  ] as const) {
    const button = h("button", { testid: `nav-${name}`, onclick: () => show(name) }, label);
    button.dataset.view = name;
    nav.append(button);
  }
  app.replaceChildren(
    h("header", { class: "top-bar" }, h("h1", {}, "Junction playground"), nav),
    servers,
    chat,
    serve,
  );
  const serving = mountServeView(serve);
  show(location.hash === "#chat" ? "chat" : location.hash === "#serve" ? "serve" : "servers");
  mountServersView(servers);
  const state = await api<PlaygroundState>("GET", "/api/state");
  await mountChatView(chat, state.providers);
  for (const request of state.elicitations) showElicitation(request);
  // A crashed server reconnects on its own: keep its status fresh while the servers view shows.
  setInterval(() => {
    if (!servers.hidden && document.visibilityState === "visible") void refreshServers();
  }, 4000);
  // The endpoint's clients and calls, fresh while the view shows.
  setInterval(() => {
    if (!serve.hidden && document.visibilityState === "visible") void serving.refresh();
  }, 1500);
  openEvents((event) => {
    switch (event.type) {
      case "servers-changed":
        void refreshServers();
        break;
      case "elicitation-request":
        showElicitation(event);
        break;
      case "elicitation-closed":
        closeElicitation(event.id);
        break;
      case "app-closed":
        void closeApp(event.appId, event.reason);
        break;
      case "app-progress":
        appProgress(event);
        break;
      case "server-log":
        appendServerLog(event);
        break;
      default: {
        // A newer server may send events this page does not know: ignore them.
        const unknown: never = event;
        void unknown;
      }
    }
  });
}

void start().catch((error: unknown) => {
  document
    .getElementById("app")
    ?.replaceChildren(h("div", { class: "banner error" }, String(errorMessage(error) ?? error)));
});
