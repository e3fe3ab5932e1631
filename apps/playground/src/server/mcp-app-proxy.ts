/**
 * The MCP Apps sandbox proxy (2026-01-26, "Sandbox proxy"): the document the app origin serves
 * into the page's outer iframe. It tells the page it is ready
 * (`ui/notifications/sandbox-proxy-ready`), loads the view's HTML it is then sent
 * (`ui/notifications/sandbox-resource-ready`) into an inner iframe, and relays every other
 * message between the page and the view, in both directions, untouched. Pure: no I/O.
 *
 * The inner iframe is `srcdoc` with `allow-scripts allow-same-origin`: the view has the proxy's
 * origin (the app's own `<label>.localhost` origin, never the page's) and inherits the proxy
 * document's policy container, so the app's CSP (sent as the proxy's header) holds for the view
 * too, as do the sandbox flags the page put on the outer frame. The view can reach into the proxy
 * (same origin): the proxy holds nothing but the app's own HTML, and the page treats everything
 * from the proxy's window as the app's untrusted words.
 */

/**
 * The origin an app's sandbox proxy and view live on: `http://<label>.localhost:<app port>`.
 * Browsers resolve every `*.localhost` name to loopback themselves, so each app gets an origin of
 * its own (another app's, the page's and the API's are all different origins) on the one
 * listener, with no DNS and no certificate.
 */
export function viewOriginOf(label: string, appPort: number): string {
  return `http://${label}.localhost:${appPort}`;
}

/** What the page's CSP lets it frame: any app origin on the app port. */
export function viewFrameSource(appPort: number): string {
  return `http://*.localhost:${appPort}`;
}

/** The messages that belong to the page and the proxy, never relayed to or from the view. */
export const SANDBOX_METHOD_PREFIX = "ui/notifications/sandbox-";

/** The inner iframe's sandbox: scripts and the proxy's (the app's) origin; nothing else. */
export const VIEW_SANDBOX = "allow-scripts allow-same-origin";

/**
 * The proxy document for a view opened by the page at `pageOrigin` (an origin the playground
 * checked: `http://host:port`). Messages are taken from that page's window and the inner frame's
 * only, and sent to the page with `pageOrigin` as the target. The view's frame gets `allow`: the
 * Permissions Policy features the app declared (mcp-app-permissions.ts), none by default.
 */
export function sandboxProxyDocument(pageOrigin: string, allow = ""): string {
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head>
<body>
<script>
(() => {
  "use strict";
  const page = window.parent;
  const pageOrigin = ${JSON.stringify(pageOrigin)};
  const prefix = ${JSON.stringify(SANDBOX_METHOD_PREFIX)};
  let view;
  const methodOf = (data) =>
    typeof data === "object" && data !== null && typeof data.method === "string" ? data.method : undefined;
  const load = (params) => {
    if (view || typeof params !== "object" || params === null || typeof params.html !== "string") return;
    view = document.createElement("iframe");
    view.setAttribute("sandbox", ${JSON.stringify(VIEW_SANDBOX)});
    view.setAttribute("allow", ${JSON.stringify(allow)});
    view.setAttribute("title", "MCP App view");
    view.srcdoc = params.html;
    document.body.append(view);
  };
  window.addEventListener("message", (event) => {
    const method = methodOf(event.data);
    if (event.source === page && event.origin === pageOrigin) {
      if (method === prefix + "resource-ready") load(event.data.params);
      else if (!method?.startsWith(prefix)) view?.contentWindow?.postMessage(event.data, location.origin);
      return;
    }
    if (view && event.source === view.contentWindow && !method?.startsWith(prefix))
      page.postMessage(event.data, pageOrigin);
  });
  page.postMessage({ jsonrpc: "2.0", method: prefix + "proxy-ready", params: {} }, pageOrigin);
})();
</script>
</body>
</html>
`;
}
