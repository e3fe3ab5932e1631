import { buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import { describe, expect, it } from "vitest";
import { appPermissionsOf } from "./mcp-app-permissions.js";

describe("appPermissionsOf", () => {
  it("grants what the resource declares, and only that", () => {
    expect(appPermissionsOf({ ui: { permissions: { camera: {}, clipboardWrite: {} } } })).toEqual({
      permissions: { camera: {}, clipboardWrite: {} },
      allow: "camera; clipboard-write",
      warnings: [],
    });
    expect(appPermissionsOf({ ui: { csp: {} } })).toEqual({ permissions: {}, allow: "", warnings: [] });
    expect(appPermissionsOf(undefined)).toEqual({ permissions: {}, allow: "", warnings: [] });
  });

  it("writes the allow attribute the way ext-apps 2.x's own host does", () => {
    const all = { camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} };
    expect(appPermissionsOf({ ui: { permissions: all } }).allow).toBe(buildAllowAttribute(all));
    expect(appPermissionsOf({ ui: { permissions: { geolocation: {} } } }).allow).toBe(
      buildAllowAttribute({ geolocation: {} }),
    );
  });

  it("leaves out, with a warning, what the spec does not define or a value that is not an object", () => {
    const grant = appPermissionsOf({
      ui: { permissions: { microphone: true, usb: {}, camera: {}, "display-capture; *": {} } },
    });
    expect(grant.permissions).toEqual({ camera: {} });
    // Never a feature of the server's choosing, nor an allowlist smuggled in a name.
    expect(grant.allow).toBe("camera");
    expect(grant.warnings).toEqual([
      "_meta.ui.permissions.microphone is not an object ({}); it was not granted.",
      "_meta.ui.permissions.usb is not a permission MCP Apps defines (camera, microphone, geolocation, clipboardWrite); it was ignored.",
      "_meta.ui.permissions.display-capture; * is not a permission MCP Apps defines (camera, microphone, geolocation, clipboardWrite); it was ignored.",
    ]);
    expect(appPermissionsOf({ ui: { permissions: ["camera"] } })).toEqual({
      permissions: {},
      allow: "",
      warnings: ['_meta.ui.permissions is ["camera"], not an object; no permission was granted.'],
    });
  });
});
