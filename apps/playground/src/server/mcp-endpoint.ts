import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Agent } from "@junction/core";
import type { GatewaySource, MCPHTTPHandler, MCPServedRequest, MCPServer } from "@junction/mcp-server";
import { errorMessage, JunctionError, type MCPTool, type ToolOutput, type ToolResult } from "@junction/types";
import type { ServeStatus } from "../shared/api-types.js";
import { toolVisibility } from "./mcp-app-csp.js";
import { isLoopbackAddress } from "./security.js";
import { type ObservedRequest, ServedActivity } from "./served-activity.js";
import type { ServerRegistry } from "./server-registry.js";
import type { Store } from "./store.js";

/** The name the playground's agent is served under. */
export const ASK_PLAYGROUND = "ask_playground";

/** What the page says of approvals inside the served agent. */
export const SERVED_APPROVALS =
  "A call the served agent wants to make that needs approval here (anything not annotated read-only " +
  "and closed-world) is asked of the client's person through MCP: an elicitation within the call " +
  "(2025-11-25), input_required (2026-07-28), or the task's input request. A client that can do none " +
  "of these gets an error result naming the tool, and nothing runs. These questions go to the " +
  "client, not to this page's approval cards. The connected servers' own tools are called by the " +
  "client directly: its user approves them there, not here.";

/** The switch and where it serves, kept in the playground's database (0600). */
interface StoredEndpoint {
  enabled: boolean;
  port: number;
  token: string;
}

/** A listener serving the endpoint. */
interface RunningEndpoint {
  server: Server;
  handler: MCPHTTPHandler;
  url: string;
}

const settingKey = "mcp-endpoint";
const maximumObservedBody = 4 * 1024 * 1024;

/**
 * The playground serving itself over MCP (Streamable HTTP on loopback): its agent as the
 * `ask_playground` tool and its connected servers' tools as a gateway (`<server>_<tool>`), behind
 * a bearer token. Built on `@junction/mcp-server`. The switch, port and token are kept in the
 * store, so a client's config keeps working after a restart. Every client and call is recorded
 * (`ServedActivity`) for the page. The MCP server package and the HTTP adapter load when it first
 * serves, so a playground that does not serve (a CLI chat) never loads them.
 */
export class MCPEndpoint {
  readonly #store: Store;
  readonly #registry: ServerRegistry;
  readonly #createAgent: () => Promise<Agent>;
  readonly #host: string;
  readonly #activity = new ServedActivity();
  readonly #session = new AsyncLocalStorage<string>();
  #running: RunningEndpoint | undefined;
  #error: string | null = null;

  constructor(options: {
    store: Store;
    registry: ServerRegistry;
    /** A fresh agent per served call, with the playground's provider and connected servers. */
    createAgent: () => Promise<Agent>;
    /** A loopback address to listen on. @default "127.0.0.1" */
    host?: string;
  }) {
    this.#store = options.store;
    this.#registry = options.registry;
    this.#createAgent = options.createAgent;
    this.#host = options.host && isLoopbackAddress(options.host) ? options.host : "127.0.0.1";
  }

