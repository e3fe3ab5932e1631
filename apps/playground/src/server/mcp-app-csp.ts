/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): what a server's `ui://` resource and
 * its tools declare, read as untrusted input, and the Content-Security-Policy the playground
 * serves the app's document with. Pure: no I/O.
 */

/** The extension's identifier, advertised in the client's `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** What the playground advertises for the extension. */
export const MCP_APPS_CAPABILITY = { mimeTypes: [MCP_APP_MIME_TYPE] };

/** The domains an app's resource declares in `_meta.ui.csp`, as the playground accepted them. */
export interface AppCspDomains {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** The policy an app is served with, the domains it was built from, and what was dropped. */
export interface AppCsp {
  /** The `Content-Security-Policy` header of the app's document. */
  header: string;
  domains: AppCspDomains;
  /** One line per declared value that was not a plain origin and was left out. */
  warnings: string[];
}

const cspKeys = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const maximumDomains = 32;
// A scheme and a host (a `*.` wildcard label at most), an optional port; no path, no quotes,
// no spaces or semicolons that would add a directive, no keywords such as 'unsafe-eval'.
const originPattern =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/**
 * The tool's UI resource: `_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`,
 * when it is a `ui://` URI; otherwise `undefined`.
 */
export function uiResourceUriOf(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const ui = meta.ui;
  const uri = isRecord(ui) && typeof ui.resourceUri === "string" ? ui.resourceUri : meta["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") && uri.length <= 2048 ? uri : undefined;
}

/** Who may call a tool, from `_meta.ui.visibility`. @default both the model and the app */
export function toolVisibility(meta: unknown): { model: boolean; app: boolean } {
  const ui = isRecord(meta) ? meta.ui : undefined;
  const visibility = isRecord(ui) ? ui.visibility : undefined;
  if (!Array.isArray(visibility)) return { model: true, app: true };
  return { model: visibility.includes("model"), app: visibility.includes("app") };
}

/** Whether the resource asks for a visible border (`_meta.ui.prefersBorder`). */
export function prefersBorderOf(meta: unknown): boolean | undefined {
  const ui = isRecord(meta) ? meta.ui : undefined;
  return isRecord(ui) && typeof ui.prefersBorder === "boolean" ? ui.prefersBorder : undefined;
}

/**
 * Builds the app document's CSP from the resource's `_meta.ui.csp`. Nothing declared means no
 * origin may receive a request: inline script and style only, images and media from
 * `data:`/`blob:`, no fetch, no frames, no forms (WebRTC, which no CSP directive governs in
 * Chromium, stays open: see the README's MCP Apps section), and the `sandbox` directive (scripts
 * and the app's own origin only) so the document is sandboxed even when opened outside its
 * iframe. The policy is the sandbox proxy's header, which the view in it inherits (its `srcdoc`
 * frame shares the proxy's policy container). `frameAncestors` is the one page that may frame it
 * (the playground page that opened it, an origin the playground checked).
 */
export function buildAppCsp(meta: unknown, frameAncestors = "'self'"): AppCsp {
  const ui = isRecord(meta) ? meta.ui : undefined;
  const declared = isRecord(ui) && isRecord(ui.csp) ? ui.csp : {};
  const warnings: string[] = [];
  const domains = {} as AppCspDomains;
  for (const key of cspKeys) {
    const value = declared[key];
    const list: string[] = [];
    if (value !== undefined && !Array.isArray(value)) warnings.push(`csp.${key} is not a list; ignored.`);
    for (const entry of Array.isArray(value) ? value : []) {
      const origin = typeof entry === "string" ? entry.trim().toLowerCase().replace(/\/$/, "") : "";
      if (!originPattern.test(origin)) {
        warnings.push(`csp.${key}: ${JSON.stringify(entry).slice(0, 120)} is not an origin; ignored.`);
      } else if (list.length >= maximumDomains) {
        warnings.push(`csp.${key}: more than ${maximumDomains} origins; the rest ignored.`);
        break;
      } else if (!list.includes(origin)) list.push(origin);
    }
    domains[key] = list;
  }
  const sources = (list: string[], fallback: string) => (list.length > 0 ? list.join(" ") : fallback);
  const resources = domains.resourceDomains.join(" ");
  const withResources = (base: string) => (resources ? `${base} ${resources}` : base);
  const header = [
    "default-src 'none'",
    `script-src ${withResources("'unsafe-inline'")}`,
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources("data: blob:")}`,
    `font-src ${withResources("data:")}`,
    `media-src ${withResources("data: blob:")}`,
    `connect-src ${sources(domains.connectDomains, "'none'")}`,
    `frame-src ${sources(domains.frameDomains, "'none'")}`,
    `base-uri ${sources(domains.baseUriDomains, "'none'")}`,
    "object-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
    // The sandbox proxy and the view in it keep the app's own origin (never the page's): the
    // page's outer frame adds the rest of the sandbox (no top navigation, popups, forms, modals).
    "sandbox allow-scripts allow-same-origin",
  ].join("; ");
  return { header, domains, warnings };
}

/** An origin an app's policy lets it send requests to, and the kinds of request. */
export interface AppRequestOrigin {
  origin: string;
  /** What may go there, in words: "fetch and WebSocket", "frames", … */
  via: string[];
}

const requestKinds: [keyof AppCspDomains, string][] = [
  ["connectDomains", "fetch and WebSocket"],
  ["resourceDomains", "scripts, styles, images, fonts and media"],
  ["frameDomains", "frames"],
  ["baseUriDomains", "base URL"],
];

/**
 * Every origin the app's CSP lets receive a request (connect, resources, frames, base URI; form
 * submissions go nowhere: `form-action 'none'`), each with what may go there, in declared
 * order. Empty when the policy names none. WebRTC is not in it: no CSP directive governs it.
 */
export function appRequestOrigins(domains: AppCspDomains): AppRequestOrigin[] {
  const origins = new Map<string, string[]>();
  for (const [key, kind] of requestKinds) {
    for (const origin of domains[key]) origins.set(origin, [...(origins.get(origin) ?? []), kind]);
  }
  return [...origins].map(([origin, via]) => ({ origin, via }));
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
