import { JunctionError } from "@junction/types";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { validator } from "hono/validator";
import type { PlaygroundState } from "../shared/api-types.js";
import type { TraceStore } from "../trace/trace-store.js";
import type { ChatService } from "./chat-service.js";
import { exampleServerEntry, isExampleServer } from "./default-servers.js";
import type { ElicitationBroker } from "./elicitation-broker.js";
import type { EventHub } from "./event-hub.js";
import { eventStream } from "./event-stream.js";
import { jsonAnswer } from "./json-answer.js";
import type { McpApps } from "./mcp-apps.js";
import type { MCPEndpoint } from "./mcp-endpoint.js";
import { capDepth, capToolResult } from "./output-limits.js";
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
  /** Each chat turn's trace, for the page's waterfall. */
  traces: TraceStore;
  /** The playground served over MCP: its switch, token, clients and their calls. */
  endpoint: MCPEndpoint;
}

const maximumBodyBytes = 8 * 1024 * 1024;

/** The longest id a path may carry: ids are UUIDs or a model's call id. */
const maximumIdLength = 200;

/** A JSON request body: an object whose fields each route checks. */
type JsonBody = Record<string, any>;

/**
 * Validates the path's parameters `names`: each a non-empty id of at most
 * {@link maximumIdLength} characters without control characters (hono has decoded them).
 */
function pathIds<Name extends string>(...names: Name[]) {
  return validator("param", (params: Record<string, string>): Record<Name, string> => {
    const checked = {} as Record<Name, string>;
    for (const name of names) {
      const value = params[name] ?? "";
      if (
        value.length === 0 ||
        value.length > maximumIdLength ||
        [...value].some((character) => character.charCodeAt(0) < 0x20)
      ) {
        throw new HTTPException(400, {
          message: `The ${name} in the path must be 1–${maximumIdLength} characters without control characters.`,
        });
      }
      checked[name] = value;
    }
    return checked;
  });
}

const id = pathIds("id");
const appIds = pathIds("appId");
const approvalIds = pathIds("appId", "approvalId");
const runIds = pathIds("runId");
const conversationCallIds = pathIds("id", "callId");

/** The request's JSON body (hono parses it, and answers 400 when it is not JSON): an object. */
const json = validator("json", (value: unknown): JsonBody => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HTTPException(400, { message: "The request body must be a JSON object." });
  }
  return value as JsonBody;
});

/**
 * The JSON API under `/api`: servers, the inspector, MCP Apps, elicitations, settings,
 * conversations and runs. A handler returns its answer (`{ ok: true }` when it has none) or
 * throws: an `HTTPException` with its own status, or a `JunctionError` whose code gives the status.
 */
