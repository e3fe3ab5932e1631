import { createHash, randomBytes } from "node:crypto";
import { type ApprovalDecision, annotationPolicy } from "@junction/core";
import type { MCP } from "@junction/mcp-client";
import {
  JunctionError,
  type MCPTool,
  type ToolAnnotations,
  type ToolProgress,
  type ToolResult,
  type ToolSource,
} from "@junction/types";
import type { EventHub } from "./event-hub.js";
import {
  type AppCspDomains,
  type AppRequestOrigin,
  appRequestOrigins,
  buildAppCsp,
  MCP_APP_MIME_TYPE,
  prefersBorderOf,
  toolVisibility,
  uiResourceUriOf,
} from "./mcp-app-csp.js";
import { type AppPermissions, appPermissionsOf } from "./mcp-app-permissions.js";
import { sandboxProxyDocument, viewOriginOf } from "./mcp-app-proxy.js";
import { capToolResult } from "./output-limits.js";
import type { ClosedConnection, ServerRegistry } from "./server-registry.js";
import { checkToolArguments } from "./tool-arguments.js";

/** A tool of a server that has an MCP App. */
export interface AppTool {
  tool: string;
  resourceUri: string;
}

/** What the page needs to show one opened app. */
export interface OpenedApp {
  appId: string;
  /**
   * Where the outer iframe loads the app's sandbox proxy from: the app's own origin on the app
   * origin listener (see mcp-app-origin.ts), no token, served once.
   */
  frameUrl: string;
  /** The origin of the proxy and of the view in it: `http://<label>.localhost:<app port>`. */
  viewOrigin: string;
  /** The view's HTML, which the page sends the proxy in `ui/notifications/sandbox-resource-ready`. */
  html: string;
  resourceUri: string;
  server: string;
  /**
   * The tool as the server described it, for the app's `hostContext.toolInfo`; absent for a
   * preview of a resource (no tool: the app may call none).
   */
  tool?: Pick<MCPTool, "name" | "title" | "description" | "inputSchema" | "annotations">;
  csp: AppCspDomains;
  /** Every origin the app's policy lets receive a request, for its label (empty: none). */
  requestOrigins: AppRequestOrigin[];
  warnings: string[];
  /** The permissions the resource declared (`_meta.ui.permissions`), granted: for `sandbox-resource-ready` and the host capabilities. */
  permissions: AppPermissions;
  /** Their Permissions Policy features, for the `allow` attribute of the proxy's frame (the view's has it too). */
  allow: string;
  /** What of `_meta.ui.permissions` was left out, and why. */
  permissionWarnings: string[];
  prefersBorder?: boolean;
}

/** A `tools/call` from an app: its result, or the approval the person must give first. */
export type AppToolCallAnswer =
  | { result: ToolResult; truncated?: string }
  | { approval: { id: string; name: string; input: Record<string, unknown> } };

/** Where an app is opened from and served to. */
export interface AppOrigins {
  /** The playground page that asked (`http://host:port`, checked): the only page that may frame it. */
  pageOrigin: string;
  /** The app origin listener's port: each app's origin is `http://<label>.localhost:<port>`. */
  appPort: number;
}

/** What the app origin knows of a request for a document: its Host label and its Referer. */
export interface DocumentRequest {
  label: string;
  referer: string | undefined;
}

/** An app document, ready to serve once. */
export interface AppDocument {
  html: string;
  cspHeader: string;
}

interface AppEntry {
  id: string;
  serverId: string;
  /**
   * The connection the app was opened on: the server identity (its config and process) it is
   * bound to. Once the server is edited, restarted or removed, the app is closed.
   */
  connection: MCP;
  /** Gone once served: a document loads once, into the frame of the page that opened it. */
  document: AppDocument | undefined;
  /** The host label of the app's origin, and the page that opened it (the only Referer taken). */
  label: string;
  pageOrigin: string;
  pending: Map<string, { name: string; input: Record<string, unknown>; progressId?: string }>;
  /** Opened from the Resources tab, without a tool: every tools/call is refused. */
  preview: boolean;
  /** Why the host closed the app (its server changed): every later request is refused. */
  closed?: string;
}

/** The largest app document the playground serves. */
export const MAXIMUM_APP_HTML_BYTES = 2 * 1024 * 1024;
const maximumOpenApps = 64;
const maximumPendingApprovals = 4;
const appIdPattern = /^[A-Za-z0-9_-]{32}$/;

/**
 * The playground's MCP Apps host, server side: finds a tool's `ui://` resource, hands its HTML
 * to the page and serves the sandbox proxy that loads it, on the app's own origin (its CSP built
 * from what the resource declares), and runs the app's `tools/call` requests through the same approval policy
 * as the model's calls.
 */
