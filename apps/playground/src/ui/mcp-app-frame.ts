import { errorMessage } from "@junction/types";
import type { AppApprovalBody, AppToolCallBody, OpenAppBody, PreviewAppBody } from "../shared/api-bodies.js";
import { api } from "./api.js";
import { type AppCallFeed, feedView } from "./app-call-feed.js";
import { h, jsonBlock, safeLinkUrl } from "./dom.js";
import {
  type BridgeDrops,
  BridgeError,
  MCP_APPS_PROTOCOL_VERSION,
  McpAppBridge,
  RPC_ERROR,
  TEARDOWN_TIMEOUT_MS,
} from "./mcp-app-bridge.js";

/** What the server answers when an app is opened (see server/mcp-apps.ts). */
interface OpenedApp {
  appId: string;
  /** The sandbox proxy's document, on the app's own origin. */
  frameUrl: string;
  /** The origin of the proxy and of the view in it (`http://<label>.localhost:<app port>`). */
  viewOrigin: string;
  /** The view's HTML, sent to the proxy in `ui/notifications/sandbox-resource-ready`. */
  html: string;
  resourceUri: string;
  server: string;
  /** Absent for a preview of a resource: no tool, no tool calls. */
  tool?: Record<string, unknown> & { name: string };
  csp: {
    connectDomains: string[];
    resourceDomains: string[];
    frameDomains: string[];
    baseUriDomains: string[];
  };
  /** Every origin the app's policy lets receive a request (server/mcp-app-csp.ts). */
  requestOrigins: { origin: string; via: string[] }[];
  warnings: string[];
  /** The permissions the resource declared and the server granted (server/mcp-app-permissions.ts). */
  permissions: Record<string, Record<string, never>>;
  /** Their Permissions Policy features, for the frame's `allow` attribute. */
  allow: string;
  permissionWarnings: string[];
  prefersBorder?: boolean;
}

/** The tool call an app belongs to. */
export interface AppCall {
  serverId: string;
  /** The tool's own name on its server (no prefix). */
  tool: string;
  /** The call's id (the model's tool call id in a chat), for `hostContext.toolInfo.id`. */
  callId?: string;
  /**
   * The call's arguments (as they stream, in a chat whose model streams them, then complete) and
   * how it ended, as they become known: the view may open while the call is still being written.
   */
  feed: AppCallFeed;
  /** A chat's: sends a `ui/message` the person agreed to, as the app's words. Absent elsewhere. */
  sendToChat?: (text: string) => Promise<void>;
}

/**
 * How a `ui/message` the person agreed to starts its chat turn: the model reads it as the app's
 * words, and the page shows such a turn as the app's, never as the person's.
 */
export const APP_MESSAGE_PREFIX =
  "[Sent by an MCP App in this chat, with the person's consent: the app's words, not the person's]\n";

/** The longest `ui/message` text the host passes on. */
const maximumAppMessageCharacters = 4000;

/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

const minimumHeight = 60;
const maximumHeight = 640;
/** The app's log lines kept under it, and the characters kept of each. */
const maximumLogLines = 20;
const maximumLogCharacters = 500;

/** The messages between the page and the sandbox proxy, never the view's (see server/mcp-app-proxy.ts). */
const sandboxMethodPrefix = "ui/notifications/sandbox-";

/**
 * The host's theme (`hostContext.styles`): the spec's CSS variables, as `light-dark()` pairs so a
 * view that follows `theme` gets both, and a font face for `--font-sans` from the system's own
 * fonts (`local()`, so nothing is fetched).
 */