  /** Starts serving when the stored switch is on (at the playground's start). */
  async resume(): Promise<void> {
    if (this.#stored()?.enabled) await this.#start();
  }

  /** Turns serving on or off, keeping the choice; answers the new status. */
  async setEnabled(enabled: unknown): Promise<ServeStatus> {
    if (typeof enabled !== "boolean") {
      throw new JunctionError("invalid-argument", "`enabled` must be true or false.");
    }
    const stored = this.#stored() ?? { enabled, port: 0, token: newToken() };
    this.#save({ ...stored, enabled });
    if (enabled) await this.#start();
    else await this.#stop();
    return this.status();
  }

  /** Where it serves, its token, its tools, and who called what. */
  async statusWithTools(): Promise<ServeStatus> {
    const status = this.status();
    if (!this.#running) return status;
    const upstream = await this.#gateway().listServerTools();
    return { ...status, tools: [ASK_PLAYGROUND, ...upstream.map((tool) => tool.name)] };
  }

  status(): ServeStatus {
    const stored = this.#stored();
    return {
      enabled: stored?.enabled ?? false,
      url: this.#running?.url ?? null,
      token: this.#running ? (stored?.token ?? null) : null,
      error: this.#error,
      tools: [],
      approvals: SERVED_APPROVALS,
      clients: this.#activity.clients(),
      calls: this.#activity.calls(),
    };
  }

  /** Stops serving (the stored switch stays as it is). */
  async close(): Promise<void> {
    await this.#stop();
  }

  /** The MCP server the endpoint serves (a stdio entry could serve the same). */
  async mcpServer(): Promise<MCPServer> {
    const { agentTool, createMCPServer } = await import("@junction/mcp-server");
    return createMCPServer({
      name: "junction-playground",
      version: "1.0.0",
      instructions:
        `${ASK_PLAYGROUND} hands a request to the Junction playground's agent, which uses the ` +
        "playground's MCP servers. The other tools are those servers' own, named <server>_<tool>.",
      tools: [
        agentTool(() => this.#createAgent(), {
          name: ASK_PLAYGROUND,
          description:
            "Asks the Junction playground's agent to do something with the playground's MCP servers " +
            "(files in its sandbox, memory, the everything server's demo tools); answers with its reply.",
        }),
      ],
      mcps: [{ mcp: this.#gateway() }],
      // Every tools/call is recorded here, whichever way the server serves the tool (a served
      // agent has paths of its own: approvals through MCP, tasks).
      aroundRequest: (request, handle) => this.#recordedCall(request, handle),
    });
  }

  /** A `tools/call` recorded with the client that made it, start to end; other requests pass. */
  async #recordedCall(request: MCPServedRequest, handle: () => Promise<unknown>): Promise<unknown> {
    if (request.method !== "tools/call") return handle();
    const name = typeof request.params.name === "string" ? request.params.name : "?";
    const id = this.#activity.callStarted(this.#session.getStore() ?? "unknown", name);
    try {
      const result = await handle();
      this.#ended(id, result as ToolOutput);
      return result;
    } catch (error) {
      this.#activity.callEnded(id, "error", errorMessage(error));
      throw error;
    }
  }

  async #start(): Promise<void> {
    if (this.#running) return;
    const stored = this.#stored();
    if (!stored) return;
    this.#error = null;
    try {
      this.#running = await this.#listen(stored);
    } catch (error) {
      this.#error = `Could not serve on ${this.#host}:${stored.port}: ${errorMessage(error)}`;
    }
  }

  async #listen(stored: StoredEndpoint): Promise<RunningEndpoint> {
    const [{ getRequestListener }, { createMCPHTTPHandler }] = await Promise.all([
      import("@hono/node-server"),
      import("@junction/mcp-server"),
    ]);
    let handler: MCPHTTPHandler | undefined;
    const listener = getRequestListener((request, env) =>
      handler
        ? this.#handle({ handler, token: stored.token }, request, env)
        : new Response("Starting", { status: 503 }),
    );
    const server = createServer(listener);
    const listen = (port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, this.#host, () => {
          server.off("error", reject);
          resolve();
        });
      });
    try {
      await listen(stored.port);
    } catch (error) {
      // The port it had is taken now: another one, and the page shows the new URL.
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || stored.port === 0) throw error;
      await listen(0);
    }
    const port = (server.address() as AddressInfo).port;
    if (port !== stored.port) this.#save({ ...stored, port });
    const shownHost = this.#host.includes(":") ? `[${this.#host}]` : this.#host;
    const url = `http://${shownHost}:${port}/mcp`;
    handler = createMCPHTTPHandler(await this.mcpServer(), {
      auth: {
        resource: url,
        authorizationServers: [],
        resourceName: "Junction playground",
        verifyToken: (token) =>
          sameToken(token, stored.token)
            ? {
                token,
                clientId: "playground-token",
                scopes: [],
                expiresAt: Math.floor(Date.now() / 1000) + 3600,
                resource: new URL(url),
              }
            : undefined,
      },
    });
    return { server, handler, url };
  }

  /** Serves one request, noting who sent it; only requests with the token are recorded. */
  async #handle(
    { handler, token }: { handler: MCPHTTPHandler; token: string },
    request: Request,
    env: unknown,
  ): Promise<Response> {
    const authorization = request.headers.get("authorization") ?? "";
    const authorized = sameToken(authorization.replace(/^Bearer\s+/i, ""), token);
    if (!authorized) return handler.fetch(request, env);
    const sessionHeader = request.headers.get("mcp-session-id");
    let observed: ObservedRequest = { session: sessionHeader ?? "unknown" };
    if (request.method === "POST") {
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length <= maximumObservedBody) {
        // What a client sends is only read here, never trusted: the handler checks it again.
        const body = await request
          .clone()
          .json()
          .catch(() => undefined);
        observed = this.#activity.observe(body, sessionHeader);
      }
    } else if (request.method === "DELETE" && sessionHeader) {
      this.#activity.closed(sessionHeader);
    }
    const response = await this.#session.run(observed.session, () => handler.fetch(request, env));
    if (observed.initialize && response.ok) {
      this.#activity.initialized(observed, response.headers.get("mcp-session-id"));
    }
    return response;
  }

  async #stop(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    this.#error = null;
    if (!running) return;
    await running.handler.close();
    await new Promise<void>((resolve) => {
      running.server.close(() => resolve());
      running.server.closeAllConnections();
    });
  }

  /** The connected servers' tools, as one source named `<server>_<tool>` (app-only tools left out). */
  #gateway(): GatewaySource {
    const registry = this.#registry;
    return {
      async listServerTools() {
        const lists = await Promise.all(
          registry.connected().map(async (server) => {
            try {
              const tools = await server.mcp.listServerTools();
              return tools
                .filter((tool) => toolVisibility(tool._meta).model)
                .map((tool): MCPTool => ({ ...tool, name: `${server.name}_${tool.name}` }));
            } catch {
              // A server that cannot list its tools now is left out of this list, not the others.
              return [];
            }
          }),
        );
        return lists.flat();
      },
      callTool: async (name, args, options) => {
        const server = registry
          .connected()
          .filter((candidate) => name.startsWith(`${candidate.name}_`))
          .sort((a, b) => b.name.length - a.name.length)[0];
        if (!server) {
          throw new JunctionError("tool-not-found", `No connected server serves ${name} now.`);
        }
        return server.mcp.callTool(name.slice(server.name.length + 1), args, options);
      },
    };
  }

  #ended(id: number, output: ToolOutput): void {
    const result = typeof output === "object" && !Array.isArray(output) ? (output as ToolResult) : undefined;
    if (result?.isError) {
      const text = result.content.find((part) => part.type === "text");
      this.#activity.callEnded(id, "error", text?.type === "text" ? text.text : undefined);
    } else {
      this.#activity.callEnded(id, "ok");
    }
  }

  #stored(): StoredEndpoint | undefined {
    const raw = this.#store.getSetting(settingKey);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredEndpoint>;
      if (typeof parsed.token !== "string" || parsed.token.length < 32) return undefined;
      return {
        enabled: parsed.enabled === true,
        port: Number.isInteger(parsed.port) ? (parsed.port as number) : 0,
        token: parsed.token,
      };
    } catch {
      // A setting that is not ours to read: treated as never set (a new token is made).
      return undefined;
    }
  }

  #save(stored: StoredEndpoint): void {
    this.#store.setSetting(settingKey, JSON.stringify(stored));
  }
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