export class McpApps {
  readonly #registry: ServerRegistry;
  readonly #hub: EventHub;
  readonly #apps = new Map<string, AppEntry>();
  readonly #policy = annotationPolicy();

  constructor(registry: ServerRegistry, hub: EventHub) {
    this.#registry = registry;
    this.#hub = hub;
    registry.onConnectionClosed((closed) => this.#closeAppsOf(closed));
  }

  /** The tools of a server that name a `ui://` resource. */
  async list(serverId: string): Promise<AppTool[]> {
    const tools = await this.#registry.client(serverId).listServerTools();
    return tools.flatMap((tool) => {
      const resourceUri = uiResourceUriOf(tool._meta);
      // An app-only tool (`visibility: ["app"]`) is called by a view, never run to open one.
      return resourceUri && toolVisibility(tool._meta).model ? [{ tool: tool.name, resourceUri }] : [];
    });
  }

  /** Reads the tool's UI resource and keeps it for its iframe to load, once. */
  async open(serverId: string, toolName: unknown, origins: AppOrigins): Promise<OpenedApp> {
    if (typeof toolName !== "string" || toolName === "") {
      throw new JunctionError("invalid-argument", "tool must be a tool name.");
    }
    const client = this.#registry.client(serverId);
    const server = this.#registry.status(serverId).name;
    const tool = (await client.listServerTools()).find((candidate) => candidate.name === toolName);
    const resourceUri = tool ? uiResourceUriOf(tool._meta) : undefined;
    if (!tool || !resourceUri) {
      throw new JunctionError(
        "invalid-argument",
        `Server ${server} has no tool ${toolName} with a ui:// app.`,
      );
    }
    return this.#load({ serverId, resourceUri }, origins, {
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    });
  }

  /**
   * Opens a `ui://` resource as an app preview, without a tool (the inspector's Resources tab):
   * the same sandboxed document from the app origin, but it may call no tool at all.
   */
  async preview(serverId: string, uri: unknown, origins: AppOrigins): Promise<OpenedApp> {
    if (typeof uri !== "string" || !uri.startsWith("ui://") || uri.length > 2048) {
      throw new JunctionError("invalid-argument", "uri must be a ui:// resource URI.");
    }
    return this.#load({ serverId, resourceUri: uri }, origins, undefined);
  }

  async #load(
    { serverId, resourceUri }: { serverId: string; resourceUri: string },
    origins: AppOrigins,
    tool: OpenedApp["tool"] | undefined,
  ): Promise<OpenedApp> {
    const client = this.#registry.client(serverId);
    const server = this.#registry.status(serverId).name;
    const read = await client.readResource(resourceUri);
    const contents = read.contents.find((item) => item.uri === resourceUri) ?? read.contents[0];
    const mimeType = contents?.mimeType?.replace(/\s/g, "").toLowerCase();
    if (!contents || mimeType !== MCP_APP_MIME_TYPE) {
      throw new JunctionError(
        "invalid-argument",
        `The resource ${resourceUri} of server ${server} is not an MCP App: its mimeType is ${JSON.stringify(contents?.mimeType ?? null)}, not ${MCP_APP_MIME_TYPE}.`,
      );
    }
    const html = "text" in contents ? contents.text : Buffer.from(contents.blob, "base64").toString("utf8");
    if (Buffer.byteLength(html) > MAXIMUM_APP_HTML_BYTES) {
      throw new JunctionError(
        "invalid-argument",
        `The app ${resourceUri} is larger than ${MAXIMUM_APP_HTML_BYTES / 1024 / 1024} MB.`,
      );
    }
    // The read content's _meta.ui is the truth; the resources/list entry's is the fallback.
    const meta = hasUiMeta(contents._meta) ? contents._meta : await this.#listedMeta(serverId, resourceUri);
    const csp = buildAppCsp(meta, origins.pageOrigin);
    const granted = appPermissionsOf(meta);
    const id = randomBytes(24).toString("base64url");
    const label = viewLabel({ serverId, server, resourceUri, domain: domainOf(meta) });
    this.#apps.set(id, {
      id,
      serverId,
      connection: client,
      document: { html: sandboxProxyDocument(origins.pageOrigin, granted.allow), cspHeader: csp.header },
      label,
      pageOrigin: origins.pageOrigin,
      pending: new Map(),
      preview: tool === undefined,
    });
    while (this.#apps.size > maximumOpenApps) this.#apps.delete(this.#apps.keys().next().value!);
    const prefersBorder = prefersBorderOf(meta);
    return {
      appId: id,
      frameUrl: `${viewOriginOf(label, origins.appPort)}/${id}`,
      viewOrigin: viewOriginOf(label, origins.appPort),
      html,
      resourceUri,
      server,
      ...(tool ? { tool } : {}),
      csp: csp.domains,
      requestOrigins: appRequestOrigins(csp.domains),
      warnings: csp.warnings,
      permissions: granted.permissions,
      allow: granted.allow,
      permissionWarnings: granted.warnings,
      ...(prefersBorder === undefined ? {} : { prefersBorder }),
    };
  }

  /**
   * The sandbox proxy document of app `id`, taken: the first request from the page that opened
   * it, under the app's own host label, gets it; every later one (a reload, an app that learnt the
   * id) gets nothing. A request under another label or from another referrer (a frame an app
   * opened) takes nothing, so the page's own frame still gets it. The app's tool calls keep
   * working by its id.
   */
  takeDocument(id: string, request: DocumentRequest): AppDocument | undefined {
    const app = appIdPattern.test(id) ? this.#apps.get(id) : undefined;
    if (!app || app.label !== request.label || request.referer !== `${app.pageOrigin}/`) return undefined;
    const document = app.document;
    app.document = undefined;
    return document;
  }

  /**
   * An app's `tools/call`: only tools of the app's own server that are visible to apps, with
   * arguments checked against the schema, decided by the chat's policy (`annotationPolicy`):
   * read-only closed-world tools run, anything else waits for the person's approval. With a
   * `progressId`, the server's progress for the call is published as `app-progress` events.
   */
  async callTool(
    appId: string,
    { name, input, progressId }: { name: unknown; input: unknown; progressId?: string },
  ): Promise<AppToolCallAnswer> {
    const app = this.#require(appId);
    if (app.preview) {
      throw new JunctionError(
        "invalid-argument",
        "This app is a preview of a resource, opened without a tool: it may call no tools.",
      );
    }
    if (typeof name !== "string" || name === "") {
      throw new JunctionError("invalid-argument", "tools/call needs the name of a tool.");
    }
    const client = this.#connectionOf(app);
    const server = client.name;
    const tool = (await client.listServerTools()).find((candidate) => candidate.name === name);
    if (!tool) throw new JunctionError("invalid-argument", `Server ${server} has no tool named ${name}.`);
    if (!toolVisibility(tool._meta).app) {
      throw new JunctionError(
        "invalid-argument",
        `The tool ${name} is not visible to apps (_meta.ui.visibility).`,
      );
    }
    const args = await checkToolArguments(name, tool.inputSchema, input ?? {});
    const decision: ApprovalDecision = await this.#policy({
      id: `app-${appId.slice(0, 8)}`,
      name: `${server}_${name}`,
      input: args,
      annotations: annotationsOf(tool),
      source: `MCP App of server "${server}"`,
    });
    if (decision === true || decision === "approve" || decision === "user-approved") {
      return this.#run(app, { name, input: args, ...(progressId ? { progressId } : {}) });
    }
    if (decision !== "ask") throw new JunctionError("invalid-argument", `The call of ${name} was denied.`);
    if (app.pending.size >= maximumPendingApprovals) {
      throw new JunctionError(
        "invalid-argument",
        `The app already has ${maximumPendingApprovals} calls waiting for approval.`,
      );
    }
    const approvalId = randomBytes(12).toString("base64url");
    app.pending.set(approvalId, { name, input: args, ...(progressId ? { progressId } : {}) });
    return { approval: { id: approvalId, name: `${server}_${name}`, input: args } };
  }

  /** The person's answer to an app's call: approved, exactly the arguments shown run. */
  async answer(
    appId: string,
    approvalId: string,
    approve: unknown,
  ): Promise<AppToolCallAnswer | { denied: true }> {
    const app = this.#require(appId);
    const pending = app.pending.get(approvalId);
    if (!pending) {
      throw new JunctionError("invalid-argument", `No call of this app waits for approval ${approvalId}.`);
    }
    app.pending.delete(approvalId);
    if (approve !== true) return { denied: true };
    return this.#run(app, pending);
  }

  async #listedMeta(serverId: string, uri: string): Promise<unknown> {
    const client = this.#registry.client(serverId);
    if (!client.capabilities?.resources) return undefined;
    const listed = await client.listResources().catch(() => []);
    return listed.find((resource) => resource.uri === uri)?._meta;
  }

  async #run(
    app: AppEntry,
    { name, input, progressId }: { name: string; input: Record<string, unknown>; progressId?: string },
  ): Promise<AppToolCallAnswer> {
    const onProgress = progressId
      ? (progress: ToolProgress) =>
          this.#hub.publish({
            type: "app-progress",
            appId: app.id,
            progressId,
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          })
      : undefined;
    const { result, truncated } = capToolResult(
      await this.#connectionOf(app).callTool(name, input, onProgress ? { onProgress } : {}),
    );
    return { result, ...(truncated ? { truncated } : {}) };
  }

  /**
   * The connection the app was opened on, while it is still the server's: a server edited or
   * restarted since (same id, another connection, perhaps another program) closes the app.
   */
  #connectionOf(app: AppEntry): MCP {
    let current: MCP | undefined;
    try {
      current = this.#registry.client(app.serverId);
    } catch {
      // Removed, disabled or not connected: the app's connection is gone either way.
    }
    if (current !== app.connection) {
      this.#close(app, `server ${app.connection.name} was edited, restarted or removed since it opened`);
      throw new JunctionError("invalid-argument", app.closed!);
    }
    return current;
  }

  #closeAppsOf(closed: ClosedConnection): void {
    for (const app of [...this.#apps.values()]) {
      if (app.serverId === closed.id && app.connection === closed.connection) {
        this.#close(app, `server ${closed.name} was edited, restarted or removed since it opened`);
      }
    }
  }

  /**
   * Closes the app: its document and queued approvals are dropped, every later request of it is
   * refused saying why (it stays listed, within the bound on open apps), and every page is told.
   */
  #close(app: AppEntry, reason: string): void {
    if (app.closed) return;
    app.closed = `This app was closed: ${reason}. Run its tool again to open it on the server as it is now.`;
    app.pending.clear();
    app.document = undefined;
    this.#hub.publish({ type: "app-closed", appId: app.id, reason: app.closed });
  }

  #require(appId: string): AppEntry {
    const app = appIdPattern.test(appId) ? this.#apps.get(appId) : undefined;
    if (!app) throw new JunctionError("invalid-argument", "No such app is open; open its tool's app again.");
    if (app.closed) throw new JunctionError("invalid-argument", app.closed);
    return app;
  }
}