export const HOST_STYLES = {
  variables: {
    "--color-background-primary": "light-dark(#ffffff, #16181d)",
    "--color-background-secondary": "light-dark(#f6f7f9, #1f2229)",
    "--color-background-tertiary": "light-dark(#eef0f3, #2a2e37)",
    "--color-background-inverse": "light-dark(#1f2329, #f6f7f9)",
    "--color-background-info": "light-dark(#eaf2ff, #15263f)",
    "--color-background-danger": "light-dark(#fdecec, #3a1717)",
    "--color-background-success": "light-dark(#eaf7ee, #14301d)",
    "--color-background-warning": "light-dark(#fff6e0, #3a2d0d)",
    "--color-text-primary": "light-dark(#1f2329, #eef0f3)",
    "--color-text-secondary": "light-dark(#5b6270, #a9b0bc)",
    "--color-text-inverse": "light-dark(#ffffff, #16181d)",
    "--color-text-info": "light-dark(#1d5fd1, #8db6ff)",
    "--color-text-danger": "light-dark(#b42318, #ff9b93)",
    "--color-text-success": "light-dark(#1e7a3c, #7fd69b)",
    "--color-text-warning": "light-dark(#8a5a00, #f5c76b)",
    "--color-border-primary": "light-dark(#d5d9e0, #3a3f4a)",
    "--color-border-secondary": "light-dark(#e6e9ee, #2e323c)",
    "--color-ring-primary": "light-dark(#1d5fd1, #8db6ff)",
    "--font-sans": '"Junction Sans", system-ui, -apple-system, "Segoe UI", sans-serif',
    "--font-mono": 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
    "--font-weight-normal": "400",
    "--font-weight-semibold": "600",
    "--font-text-sm-size": "13px",
    "--font-text-md-size": "14px",
    "--border-radius-sm": "4px",
    "--border-radius-md": "6px",
    "--border-width-regular": "1px",
  },
  css: {
    fonts:
      '@font-face { font-family: "Junction Sans"; src: local("Inter"), local("Segoe UI"), local("Helvetica Neue"), local("Arial"); font-display: swap; }',
  },
} as const;

/** A view on the page, by its container: what the host needs to take it down properly. */
interface OpenView {
  appId: string;
  /** Sends `ui/resource-teardown`, waits for the answer (bounded), then removes the frame. */
  teardown(reason: string): Promise<void>;
}

const openViews = new Map<HTMLElement, OpenView>();

/**
 * An MCP App under a tool result: the tool's `ui://` document in the sandbox proxy's inner
 * frame, on the app's own origin (never the page's; the app's CSP on both), fed the tool's input
 * and result, its requests carried by {@link McpAppBridge}. Its tool calls go through the server's
 * approval policy and ask the person here; links open only after the person agrees.
 */
export function mcpAppView(call: AppCall): HTMLElement {
  const header = h("div", { class: "mcp-app-header" }, "Opening the app…");
  const prompts = h("div", { class: "mcp-app-prompts" });
  const status = h("div", { class: "mcp-app-status muted", testid: "mcp-app-status" });
  const container = h("div", { class: "mcp-app", testid: "mcp-app" }, header, prompts, status);
  api<OpenedApp>("POST", `/api/servers/${call.serverId}/apps`, {
    tool: call.tool,
  } satisfies OpenAppBody).then(
    (opened) => mount({ container, header, prompts, status }, opened, call),
    (error: Error) => {
      header.replaceChildren(
        h("span", { class: "banner error" }, `The app could not open: ${error.message}`),
      );
    },
  );
  return container;
}

/**
 * A `ui://` resource of the Resources tab shown as an app preview: the same sandboxed frame from
 * the app origin, but opened without a tool, so the app gets no tool input or result and every
 * `tools/call` it makes is refused (here, and by the server).
 */
export function mcpAppPreview(serverId: string, uri: string): HTMLElement {
  const header = h("div", { class: "mcp-app-header" }, "Opening the preview…");
  const prompts = h("div", { class: "mcp-app-prompts" });
  const status = h("div", { class: "mcp-app-status muted", testid: "mcp-app-status" });
  const container = h("div", { class: "mcp-app", testid: "mcp-app-preview" }, header, prompts, status);
  api<OpenedApp>("POST", `/api/servers/${serverId}/apps/preview`, { uri } satisfies PreviewAppBody).then(
    (opened) => mount({ container, header, prompts, status }, opened, undefined),
    (error: Error) => {
      header.replaceChildren(
        h("span", { class: "banner error" }, `The preview could not open: ${error.message}`),
      );
    },
  );
  return container;
}

