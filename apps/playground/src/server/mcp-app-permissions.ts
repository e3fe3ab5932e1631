import { isRecord } from "./mcp-app-csp.js";

/**
 * The browser features an MCP App's resource asks for (`_meta.ui.permissions`, 2026-01-26): each
 * one declared (as an object, `{}`) becomes a Permissions Policy feature in the `allow` attribute
 * of both the sandbox proxy's frame and the view's frame inside it, and nothing else does. The
 * browser still asks the person before a page uses the camera, the microphone or the location.
 */

/** The permissions the spec defines, and the Permissions Policy feature each maps to. */
const features = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
} as const;

/** The permissions an app declared, as the spec shapes them (`{ camera: {} }`). */
export type AppPermissions = Partial<Record<keyof typeof features, Record<string, never>>>;

/** What an app's `_meta.ui.permissions` grants: the permissions, the `allow` attribute, and what was ignored. */
export interface AppPermissionGrant {
  permissions: AppPermissions;
  /** For the iframes' `allow` attribute: `"camera; clipboard-write"`, or `""` when none is declared. */
  allow: string;
  warnings: string[];
}

/**
 * Reads `_meta.ui.permissions` (untrusted: the server's). A known permission declared as an
 * object is granted; an unknown one, or one declared otherwise, is left out with a warning.
 */
export function appPermissionsOf(meta: unknown): AppPermissionGrant {
  const ui = isRecord(meta) ? meta.ui : undefined;
  const declared = isRecord(ui) ? ui.permissions : undefined;
  const permissions: AppPermissions = {};
  const warnings: string[] = [];
  if (declared === undefined) return { permissions, allow: "", warnings };
  if (!isRecord(declared)) {
    warnings.push(
      `_meta.ui.permissions is ${JSON.stringify(declared)?.slice(0, 100)}, not an object; no permission was granted.`,
    );
    return { permissions, allow: "", warnings };
  }
  for (const [name, value] of Object.entries(declared)) {
    if (!Object.hasOwn(features, name)) {
      warnings.push(
        `_meta.ui.permissions.${name.slice(0, 60)} is not a permission MCP Apps defines (camera, microphone, geolocation, clipboardWrite); it was ignored.`,
      );
    } else if (!isRecord(value)) {
      warnings.push(`_meta.ui.permissions.${name} is not an object ({}); it was not granted.`);
    } else permissions[name as keyof typeof features] = {};
  }
  const allow = (Object.keys(features) as (keyof typeof features)[])
    .filter((name) => permissions[name])
    .map((name) => features[name])
    .join("; ");
  return { permissions, allow, warnings };
}
