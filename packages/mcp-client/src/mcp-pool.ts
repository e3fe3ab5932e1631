import { JunctionError } from "@junction/types";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";

/**
 * Connections shared by descriptor: one `MCP` per distinct config in this process, connected
 * on first use and reused by every run after it. A durable engine's worker that replays many
 * runs after a restart connects each server once, not once per run or per call. A connect that
 * fails is forgotten, so the next `get()` tries again. After `close()` the pool is done: a `get()`
 * then, or one still under way when it was called, fails and leaves no server running.
 *
 * @example
 * ```ts
 * const pool = new MCPPool();
 * const fs = await pool.get({ transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv"] });
 * // … every run on this worker: new Agent({ …, mcps: [fs] })
 * await pool.close();
 * ```
 */
export class MCPPool {
  readonly #connections = new Map<string, Promise<MCP>>();
  readonly #objectIds = new WeakMap<object, number>();
  #nextObjectId = 1;
  #closed = false;

  /**
   * The connected `MCP` for `config`: the one already made for an equal config, or a new one.
   * Never a dead one: a pooled `MCP` whose reconnect gave up (the server was down longer than the
   * backoff) is connected again first (the error, if the server is still down, goes to this
   * caller; the next `get()` tries again), and one closed by someone is replaced.
   */
  async get(config: MCPConfig): Promise<MCP> {
    let mcp: MCP;
    try {
      mcp = await this.#connected(config);
    } catch (error) {
      this.#throwIfClosed();
      throw error;
    }
    // close() ran while this caller waited: it closes that connection, so none is handed out.
    this.#throwIfClosed();
    return mcp;
  }

  async #connected(config: MCPConfig): Promise<MCP> {
    // Checked before every open, so nothing starts a server once close() was called.
    this.#throwIfClosed();
    const key = this.#keyOf(config);
    const existing = this.#connections.get(key);
    if (!existing) return this.#open(key, config);
    const mcp = await existing;
    if (mcp.state === "closed") {
      if (this.#connections.get(key) === existing) this.#connections.delete(key);
      return this.#connected(config);
    }
    // connect() is shared by concurrent callers, and waits for a reconnect under way.
    if (mcp.state !== "connected") await mcp.connect();
    return mcp;
  }

  #open(key: string, config: MCPConfig): Promise<MCP> {
    const connection = (async () => {
      const mcp = new MCP(config);
      await mcp.connect();
      return mcp;
    })();
    this.#connections.set(key, connection);
    connection.catch(() => {
      // A failed connect is not kept: the caller gets the error, the next get() tries again.
      if (this.#connections.get(key) === connection) this.#connections.delete(key);
    });
    return connection;
  }

  /** How many connections the pool holds (connected or connecting). */
  get size(): number {
    return this.#connections.size;
  }

  /**
   * Closes every connection (their server processes end, those still starting too: each is
   * closed once its connect settles) and empties the pool for good: a later `get()` fails.
   * Resolves once every server has been closed.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.allSettled(
      connections.map(async (connection) => {
        const mcp = await connection;
        await mcp.close();
      }),
    );
  }

  #throwIfClosed(): void {
    if (this.#closed) {
      throw new JunctionError(
        "mcp-connection-closed",
        "This MCPPool was closed (close() ended its connections): create a new MCPPool to connect again.",
      );
    }
  }

  /**
   * Equal configs give equal keys: plain values by content (object keys sorted), functions and
   * in-process servers by identity.
   */
  #keyOf(config: MCPConfig): string {
    return JSON.stringify(config, (_key, value: unknown) => {
      if (typeof value === "function" || (typeof value === "object" && value !== null && !isPlain(value))) {
        return `#object-${this.#idOf(value as object)}`;
      }
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const record = value as Record<string, unknown>;
        return Object.fromEntries(
          Object.keys(record)
            .sort()
            .map((key) => [key, record[key]]),
        );
      }
      return value;
    });
  }

  #idOf(value: object): number {
    let id = this.#objectIds.get(value);
    if (id === undefined) {
      id = this.#nextObjectId++;
      this.#objectIds.set(value, id);
    }
    return id;
  }
}

function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