function mount(
  {
    container,
    header,
    prompts,
    status,
  }: { container: HTMLElement; header: HTMLElement; prompts: HTMLElement; status: HTMLElement },
  opened: OpenedApp,
  call: AppCall | undefined,
): void {
  header.replaceChildren(...headerOf(opened, call));
  header.after(
    h(
      "button",
      {
        class: "mcp-app-close",
        testid: "mcp-app-close",
        onclick: () => void openViews.get(container)?.teardown("You closed this app."),
      },
      "Close app",
    ),
  );
  for (const warning of opened.warnings) status.append(h("div", {}, `CSP: ${warning}`));
  for (const warning of opened.permissionWarnings) status.append(h("div", {}, `Permissions: ${warning}`));
  const frame = sandboxFrame(opened);
  container.dataset.appId = opened.appId;
  container.insertBefore(frame, status);

  const dropLine = h("div", { testid: "mcp-app-drops" });
  let initialized = false;
  let sentResource = false;
  const darkScheme = window.matchMedia("(prefers-color-scheme: dark)");
  const theme = () => (darkScheme.matches ? "dark" : "light");
  let sentTheme = theme();
  let sentWidth = -1;
  const containerDimensions = () => ({ maxHeight: maximumHeight, width: frame.clientWidth });
  const contextChanged = (context: Record<string, unknown>) => {
    if (initialized) bridge.notify("ui/notifications/host-context-changed", context);
  };
  const onScheme = () => {
    if (theme() === sentTheme) return;
    sentTheme = theme();
    contextChanged({ theme: sentTheme });
  };
  const resized = new ResizeObserver(() => {
    // A width of 0 is a frame on its way out (or hidden): nothing the app can lay out for.
    if (frame.clientWidth === sentWidth || frame.clientWidth === 0) return;
    sentWidth = frame.clientWidth;
    contextChanged({ containerDimensions: containerDimensions() });
  });
  const bridge: McpAppBridge = new McpAppBridge({
    post: (message) => frame.contentWindow?.postMessage(message, opened.viewOrigin),
    onDrop: (drops: BridgeDrops) => {
      if (!dropLine.isConnected) status.append(dropLine);
      dropLine.textContent = `Refused messages: ${drops.rate} over the rate limit, ${drops.size} too large, ${drops.invalid} not JSON-RPC.`;
    },
    handlers: {
      initialize: () =>
        initializeAnswer({ opened, call, theme: sentTheme, containerDimensions: containerDimensions() }),
      initialized: () => {
        if (!initialized) {
          initialized = true;
          sentWidth = frame.clientWidth;
          resized.observe(frame);
          darkScheme.addEventListener("change", onScheme);
        }
        callData?.initialized();
      },
      callTool: (name, args, progressToken): Promise<unknown> => {
        if (!call) {
          return Promise.reject(
            new BridgeError(RPC_ERROR.refused, "This is a preview of the resource: it may call no tools."),
          );
        }
        return callTool({
          opened,
          prompts,
          name,
          args,
          // Progress is a notification: a view that has not sent initialized gets none.
          ...(progressToken === undefined || !initialized
            ? {}
            : { progress: { bridge, token: progressToken } }),
        });
      },
      openLink: (url) => openLink(prompts, url),
      sizeChanged: ({ height }) => {
        if (height !== undefined)
          frame.style.height = `${Math.round(Math.min(maximumHeight, Math.max(minimumHeight, height)))}px`;
      },
      message: (params) => appMessage({ prompts, params, sendToChat: call?.sendToChat }),
      log: (entry) => appendLog(status, entry),
      requestTeardown: () => void view.teardown("The app asked to be closed, and was."),
    },
  });
  // The call's arguments and outcome, sent in the spec's order once the view is initialized.
  const callData = call
    ? feedView({ feed: call.feed, notify: (method, params) => bridge.notify(method, params) })
    : undefined;
  const stopListening = () => {
    callData?.close();
    window.removeEventListener("message", listener);
    resized.disconnect();
    darkScheme.removeEventListener("change", onScheme);
    openViews.delete(container);
    bridge.close();
  };
  const listener = (event: MessageEvent) => {
    if (!frame.isConnected) {
      stopListening();
      return;
    }
    // Only this iframe's window, and only while it holds the app's own origin (the proxy's).
    if (event.source === null || event.source !== frame.contentWindow || event.origin !== opened.viewOrigin)
      return;
    const method = (event.data as { method?: unknown } | null)?.method;
    if (typeof method === "string" && method.startsWith(sandboxMethodPrefix)) {
      if (method === `${sandboxMethodPrefix}proxy-ready` && !sentResource) {
        sentResource = true;
        frame.contentWindow.postMessage(
          {
            jsonrpc: "2.0",
            method: `${sandboxMethodPrefix}resource-ready`,
            params: { html: opened.html, csp: opened.csp, permissions: opened.permissions },
          },
          opened.viewOrigin,
        );
      }
      return;
    }
    // Before the view is loaded nothing but the proxy speaks.
    if (sentResource) bridge.receive(event.data);
  };
  window.addEventListener("message", listener);
  let tearingDown: Promise<void> | undefined;
  const view: OpenView = {
    appId: opened.appId,
    teardown: (reason) => {
      // The spec's order: ui/resource-teardown, the app's answer (or the bound), then the frame goes.
      // A view that never sent `initialized` is sent nothing (the host may not, before it).
      const told = initialized
        ? bridge.teardown(reason, TEARDOWN_TIMEOUT_MS)
        : Promise.resolve(bridge.close()).then(() => "not initialized" as const);
      tearingDown ??= told.then((answer) => {
        stopListening();
        frame.remove();
        container.querySelector(".mcp-app-close")?.remove();
        prompts.replaceChildren();
        // What the app logged stays (its teardown's lines among them), then why it closed.
        status.replaceChildren(
          ...status.querySelectorAll('[data-testid="mcp-app-log"]'),
          h("div", { class: "banner error", testid: "mcp-app-closed" }, reason),
        );
        if (answer === "no answer")
          status.append(
            h(
              "div",
              { class: "muted", testid: "mcp-app-teardown-unanswered" },
              `The app did not answer ui/resource-teardown within ${TEARDOWN_TIMEOUT_MS / 1000} s; it was removed anyway.`,
            ),
          );
      });
      return tearingDown;
    },
  };
  openViews.set(container, view);
}