export function apiRoutes(
  context: AppContext,
  options: {
    /** The app origin as a page reached under `hostHeader` frames it. */
    appOriginFor(hostHeader: string): string;
    redact(text: string): string;
  },
): Hono {
  const { registry, store, chat, elicitation, hub, apps, traces, endpoint } = context;
  const { redact } = options;
  // A handler's answer (awaited), or `{ ok: true }` when it has none.
  const answer = async (c: Context, body: unknown) =>
    jsonAnswer(c, { body: (await body) ?? { ok: true }, redact });
  // The page that asked, as its checked Host names it: the one page allowed to frame the document.
  const pageOf = (c: Context) => {
    const host = c.req.header("host")?.toLowerCase() ?? "";
    return { pageOrigin: `http://${host}`, appOrigin: options.appOriginFor(host) };
  };

  const api = new Hono();
  api.use(async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "DELETE") {
      // No form posts: a browser sends JSON cross-origin only after a preflight this server never answers.
      if (!(c.req.header("content-type") ?? "").startsWith("application/json"))
        throw new HTTPException(415, { message: "Send JSON with content-type application/json." });
    }
    await next();
  });
  api.use(
    bodyLimit({
      maxSize: maximumBodyBytes,
      onError: () => {
        throw new HTTPException(413, { message: "The request body is larger than 8 MB." });
      },
    }),
  );

  api.get("/events", (c) =>
    eventStream(
      c,
      (send, signal) =>
        new Promise<void>((resolve) => {
          const detach = hub.attach({ send, close: resolve });
          signal.addEventListener("abort", () => {
            detach();
            resolve();
          });
        }),
    ),
  );
  api.get("/state", (c) => {
    const state: PlaygroundState = {
      providers: chat.providers(),
      settings: chat.settings(),
      elicitations: elicitation.list(),
    };
    return answer(c, state);
  });

  api.get("/servers", (c) => answer(c, registry.list()));
  api.post("/servers", json, (c) => {
    const body = c.req.valid("json");
    return answer(c, registry.add(body.name, body.config));
  });
  api.post("/servers/import", json, (c) => answer(c, registry.import(c.req.valid("json").document)));
  api.post("/servers/examples/:example", pathIds("example"), json, (c) => {
    const { example } = c.req.valid("param");
    if (!isExampleServer(example))
      throw new HTTPException(404, { message: `There is no example server ${example}.` });
    return answer(c, registry.add(example, exampleServerEntry(example)));
  });
  api.put("/servers/:id", id, json, (c) => {
    const body = c.req.valid("json");
    return answer(c, registry.update(c.req.valid("param").id, body.name, body.config, body.enabled));
  });
  api.put("/servers/:id/defer-tools", id, json, (c) =>
    answer(c, registry.setDeferTools(c.req.valid("param").id, c.req.valid("json").deferTools)),
  );
  api.delete("/servers/:id", id, (c) => answer(c, registry.remove(c.req.valid("param").id)));
  api.post("/servers/:id/restart", id, json, (c) => answer(c, registry.restart(c.req.valid("param").id)));
  api.get("/servers/:id/logs", id, (c) => answer(c, registry.logs(c.req.valid("param").id)));
  api.get("/servers/:id/traffic", id, (c) => {
    const since = Number(c.req.query("since") ?? 0);
    return answer(c, registry.traffic(c.req.valid("param").id, Number.isFinite(since) ? since : 0));
  });
  api.get("/servers/:id/stderr", id, (c) => answer(c, registry.stderr(c.req.valid("param").id)));
  api.post("/servers/:id/ping", id, json, (c) => answer(c, registry.ping(c.req.valid("param").id)));
  api.post("/servers/:id/complete", id, json, async (c) => {
    const body = c.req.valid("json");
    const ref = body.ref as { type?: unknown; uri?: unknown; name?: unknown } | undefined;
    const reference =
      ref?.type === "ref/resource"
        ? { type: "ref/resource" as const, uri: requireString(ref.uri, "ref.uri") }
        : ref?.type === "ref/prompt"
          ? { type: "ref/prompt" as const, name: requireString(ref.name, "ref.name") }
          : undefined;
    if (!reference) {
      throw new HTTPException(400, {
        message: 'ref must be { type: "ref/resource", uri } or { type: "ref/prompt", name }.',
      });
    }
    const argument = body.argument as { name?: unknown; value?: unknown } | undefined;
    const client = registry.client(c.req.valid("param").id);
    if (!client.capabilities?.completions) return answer(c, { values: [], unsupported: true });
    const completion = await client.complete(reference, {
      name: requireString(argument?.name, "argument.name"),
      value: typeof argument?.value === "string" ? argument.value : "",
    });
    // Suggestions come from the server: strings only, a bounded number of bounded length.
    return answer(c, {
      values: completion.values
        .filter((value): value is string => typeof value === "string")
        .slice(0, 100)
        .map((value) => value.slice(0, 500)),
      ...(completion.hasMore ? { hasMore: true } : {}),
    });
  });
  api.get("/servers/:id/tools", id, (c) =>
    answer(c, registry.client(c.req.valid("param").id).listToolDefinitions()),
  );
  api.get("/servers/:id/resources", id, async (c) => {
    const client = registry.client(c.req.valid("param").id);
    if (!client.capabilities?.resources) return answer(c, { resources: [], templates: [] });
    const [resources, templates] = await Promise.all([
      client.listResources(),
      // resources/templates/list is optional: a server without it (-32601) has no templates.
      client.listResourceTemplates().catch((error: unknown) => {
        if (JunctionError.isInstance(error) && error.jsonRPCCode === -32601) return [];
        throw error;
      }),
    ]);
    return answer(c, { resources, templates });
  });
  api.get("/servers/:id/prompts", id, (c) => {
    const client = registry.client(c.req.valid("param").id);
    return answer(c, client.capabilities?.prompts ? client.listPrompts() : []);
  });
  api.post("/servers/:id/tools/call", id, json, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const client = registry.client(id);
    const name = requireString(body.name, "name");
    const definition = (await client.listToolDefinitions()).find((tool) => tool.name === name);
    if (!definition) {
      throw new HTTPException(404, {
        message: `Server ${registry.status(id).name} has no tool named ${name}.`,
      });
    }
    const args = checkToolArguments(name, definition.inputSchema, body.arguments ?? {});
    const started = performance.now();
    const { result, truncated } = capToolResult(await client.callTool(name, args));
    return answer(c, {
      result,
      durationMs: Math.round(performance.now() - started),
      ...(truncated ? { truncated } : {}),
    });
  });
  api.post("/servers/:id/resources/read", id, json, (c) =>
    answer(
      c,
      registry.client(c.req.valid("param").id).readResource(requireString(c.req.valid("json").uri, "uri")),
    ),
  );
  api.post("/servers/:id/prompts/get", id, json, (c) => {
    const body = c.req.valid("json");
    const args = body.arguments ?? {};
    if (
      typeof args !== "object" ||
      args === null ||
      Object.values(args).some((value) => typeof value !== "string")
    ) {
      throw new HTTPException(400, { message: "Prompt arguments must be an object of strings." });
    }
    const client = registry.client(c.req.valid("param").id);
    return answer(c, client.getPrompt(requireString(body.name, "name"), args as Record<string, string>));
  });

  api.get("/servers/:id/apps", id, (c) => answer(c, apps.list(c.req.valid("param").id)));
  api.post("/servers/:id/apps", id, json, (c) =>
    answer(c, apps.open(c.req.valid("param").id, c.req.valid("json").tool, pageOf(c))),
  );
  api.post("/servers/:id/apps/preview", id, json, (c) =>
    answer(c, apps.preview(c.req.valid("param").id, c.req.valid("json").uri, pageOf(c))),
  );
  api.post("/apps/:appId/tools/call", appIds, json, (c) => {
    const body = c.req.valid("json");
    return answer(c, apps.callTool(c.req.valid("param").appId, body.name, body.arguments));
  });
  api.post("/apps/:appId/approvals/:approvalId", approvalIds, json, (c) => {
    const { appId, approvalId } = c.req.valid("param");
    return answer(c, apps.answer(appId, approvalId, c.req.valid("json").approve));
  });

  api.post("/elicitations/:id", id, json, (c) => {
    elicitation.answer(c.req.valid("param").id, c.req.valid("json"));
    return answer(c, undefined);
  });
  api.post("/settings", json, (c) => answer(c, chat.updateSettings(c.req.valid("json"))));

  api.get("/conversations", (c) => answer(c, store.listConversations()));
  api.post("/conversations", json, (c) => answer(c, chat.createConversation(c.req.valid("json"))));
  api.get("/conversations/:id", id, (c) => {
    const { id } = c.req.valid("param");
    const conversation = store.getConversation(id);
    if (!conversation) throw new HTTPException(404, { message: `No conversation with id ${id}.` });
    return answer(c, conversation);
  });
  api.delete("/conversations/:id", id, (c) => {
    store.removeConversation(c.req.valid("param").id);
    return answer(c, undefined);
  });
  api.post("/conversations/:id/messages", id, json, (c) => {
    const { id } = c.req.valid("param");
    const { text, provider, model } = c.req.valid("json");
    // The chat service knows nothing of HTTP: it emits events, and this route writes them.
    return eventStream(c, (send, signal) =>
      chat.runTurn(id, { text, provider, model, signal }, (event) =>
        send(redact(JSON.stringify(capDepth(event).value))),
      ),
    );
  });
  // The JSON Schema every answer of the conversation must match (null clears it).
  api.put("/conversations/:id/output-schema", id, json, (c) =>
    answer(c, {
      outputSchema: chat.setOutputSchema(c.req.valid("param").id, c.req.valid("json").schema ?? null)
        .outputSchema,
    }),
  );

  // The playground's own MCP endpoint: on or off (kept), its URL and token, clients and calls.
  api.get("/serve", (c) => answer(c, endpoint.statusWithTools()));
  api.put("/serve", json, (c) => answer(c, endpoint.setEnabled(c.req.valid("json").enabled)));

  // A chat turn's trace, for the page's waterfall: names, timings, tokens and errors, no content.
  api.get("/traces/:id", id, (c) => answer(c, traces.trace(c.req.valid("param").id)));

  // An answer to a stopped run's approval continues the run: its events stream like a turn's.
  api.post("/conversations/:id/approvals/:callId", conversationCallIds, json, async (c) => {
    const { id, callId } = c.req.valid("param");
    const body = c.req.valid("json");
    // Refused before the stream opens: no such call or a busy conversation (400), or a stored run
    // that fails its signature (409). Claimed before anything is awaited, so one answer counts.
    const claim = await chat.claimApproval(id, callId);
    return eventStream(c, (send, signal) =>
      claim.answer(
        {
          approve: body.approve === true,
          ...(typeof body.reason === "string" ? { reason: body.reason } : {}),
          signal,
        },
        (event) => send(redact(JSON.stringify(capDepth(event).value))),
      ),
    );
  });
  api.post("/runs/:runId/stop", runIds, json, (c) => {
    chat.stop(c.req.valid("param").runId);
    return answer(c, undefined);
  });
  return api;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0)
    throw new HTTPException(400, { message: `${field} must be a non-empty string.` });
  return value;
}
