// What every resource's routes share: the services, how a handler answers, and the validators of
// a path's ids and a request body.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { validator } from "hono/validator";
import type { z } from "zod";
import { fieldName } from "../../shared/api-bodies.js";
import type { TraceStore } from "../../trace/trace-store.js";
import type { ChatService } from "../chat-service.js";
import type { ElicitationBroker } from "../elicitation-broker.js";
import type { EventHub } from "../event-hub.js";
import type { McpApps } from "../mcp-apps.js";
import type { MCPEndpoint } from "../mcp-endpoint.js";
import type { ProviderCatalog } from "../provider-catalog.js";
import type { ServerRegistry } from "../server-registry.js";
import type { Store } from "../store.js";

/** Everything the HTTP API serves. */
export interface AppContext {
  store: Store;
  registry: ServerRegistry;
  hub: EventHub;
  elicitation: ElicitationBroker;
  /** The providers a chat may use: their settings, which are available, what each model can do. */
  providers: ProviderCatalog;
  chat: ChatService;
  /** MCP Apps: tools' `ui://` resources served into sandboxed iframes. */
  apps: McpApps;
  /** Each chat turn's trace, for the page's waterfall. */
  traces: TraceStore;
  /** The playground served over MCP: its switch, token, clients and their calls. */
  endpoint: MCPEndpoint;
}

/** What each resource's routes are built with. */
export interface RouteKit {
  context: AppContext;
  /** A handler's answer (awaited) as redacted JSON, or `{ ok: true }` when it has none. */
  answer(c: Context, body: unknown): Promise<Response>;
  /** The page that asked, as its checked Host names it: the one page allowed to frame an app. */
  pageOf(c: Context): { pageOrigin: string; appPort: number };
  redact(text: string): string;
}

/** The longest id a path may carry: ids are UUIDs or a model's call id. */
const maximumIdLength = 200;

/**
 * Validates the path's parameters `names`: each a non-empty id of at most
 * {@link maximumIdLength} characters without control characters (hono has decoded them).
 */
export function pathIds<Name extends string>(...names: Name[]) {
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

/** The path's `:id`, checked. */
export const id = pathIds("id");

const articled = (noun: string) => `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;

/** What a JSON value is, in words: "a string", "an array", "null". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return articled(typeof value);
}

/** What a schema wanted, in words, from zod's name for it. */
function expectedOf(expected: string): string {
  if (expected === "record") return "an object";
  if (expected === "boolean") return "true or false";
  return articled(expected);
}

/**
 * The sentence a body's problem is reported with, naming the field: the schema's own message
 * where it gives one, else one of these.
 */
function issueMessage(issue: z.core.$ZodRawIssue): string {
  const field = fieldName(issue.path ?? []);
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? `${field} is missing: it must be ${expectedOf(issue.expected)}.`
        : `${field} must be ${expectedOf(issue.expected)}, not ${kindOf(issue.input)}.`;
    case "invalid_value":
      return `${field} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}, not ${JSON.stringify(issue.input)}.`;
    case "invalid_union":
      return `${field} does not have any of the shapes it may have.`;
    default:
      return `${field} is not valid (${issue.code}).`;
  }
}

/**
 * Validates the request's JSON body (hono parses it, and answers 400 when it is not JSON) with
 * `schema`: a body that is not an object, or whose fields fail the schema, is a 400 whose message
 * names the first wrong field and what is wrong with it.
 */
export function body<Schema extends z.ZodType>(schema: Schema) {
  return validator("json", (value: unknown): z.output<Schema> => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new HTTPException(400, { message: "The request body must be a JSON object." });
    }
    const parsed = schema.safeParse(value, { error: issueMessage });
    if (!parsed.success) throw new HTTPException(400, { message: parsed.error.issues[0]!.message });
    return parsed.data;
  });
}