/** The app card's header: what it is, where it comes from, how it is sandboxed. */
function headerOf(opened: OpenedApp, call: AppCall | undefined): (Node | string)[] {
  return [
    h("span", { class: "badge" }, call ? "MCP App" : "MCP App preview"),
    " ",
    h("span", { class: "uri" }, opened.resourceUri),
    h(
      "span",
      { class: "muted" },
      ` · server ${opened.server} · sandboxed, ${networkLabel(opened.requestOrigins)}${call ? "" : " · no tools (a preview, not a tool call)"}`,
    ),
    h("div", { class: "mcp-app-webrtc", testid: "mcp-app-webrtc" }, webrtcWarning(call !== undefined)),
  ];
}

/**
 * The sandbox proxy's frame, on the app's own origin (never this page's, so no access to the
 * page, its token or its storage): scripts and that origin only, no top navigation, popups, forms
 * or modals; the proxy and the view in it are sandboxed by their CSP too. The Referer is this
 * page's origin only (no path, no token): the app origin hands the proxy only to that page.
 * Browser features only as the resource declared them (camera, microphone, …), else none.
 */
function sandboxFrame(opened: OpenedApp): HTMLIFrameElement {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  frame.setAttribute("allow", opened.allow);
  frame.setAttribute("referrerpolicy", "origin");
  frame.setAttribute("title", `MCP App ${opened.resourceUri}`);
  frame.dataset.testid = "mcp-app-frame";
  frame.className = opened.prefersBorder === false ? "mcp-app-frame borderless" : "mcp-app-frame";
  frame.style.height = "160px";
  frame.src = opened.frameUrl;
  return frame;
}

/** The host's answer to the view's `ui/initialize`: its capabilities and its context. */
function initializeAnswer(parts: {
  opened: OpenedApp;
  call: AppCall | undefined;
  theme: string;
  containerDimensions: { maxHeight: number; width: number };
}) {
  const { opened, call } = parts;
  return {
    protocolVersion: MCP_APPS_PROTOCOL_VERSION,
    hostInfo: { name: "junction-playground", version: "0.0.0" },
    hostCapabilities: {
      openLinks: {},
      serverTools: {},
      logging: {},
      // Text messages, each with the person's consent, and only where there is a chat.
      ...(call?.sendToChat ? { message: { text: {} } } : {}),
      sandbox: {
        csp: opened.csp,
        ...(Object.keys(opened.permissions).length > 0 ? { permissions: opened.permissions } : {}),
      },
    },
    hostContext: {
      ...(opened.tool
        ? { toolInfo: { ...(call?.callId ? { id: call.callId } : {}), tool: opened.tool } }
        : {}),
      theme: parts.theme,
      styles: HOST_STYLES,
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      platform: "web",
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      containerDimensions: parts.containerDimensions,
    },
  };
}

