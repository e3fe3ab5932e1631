import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { JunctionError } from "@junction/types";
import type { PlaygroundState } from "../shared/api-types.js";
import type { ChatService } from "./chat-service.js";
import type { ElicitationBroker } from "./elicitation-broker.js";
import type { EventHub } from "./event-hub.js";
import { startAppOrigin } from "./mcp-app-origin.js";
import type { McpApps } from "./mcp-apps.js";
import { capDepth, capToolResult, MAXIMUM_DEPTH } from "./output-limits.js";
import { checkRequest, isLoopbackAddress } from "./security.js";
import type { ServerRegistry } from "./server-registry.js";
import type { Store } from "./store.js";
import { checkToolArguments } from "./tool-arguments.js";

/** Everything the HTTP API serves. */
export interface AppContext {
  store: Store;
  registry: ServerRegistry;
  hub: EventHub;
  elicitation: ElicitationBroker;
  chat: ChatService;
  /** MCP Apps: tools' `ui://` resources served into sandboxed iframes. */
  apps: McpApps;
}

/** The page's CSP; `frameSource` is the app origin as this page reaches it (apps are framed from there only). */
const pageCsp = (frameSource: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; frame-src ${frameSource}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

const securityHeaders = {
  "content-security-policy": pageCsp("'none'"),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

const staticFiles: Record<string, { file: string; type: string }> = {
  "/assets/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/assets/styles.css": { file: "styles.css", type: "text/css; charset=utf-8" },
};

/** An HTTP error with a status and a message the UI shows as is. */
export class HttpError extends JunctionError {
  readonly status: number;
  constructor(status: number, message: string) {
    super("invalid-argument", message);
    this.status = status;
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse, params: string[]) => Promise<unknown>;

/**
 * Starts the playground's web server on loopback. Every API call needs the per-run token, and
 * every request must name this server in Host (and Origin, when the browser sends one). MCP App
 * documents come from a second listener, the app origin (see mcp-app-origin.ts): this origin
 * never serves a server's HTML.
 */
export async function startHttpServer(
  context: AppContext,
  options: { host?: string; port?: number; token: string; uiDirectory?: string },
): Promise<{
  server: Server;
  url: string;
  port: number;
  /** The app origin's listener: MCP App documents only. */
  appServer: Server;
  appPort: number;
  close(): Promise<void>;
}> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackAddress(host)) {
    throw new JunctionError(
      "invalid-argument",
      `The playground listens on loopback only; ${host} is not a loopback address.`,
    );
  }
  const uiDirectory = options.uiDirectory ?? fileURLToPath(new URL("../../dist/ui/", import.meta.url));
  const appOrigin = await startAppOrigin({ host, takeDocument: (id) => context.apps.takeDocument(id) });
  // The app origin as the page reaches it: the page's own host name, the app origin's port.
  const appOriginFor = (request: IncomingMessage) =>
    `http://${hostNameOf(request.headers.host ?? "")}:${appOrigin.port}`;
  const routes = createRoutes(context, appOriginFor);
  let port = 0;
  const redact = (text: string) => context.registry.redactText(text);

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const isStatic = request.method === "GET" && path in staticFiles;
    const refusal = checkRequest(request, {
      port,
      host,
      token: options.token,
      requireToken: !isStatic,
    });
    if (refusal) {
      if (path.startsWith("/api/")) sendJson(response, refusal.status, { error: refusal.message }, redact);
      else sendText(response, refusal.status, refusal.message);
      return;
    }
    // Host is one of this server's names now: the page may frame the app origin under that name.
    response.setHeader("content-security-policy", pageCsp(appOriginFor(request)));
    handle(request, response, path).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : statusOf(error);
      if (!response.headersSent) sendJson(response, status, { error: messageOf(error) }, redact);
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (request.method === "GET" && path === "/") {
      const html = await readFile(`${uiDirectory}/index.html`, "utf8");
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
      return;
    }
    const asset = staticFiles[path];
    if (request.method === "GET" && asset) {
      const body = await readFile(`${uiDirectory}/${asset.file}`);
      response.writeHead(200, { "content-type": asset.type });
      response.end(body);
      return;
    }
    if (request.method !== "GET" && request.method !== "DELETE") {
      const type = request.headers["content-type"] ?? "";
      if (!type.startsWith("application/json")) {
        throw new HttpError(415, "Send JSON with content-type application/json.");
      }
    }
    for (const route of routes) {
      if (route.method !== request.method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const result = await route.handler(request, response, match.slice(1).map(decodeURIComponent));
      if (!response.headersSent && !response.writableEnded)
        sendJson(response, 200, result ?? { ok: true }, redact);
      return;
    }
    throw new HttpError(404, `No such endpoint: ${request.method} ${path}`);
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    await appOrigin.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    appServer: appOrigin.server,
    appPort: appOrigin.port,
    close: async () => {
      await new Promise<void>((resolve) => {
        context.hub.close();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await appOrigin.close();
    },
  };
}

/** The host name of a Host header (`[::1]` kept in brackets), without its port. */
function hostNameOf(hostHeader: string): string {
  return hostHeader.toLowerCase().replace(/:\d+$/, "");
}

function createRoutes(
  context: AppContext,
  appOriginFor: (request: IncomingMessage) => string,
): { method: string; pattern: RegExp; handler: Handler }[] {
  const { registry, store, chat, elicitation, hub, apps } = context;
  const route = (method: string, pattern: string, handler: Handler) => ({
    method,
    pattern: new RegExp(`^${pattern}$`),
    handler,
  });
  return [
    route("GET", "/api/events", async (_request, response) => {
      hub.attach(response);
    }),
    route(
      "GET",
      "/api/state",
      async (): Promise<PlaygroundState> => ({
        providers: chat.providers(),
        settings: chat.settings(),
        elicitations: elicitation.list(),
      }),
    ),
    route("GET", "/api/servers", async () => registry.list()),
    route("POST", "/api/servers", async (request) => {
      const body = await readJson(request);
      return registry.add(body.name, body.config);
    }),
    route("POST", "/api/servers/import", async (request) => {
      const body = await readJson(request);
      return registry.import(body.document);
    }),
    route("PUT", "/api/servers/([^/]+)", async (request, _response, [id]) => {
      const body = await readJson(request);
      return registry.update(id!, body.name, body.config, body.enabled);
    }),
    route("DELETE", "/api/servers/([^/]+)", async (_request, _response, [id]) => {
      await registry.remove(id!);
      return { ok: true };
    }),
    route("POST", "/api/servers/([^/]+)/restart", async (_request, _response, [id]) => registry.restart(id!)),
    route("GET", "/api/servers/([^/]+)/logs", async (_request, _response, [id]) => registry.logs(id!)),
    route("GET", "/api/servers/([^/]+)/traffic", async (request, _response, [id]) => {
      const since = Number(new URL(request.url ?? "/", "http://localhost").searchParams.get("since") ?? 0);
      return registry.traffic(id!, Number.isFinite(since) ? since : 0);
    }),
    route("GET", "/api/servers/([^/]+)/stderr", async (_request, _response, [id]) => registry.stderr(id!)),
    route("POST", "/api/servers/([^/]+)/ping", async (_request, _response, [id]) => registry.ping(id!)),
    route("POST", "/api/servers/([^/]+)/complete", async (request, _response, [id]) => {
      const body = await readJson(request);
      const ref = body.ref as { type?: unknown; uri?: unknown; name?: unknown } | undefined;
      const reference =
        ref?.type === "ref/resource"
          ? { type: "ref/resource" as const, uri: requireString(ref.uri, "ref.uri") }
          : ref?.type === "ref/prompt"
            ? { type: "ref/prompt" as const, name: requireString(ref.name, "ref.name") }
            : undefined;
      if (!reference)
        throw new HttpError(
          400,
          'ref must be { type: "ref/resource", uri } or { type: "ref/prompt", name }.',
        );
      const argument = body.argument as { name?: unknown; value?: unknown } | undefined;
      const client = registry.client(id!);
      if (!client.capabilities?.completions) return { values: [], unsupported: true };
      const completion = await client.complete(reference, {
        name: requireString(argument?.name, "argument.name"),
        value: typeof argument?.value === "string" ? argument.value : "",
      });
      // Suggestions come from the server: strings only, a bounded number of bounded length.
      return {
        values: completion.values
          .filter((value): value is string => typeof value === "string")
          .slice(0, 100)
          .map((value) => value.slice(0, 500)),
        ...(completion.hasMore ? { hasMore: true } : {}),
      };
    }),
    route("GET", "/api/servers/([^/]+)/tools", async (_request, _response, [id]) => {
      return registry.client(id!).listToolDefinitions();
    }),
    route("GET", "/api/servers/([^/]+)/resources", async (_request, _response, [id]) => {
      const client = registry.client(id!);
      if (!client.capabilities?.resources) return { resources: [], templates: [] };
      const [resources, templates] = await Promise.all([
        client.listResources(),
        // resources/templates/list is optional: a server without it (-32601) has no templates.
        client.listResourceTemplates().catch((error: unknown) => {
          if ((error as { cause?: { code?: unknown } } | undefined)?.cause?.code === -32601) return [];
          throw error;
        }),
      ]);
      return { resources, templates };
    }),
    route("GET", "/api/servers/([^/]+)/prompts", async (_request, _response, [id]) => {
      const client = registry.client(id!);
      if (!client.capabilities?.prompts) return [];
      return client.listPrompts();
    }),
    route("POST", "/api/servers/([^/]+)/tools/call", async (request, _response, [id]) => {
      const body = await readJson(request);
      const client = registry.client(id!);
      const name = requireString(body.name, "name");
      const definitions = await client.listToolDefinitions();
      const definition = definitions.find((tool) => tool.name === name);
      if (!definition)
        throw new HttpError(404, `Server ${registry.status(id!).name} has no tool named ${name}.`);
      const args = checkToolArguments(name, definition.inputSchema, body.arguments ?? {});
      const started = performance.now();
      const { result, truncated } = capToolResult(await client.callTool(name, args));
      return {
        result,
        durationMs: Math.round(performance.now() - started),
        ...(truncated ? { truncated } : {}),
      };
    }),
    route("GET", "/api/servers/([^/]+)/apps", async (_request, _response, [id]) => apps.list(id!)),
    route("POST", "/api/servers/([^/]+)/apps", async (request, _response, [id]) => {
      const body = await readJson(request);
      // The page's origin is its checked Host: the one page allowed to frame the document.
      return apps.open(id!, body.tool, {
        pageOrigin: `http://${request.headers.host?.toLowerCase()}`,
        appOrigin: appOriginFor(request),
      });
    }),
    route("POST", "/api/servers/([^/]+)/apps/preview", async (request, _response, [id]) => {
      const body = await readJson(request);
      return apps.preview(id!, body.uri, {
        pageOrigin: `http://${request.headers.host?.toLowerCase()}`,
        appOrigin: appOriginFor(request),
      });
    }),
    route("POST", "/api/apps/([^/]+)/tools/call", async (request, _response, [appId]) => {
      const body = await readJson(request);
      return apps.callTool(appId!, body.name, body.arguments);
    }),
    route("POST", "/api/apps/([^/]+)/approvals/([^/]+)", async (request, _response, [appId, approvalId]) => {
      const body = await readJson(request);
      return apps.answer(appId!, approvalId!, body.approve);
    }),
    route("POST", "/api/servers/([^/]+)/resources/read", async (request, _response, [id]) => {
      const body = await readJson(request);
      return registry.client(id!).readResource(requireString(body.uri, "uri"));
    }),
    route("POST", "/api/servers/([^/]+)/prompts/get", async (request, _response, [id]) => {
      const body = await readJson(request);
      const args = body.arguments ?? {};
      if (
        typeof args !== "object" ||
        args === null ||
        Object.values(args).some((v) => typeof v !== "string")
      ) {
        throw new HttpError(400, "Prompt arguments must be an object of strings.");
      }
      return registry.client(id!).getPrompt(requireString(body.name, "name"), args as Record<string, string>);
    }),
    route("POST", "/api/elicitations/([^/]+)", async (request, _response, [id]) => {
      elicitation.answer(id!, await readJson(request));
      return { ok: true };
    }),
    route("POST", "/api/settings", async (request) => chat.updateSettings(await readJson(request))),
    route("GET", "/api/conversations", async () => store.listConversations()),
    route("POST", "/api/conversations", async (request) => {
      const body = await readJson(request);
      return chat.createConversation(body);
    }),
    route("GET", "/api/conversations/([^/]+)", async (_request, _response, [id]) => {
      const conversation = store.getConversation(id!);
      if (!conversation) throw new HttpError(404, `No conversation with id ${id}.`);
      return conversation;
    }),
    route("DELETE", "/api/conversations/([^/]+)", async (_request, _response, [id]) => {
      store.removeConversation(id!);
      return { ok: true };
    }),
    route("POST", "/api/conversations/([^/]+)/messages", async (request, response, [id]) => {
      const body = await readJson(request);
      await chat.streamTurn(id!, body, response);
    }),
    route("POST", "/api/runs/([^/]+)/approvals/([^/]+)", async (request, _response, [runId, callId]) => {
      const body = await readJson(request);
      chat.answerApproval(
        runId!,
        callId!,
        body.approve === true,
        typeof body.reason === "string" ? body.reason : undefined,
      );
      return { ok: true };
    }),
    route("POST", "/api/runs/([^/]+)/stop", async (_request, _response, [runId]) => {
      chat.stop(runId!);
      return { ok: true };
    }),
  ];
}

const maximumBodyBytes = 8 * 1024 * 1024;

async function readJson(request: IncomingMessage): Promise<Record<string, any>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maximumBodyBytes) throw new HttpError(413, "The request body is larger than 8 MB.");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `The request body is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "The request body must be a JSON object.");
  }
  return value as Record<string, any>;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0)
    throw new HttpError(400, `${field} must be a non-empty string.`);
  return value;
}

function statusOf(error: unknown): number {
  if (!JunctionError.isInstance(error)) return 500;
  switch (error.code) {
    case "invalid-argument":
    case "mcp-config-invalid":
    case "tool-input-invalid":
      return 400;
    case "mcp-not-connected":
    case "mcp-connect-failed":
    case "mcp-connection-closed":
      return 503;
    case "mcp-timeout":
      return 504;
    default:
      return 502;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The largest JSON answer the API sends; a server's bigger answer is an error, not a hang. */
const maximumAnswerBytes = 16 * 1024 * 1024;

/**
 * Sends a JSON answer: cut below {@link capDepth}'s depth (so serialising can never fail
 * half-way), refused past {@link maximumAnswerBytes}, and with every expanded secret redacted.
 */
function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  redact: (text: string) => string,
): void {
  // Deeper than any result is cut to (MAXIMUM_DEPTH), so a cut result keeps its own note.
  let text = JSON.stringify(capDepth(body, MAXIMUM_DEPTH * 2).value) ?? "null";
  if (text.length > maximumAnswerBytes) {
    status = 502;
    text = JSON.stringify({
      error: `The answer is ${(text.length / 1024 / 1024).toFixed(1)} MB, more than the page takes (${maximumAnswerBytes / 1024 / 1024} MB).`,
    });
  }
  response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  response.end(redact(text));
}

function sendText(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  response.end(body);
}