/**
 * The server's tools the model may see: those whose `_meta.ui.visibility` leaves out "model"
 * (tools only an app may call) are not offered to the model.
 */
export function modelVisibleTools(mcp: MCP): ToolSource {
  return {
    name: mcp.name,
    async listTools(options) {
      const [tools, listed] = await Promise.all([mcp.listTools(options), mcp.listServerTools()]);
      const hidden = new Set(
        listed.filter((tool) => !toolVisibility(tool._meta).model).map((tool) => tool.name),
      );
      if (hidden.size === 0) return tools;
      const prefix = options?.prefix ? `${options.prefix}_` : "";
      return tools.filter((tool) => !hidden.has(tool.name.slice(prefix.length)));
    },
    onToolsChanged: (listener) => mcp.onToolsChanged(listener),
  };
}

/** The resource's `_meta.ui.domain`, when it is a short string (any text: it is only hashed). */
function domainOf(meta: unknown): string | undefined {
  const ui = typeof meta === "object" && meta !== null ? (meta as { ui?: unknown }).ui : undefined;
  const domain = typeof ui === "object" && ui !== null ? (ui as { domain?: unknown }).domain : undefined;
  return typeof domain === "string" && domain !== "" && domain.length <= 253 ? domain : undefined;
}

/**
 * The host label of an app's origin (`<label>.localhost`): a hash of the server (its id and name)
 * and of the resource URI, or of `_meta.ui.domain` when the resource declares one. So the views
 * of one app share an origin (their localStorage) for the run, two servers never share one
 * whatever they declare, and a server that names a `domain` keeps the same origin for all its
 * resources that name it.
 */
export function viewLabel({
  serverId,
  server,
  resourceUri,
  domain,
}: {
  serverId: string;
  server: string;
  resourceUri: string;
  domain?: string | undefined;
}): string {
  const scope = domain === undefined ? `resource\n${resourceUri}` : `domain\n${domain}`;
  return createHash("sha256")
    .update(`junction-mcp-app-origin\n${serverId}\n${server}\n${scope}`)
    .digest("hex")
    .slice(0, 32);
}

function hasUiMeta(meta: unknown): boolean {
  return typeof meta === "object" && meta !== null && "ui" in meta;
}

function annotationsOf(tool: MCPTool): ToolAnnotations | undefined {
  const picked: ToolAnnotations = {};
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    const value = tool.annotations?.[key];
    if (typeof value === "boolean") picked[key] = value;
  }
  return Object.keys(picked).length > 0 ? picked : undefined;
}