/**
 * `ui/message`: text only, bounded, and sent only once the person agrees, as the app's words
 * (see {@link APP_MESSAGE_PREFIX}); refused where there is no chat.
 */
async function appMessage({
  prompts,
  params,
  sendToChat,
}: {
  prompts: HTMLElement;
  params: Record<string, unknown>;
  sendToChat: ((text: string) => Promise<void>) | undefined;
}): Promise<Record<string, unknown>> {
  if (!sendToChat)
    throw new BridgeError(
      RPC_ERROR.refused,
      "ui/message is refused here: only an app in the chat may send a message, with the person's consent.",
    );
  const content = params.content;
  if (params.role !== "user" || !Array.isArray(content) || content.length === 0)
    throw new BridgeError(
      RPC_ERROR.invalidParams,
      'ui/message needs role "user" and a list of content blocks.',
    );
  const texts: string[] = [];
  for (const block of content as unknown[]) {
    const part = block as { type?: unknown; text?: unknown } | null;
    if (part?.type !== "text" || typeof part.text !== "string")
      throw new BridgeError(
        RPC_ERROR.invalidParams,
        "ui/message: the playground takes text content blocks only.",
      );
    texts.push(part.text);
  }
  const text = texts.join("\n");
  if (text.trim() === "" || text.length > maximumAppMessageCharacters)
    throw new BridgeError(
      RPC_ERROR.invalidParams,
      `ui/message: the text must be 1–${maximumAppMessageCharacters} characters.`,
    );
  const send = await ask(
    prompts,
    {
      testid: "app-message",
      question:
        "The app asks to send this message into the chat. It will be shown and sent as the app's words, not yours. Send it?",
      detail: h("pre", { class: "text-block" }, text),
    },
    ["Send", "Don't send"],
  );
  if (!send) return { isError: true };
  try {
    await sendToChat(text);
  } catch (error) {
    throw new BridgeError(RPC_ERROR.refused, errorMessage(error));
  }
  return {};
}

/** Shows one of the app's log lines under it, as the app's own untrusted text (never as markup). */
function appendLog(status: HTMLElement, entry: { level: string; logger?: string; data: unknown }): void {
  let text: string;
  try {
    text = typeof entry.data === "string" ? entry.data : (JSON.stringify(entry.data) ?? String(entry.data));
  } catch {
    text = "(a value that is not JSON)";
  }
  if (text.length > maximumLogCharacters) text = `${text.slice(0, maximumLogCharacters)}…`;
  const lines = status.querySelectorAll('[data-testid="mcp-app-log"]');
  if (lines.length >= maximumLogLines) lines[0]?.remove();
  status.append(
    h(
      "div",
      { class: "mcp-app-log muted", testid: "mcp-app-log" },
      `App log (${entry.level}${entry.logger ? `, ${entry.logger.slice(0, 100)}` : ""}; the app's own words): ${text}`,
    ),
  );
}

/**
 * Empties `parent` now, except that a child holding an open app is only hidden until the app's
 * teardown is over (an iframe moved or removed loses its document at once, so it cannot be told
 * later); the caller appends what replaces it straight away.
 */
export function clearAfterTeardown(parent: HTMLElement, reason: string): void {
  for (const child of [...parent.childNodes]) {
    if (child instanceof HTMLElement && hasOpenApps(child)) {
      child.hidden = true;
      child.inert = true;
      // What departs is no longer the page: its test ids go, so nothing takes it for the live copy.
      for (const element of [child, ...child.querySelectorAll<HTMLElement>("[data-testid]")])
        delete element.dataset.testid;
      void teardownAppsIn(child, reason).then(() => child.remove());
    } else child.remove();
  }
}

/** Whether an app that was not torn down yet is open inside `root`. */
export function hasOpenApps(root: Node): boolean {
  return [...openViews.keys()].some((container) => root.contains(container));
}

