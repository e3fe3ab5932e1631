import { describe, expect, it } from "vitest";
import {
  appRequestOrigins,
  buildAppCsp,
  prefersBorderOf,
  toolVisibility,
  uiResourceUriOf,
} from "./mcp-app-csp.js";

describe("MCP Apps metadata and the app's CSP", () => {
  it("finds a tool's ui:// resource in _meta.ui.resourceUri or the legacy flat key, and nothing else", () => {
    expect(uiResourceUriOf({ ui: { resourceUri: "ui://apps/counter.html" } })).toBe("ui://apps/counter.html");
    expect(uiResourceUriOf({ "ui/resourceUri": "ui://legacy/view" })).toBe("ui://legacy/view");
    expect(uiResourceUriOf({ ui: { resourceUri: "https://evil.example/app.html" } })).toBeUndefined();
    expect(uiResourceUriOf({ ui: { resourceUri: 42 } })).toBeUndefined();
    expect(uiResourceUriOf(undefined)).toBeUndefined();
    expect(uiResourceUriOf("ui://x")).toBeUndefined();
  });

  it("reads visibility and prefersBorder", () => {
    expect(toolVisibility(undefined)).toEqual({ model: true, app: true });
    expect(toolVisibility({ ui: { visibility: ["app"] } })).toEqual({ model: false, app: true });
    expect(toolVisibility({ ui: { visibility: ["model"] } })).toEqual({ model: true, app: false });
    expect(prefersBorderOf({ ui: { prefersBorder: false } })).toBe(false);
    expect(prefersBorderOf({ ui: { prefersBorder: "no" } })).toBeUndefined();
  });

  it("serves an app that declares nothing with no origin it may send requests to, sandboxed by its own CSP", () => {
    expect(buildAppCsp(undefined)).toEqual({
      header:
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; frame-src 'none'; base-uri 'none'; object-src 'none'; worker-src 'none'; manifest-src 'none'; form-action 'none'; frame-ancestors 'self'; sandbox allow-scripts allow-same-origin",
      domains: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      warnings: [],
    });
  });

  it("adds declared origins to their directives", () => {
    const csp = buildAppCsp({
      ui: {
        csp: {
          connectDomains: ["https://api.example.com", "wss://live.example.com:8443/"],
          resourceDomains: ["https://*.cdn.example.com"],
          frameDomains: ["https://www.youtube.com"],
        },
      },
    });
    expect(csp.header).toContain("connect-src https://api.example.com wss://live.example.com:8443;");
    expect(csp.header).toContain("script-src 'unsafe-inline' https://*.cdn.example.com;");
    expect(csp.header).toContain("img-src data: blob: https://*.cdn.example.com;");
    expect(csp.header).toContain("frame-src https://www.youtube.com;");
    expect(csp.header).toContain("base-uri 'none';");
    expect(csp.warnings).toEqual([]);
  });

  it("drops whatever is not a plain origin, so a declaration cannot add a directive or a keyword", () => {
    const csp = buildAppCsp({
      ui: {
        csp: {
          connectDomains: [
            "*",
            "'unsafe-eval'",
            "http://x; script-src *",
            "https://ok.example.com/path",
            "data:",
            7,
          ],
          resourceDomains: "https://cdn.example.com",
        },
      },
    });
    expect(csp.domains.connectDomains).toEqual([]);
    expect(csp.header).toContain("connect-src 'none';");
    expect(csp.header).not.toContain("unsafe-eval");
    expect(csp.header.match(/script-src/g)).toHaveLength(1);
    expect(csp.warnings).toEqual([
      'csp.connectDomains: "*" is not an origin; ignored.',
      "csp.connectDomains: \"'unsafe-eval'\" is not an origin; ignored.",
      'csp.connectDomains: "http://x; script-src *" is not an origin; ignored.',
      'csp.connectDomains: "https://ok.example.com/path" is not an origin; ignored.',
      'csp.connectDomains: "data:" is not an origin; ignored.',
      "csp.connectDomains: 7 is not an origin; ignored.",
      "csp.resourceDomains is not a list; ignored.",
    ]);
  });
  it("names every origin that may receive a request, whichever directive lets it, and none for an app that declares none", () => {
    expect(appRequestOrigins(buildAppCsp(undefined).domains)).toEqual([]);
    const csp = buildAppCsp({
      ui: {
        csp: {
          connectDomains: ["https://api.example.com"],
          resourceDomains: ["https://attacker.example", "https://cdn.example.com"],
          frameDomains: ["https://attacker.example"],
          baseUriDomains: ["https://base.example"],
        },
      },
    });
    expect(appRequestOrigins(csp.domains)).toEqual([
      { origin: "https://api.example.com", via: ["fetch and WebSocket"] },
      { origin: "https://attacker.example", via: ["scripts, styles, images, fonts and media", "frames"] },
      { origin: "https://cdn.example.com", via: ["scripts, styles, images, fonts and media"] },
      { origin: "https://base.example", via: ["base URL"] },
    ]);
    // Forms go nowhere, whatever is declared.
    expect(csp.header).toContain("form-action 'none';");
  });
});