/**
 * Takes down every open app inside `root` the way the spec asks (`ui/resource-teardown`, the
 * app's answer or {@link TEARDOWN_TIMEOUT_MS}, then the frame goes), before the host replaces or
 * removes that part of the page.
 */
export function teardownAppsIn(root: Node, reason: string): Promise<void> {
  const views = [...openViews].filter(([container]) => root.contains(container)).map(([, view]) => view);
  return Promise.all(views.map((view) => view.teardown(reason))).then(() => undefined);
}

/**
 * Closes an open app the host closed (its server was edited, restarted or removed): the app is
 * sent `ui/resource-teardown` and given {@link TEARDOWN_TIMEOUT_MS} to answer, then its frame and
 * its prompts go, a line says why.
 */
export async function closeApp(appId: string, reason: string): Promise<void> {
  const views = [...openViews].filter(([, view]) => view.appId === appId).map(([, view]) => view);
  await Promise.all(views.map((view) => view.teardown(reason)));
  for (const container of document.querySelectorAll<HTMLElement>('[data-testid^="mcp-app"]')) {
    if (container.dataset.appId !== appId) continue;
    container.querySelector("iframe")?.remove();
    container.querySelector(".mcp-app-close")?.remove();
    container.querySelector(".mcp-app-prompts")?.replaceChildren();
    container
      .querySelector(".mcp-app-status")
      ?.replaceChildren(h("div", { class: "banner error", testid: "mcp-app-closed" }, reason));
  }
}

/**
 * Every origin the app's policy lets receive a request, with what may go there; "declares no
 * origin" only when there is none. Never "no network": WebRTC stays open (see webrtcWarning).
 */
function networkLabel(origins: OpenedApp["requestOrigins"]): string {
  if (origins.length === 0) return "declares no origin it may send requests to";
  return `may send requests to ${origins.map(({ origin, via }) => `${origin} (${via.join("; ")})`).join(", ")}`;
}

/**
 * No browser policy stops WebRTC (Chromium has no CSP directive, Permissions-Policy or sandbox
 * flag for it): an app can reach any server whatever it declares. Said plainly under every app.
 */
function webrtcWarning(withTool: boolean): string {
  return withTool
    ? "Not blocked: WebRTC. Whatever it declares, this app can send what it is given (the tool's input and result) to any server. Do not type passwords, API keys or other secrets into this tool's form."
    : "Not blocked: WebRTC. Whatever it declares, this app can reach any server.";
}

/**
 * A note for the form of a tool that opens an app (filled once the page knows it does): what the
 * person types there reaches the app, and the app can send it anywhere through WebRTC.
 */
export function appFormWarning(serverId: string, tool: string): HTMLElement {
  const note = h("div", { class: "banner warn", testid: "app-form-warning" });
  note.hidden = true;
  void appTools(serverId)
    .catch(() => new Set<string>())
    .then((tools) => {
      if (!tools.has(tool)) return;
      note.textContent =
        "This tool opens an MCP App. Whatever the app declares, it can send what you type here to any server (through WebRTC, which no browser policy blocks): do not type passwords, API keys or other secrets.";
      note.hidden = false;
    });
  return note;
}

/** Where the server's progress for an app's call goes: the app's bridge, under the app's own token. */
interface ProgressTarget {
  bridge: McpAppBridge;
  token: string | number;
}

/** The app calls waiting for progress, by the page-made id the server's `app-progress` events carry. */
const progressTargets = new Map<string, ProgressTarget & { appId: string }>();

/**
 * An `app-progress` event: the server's `notifications/progress` for an app's `tools/call`, sent
 * on to that app as `notifications/progress` with the token the app chose.
 */
export function appProgress(event: {
  appId: string;
  progressId: string;
  progress: number;
  total?: number;
  message?: string;
}): void {
  const target = progressTargets.get(event.progressId);
  if (!target || target.appId !== event.appId) return;
  target.bridge.notify("notifications/progress", {
    progressToken: target.token,
    progress: event.progress,
    ...(event.total === undefined ? {} : { total: event.total }),
    ...(event.message === undefined ? {} : { message: event.message }),
  });
}

async function callTool({
  opened,
  prompts,
  name,
  args,
  progress,
}: {
  opened: OpenedApp;
  prompts: HTMLElement;
  name: string;
  args: Record<string, unknown>;
  progress?: ProgressTarget;
}): Promise<unknown> {
  const progressId = progress ? randomId() : undefined;
  if (progress && progressId) progressTargets.set(progressId, { ...progress, appId: opened.appId });
  try {
    return await callToolOnce(opened, prompts, { name, args, ...(progressId ? { progressId } : {}) });
  } finally {
    if (progressId) progressTargets.delete(progressId);
  }
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function callToolOnce(
  opened: OpenedApp,
  prompts: HTMLElement,
  { name, args, progressId }: { name: string; args: Record<string, unknown>; progressId?: string },
): Promise<unknown> {
  let answer: { result?: unknown; approval?: { id: string; name: string; input: unknown } };
  try {
    answer = await api("POST", `/api/apps/${opened.appId}/tools/call`, {
      name,
      arguments: args,
      ...(progressId ? { progressId } : {}),
    } satisfies AppToolCallBody);
  } catch (error) {
    throw new BridgeError(RPC_ERROR.refused, errorMessage(error));
  }
  if (!answer.approval) return answer.result;
  const approval = answer.approval;
  const approve = await ask(
    prompts,
    {
      testid: "app-approval",
      question: `The app asks to run ${approval.name} with these arguments. Allow?`,
      detail: jsonBlock(approval.input),
    },
    ["Approve", "Deny"],
  );
  let answered: { result?: unknown; denied?: boolean };
  try {
    answered = await api("POST", `/api/apps/${opened.appId}/approvals/${encodeURIComponent(approval.id)}`, {
      approve,
    } satisfies AppApprovalBody);
  } catch (error) {
    throw new BridgeError(RPC_ERROR.refused, errorMessage(error));
  }
  if (answered.denied)
    throw new BridgeError(RPC_ERROR.refused, `The person denied the call of ${approval.name}.`);
  return answered.result;
}

async function openLink(prompts: HTMLElement, url: string): Promise<Record<string, unknown>> {
  const safe = safeLinkUrl(url);
  if (!safe) throw new BridgeError(RPC_ERROR.invalidParams, "Only http and https links open.");
  const yes = await ask(
    prompts,
    {
      testid: "app-open-link",
      question: "The app asks to open this link in a new tab:",
      detail: h("div", { class: "uri" }, safe),
    },
    ["Open", "Cancel"],
  );
  if (!yes) return { isError: true };
  window.open(safe, "_blank", "noopener,noreferrer");
  return {};
}

/** Asks the person in the app's own prompt area; resolves `true` for the first button. */
function ask(
  prompts: HTMLElement,
  { testid, question, detail }: { testid: string; question: string; detail: HTMLElement },
  [yes, no]: [string, string],
): Promise<boolean> {
  return new Promise((resolve) => {
    const answer = (value: boolean) => {
      prompt.remove();
      resolve(value);
    };
    const prompt = h(
      "div",
      { class: "approval", testid },
      h("span", {}, question),
      detail,
      h("button", { class: "primary", testid: `${testid}-yes`, onclick: () => answer(true) }, yes),
      h("button", { class: "danger", testid: `${testid}-no`, onclick: () => answer(false) }, no),
    );
    prompts.append(prompt);
  });
}

const appToolsCache = new Map<string, { at: number; tools: Promise<Set<string>> }>();
const appToolsLifetimeMs = 15_000;

/** The names of a server's tools that have an app, cached a few seconds per server id. */
function appTools(serverId: string): Promise<Set<string>> {
  const cached = appToolsCache.get(serverId);
  if (cached && performance.now() - cached.at < appToolsLifetimeMs) return cached.tools;
  const tools = api<{ tool: string }[]>("GET", `/api/servers/${serverId}/apps`).then(
    (list) => new Set(list.map((entry) => entry.tool)),
  );
  tools.catch(() => appToolsCache.delete(serverId));
  appToolsCache.set(serverId, { at: performance.now(), tools });
  return tools;
}

/** Whether a server's tool opens an app (from the cached list of its app tools). */
export async function toolHasApp(serverId: string, tool: string): Promise<boolean> {
  return (await appTools(serverId).catch(() => new Set<string>())).has(tool);
}
