import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

// Each client's library is imported inside its connect(): a measurement process loads only the
// client it measures, so it starts quicker and no other library's module state sits in its heap.

export const echoServerPath = fileURLToPath(new URL("../servers/echo-server.mjs", import.meta.url));
/** The same echo tool on a 2026-07-28-only server (the SDK's v2 server, legacy traffic refused). */
export const modernEchoServerPath = fileURLToPath(
  new URL("../servers/modern-echo-server.mjs", import.meta.url),
);

/** Where the echo server is: a command to spawn (stdio), or a URL (Streamable HTTP). */
export type Endpoint = { transport: "stdio" } | { transport: "http"; url: string };

/** A connected client that can call the echo tool. */
export interface BenchClient {
  call(text: string): Promise<string>;
  close(): Promise<void>;
}

export interface Contender {
  name: string;
  transports: Endpoint["transport"][];
  /** Which echo server it talks to: the 2025 one (default) or the 2026-07-28-only one. */
  server?: "legacy" | "modern";
  connect(endpoint: Endpoint): Promise<BenchClient>;
}

const stdioCommand = { command: process.execPath, args: [echoServerPath] };
const modernStdioCommand = { command: process.execPath, args: [modernEchoServerPath] };

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  const first = content?.[0];
  if (first?.type !== "text" || first.text === undefined)
    throw new Error(`unexpected echo result: ${JSON.stringify(result)}`);
  return first.text;
}

export const JUNCTION = "Junction MCP";
export const RAW_SDK = "raw MCP SDK Client";
/** The same two clients against the 2026-07-28-only server (rows of their own, own ratios). */
export const JUNCTION_MODERN = "Junction MCP, 2026-07-28 server";
export const RAW_SDK_MODERN = "raw MCP SDK Client, 2026-07-28 server";

/** Junction's MCP class, through the proxy tool an Agent uses. */
function junctionClient(name: string, server: "legacy" | "modern"): Contender {
  const command = server === "modern" ? modernStdioCommand : stdioCommand;
  return {
    name,
    server,
    transports: ["stdio", "http"],
    async connect(endpoint) {
      const { MCP } = await import("@junction/mcp-client");
      const mcp =
        endpoint.transport === "stdio"
          ? new MCP({ transport: "stdio", ...command, reconnect: false })
          : new MCP({ transport: "http", url: endpoint.url, sseFallback: false, reconnect: false });
      await mcp.connect();
      if (server === "modern" && mcp.protocolVersion !== "2026-07-28")
        throw new Error(`expected 2026-07-28 with the modern server, negotiated ${mcp.protocolVersion}`);
      const echo = (await mcp.listTools()).find((tool) => tool.name === "echo")!;
      return { call: async (text) => textOf(await echo.execute({ text })), close: () => mcp.close() };
    },
  };
}

const junction = junctionClient(JUNCTION, "legacy");
const junctionModern = junctionClient(JUNCTION_MODERN, "modern");

/** The official SDK's Client, used directly, with the server spawned by `command`. */
function rawSDKClient(
  name: string,
  command: { command: string; args: string[] },
  server: "legacy" | "modern" = "legacy",
): Contender {
  return {
    name,
    server,
    transports: command === stdioCommand || command === modernStdioCommand ? ["stdio", "http"] : ["stdio"],
    async connect(endpoint) {
      // The SDK line @junction/mcp-client is built on (v2), so the ratios compare like with like.
      const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
      // A modern server is reached as Junction reaches it by default: probe, then 2026-07-28.
      const client = new Client(
        { name: "bench", version: "1.0.0" },
        server === "modern" ? { versionNegotiation: { mode: "auto" } } : {},
      );
      await client.connect(
        endpoint.transport === "stdio"
          ? new StdioClientTransport(command)
          : new StreamableHTTPClientTransport(new URL(endpoint.url)),
      );
      return {
        call: async (text) => textOf(await client.callTool({ name: "echo", arguments: { text } })),
        close: () => client.close(),
      };
    },
  };
}

const rawSDK = rawSDKClient(RAW_SDK, stdioCommand);
const rawSDKModern = rawSDKClient(RAW_SDK_MODERN, modernStdioCommand, "modern");

/**
 * The same, with the server in a session of its own (`setsid`), as Junction runs every stdio
 * server (its own process group, so close() can end everything the server started). On Linux
 * with scheduler autogroups, a new session also means a separately scheduled group, which
 * costs some throughput in a tight call loop: this row measures that cost apart from any client.
 */
export const RAW_SDK_OWN_SESSION = "raw MCP SDK Client, server in own session";
const rawSDKOwnSession = rawSDKClient(RAW_SDK_OWN_SESSION, {
  command: "setsid",
  args: [stdioCommand.command, ...stdioCommand.args],
});

/** The Vercel AI SDK's MCP client, through the tool set it hands to generateText. */
const aiSDK: Contender = {
  name: "@ai-sdk/mcp",
  transports: ["stdio", "http"],
  async connect(endpoint) {
    const { experimental_createMCPClient: createAISDKClient } = await import("@ai-sdk/mcp");
    const { Experimental_StdioMCPTransport: AISDKStdioTransport } = await import("@ai-sdk/mcp/mcp-stdio");
    const client = await createAISDKClient({
      transport:
        endpoint.transport === "stdio"
          ? new AISDKStdioTransport(stdioCommand)
          : { type: "http", url: endpoint.url },
    });
    const tools = await client.tools();
    const echo = tools.echo!;
    let id = 0;
    return {
      call: async (text) =>
        textOf(await echo.execute!({ text }, { toolCallId: `call_${id++}`, messages: [] } as never)),
      close: () => client.close(),
    };
  },
};

/** LangChain's MCP adapters, through the StructuredTool an agent invokes. */
const langChain: Contender = {
  name: "@langchain/mcp-adapters",
  transports: ["stdio", "http"],
  async connect(endpoint) {
    const { MultiServerMCPClient } = await import("@langchain/mcp-adapters");
    const client = new MultiServerMCPClient({
      mcpServers: {
        echo:
          endpoint.transport === "stdio"
            ? { transport: "stdio", ...stdioCommand }
            : { transport: "http", url: endpoint.url, automaticSSEFallback: false },
      },
      useStandardContentBlocks: true,
    } as never);
    const tools = await client.getTools();
    const echo = tools.find((tool) => tool.name.endsWith("echo"))!;
    return {
      call: async (text) => {
        const output = await echo.invoke({ text });
        // LangChain returns the text (or content blocks) rather than the MCP result.
        if (typeof output === "string") return output;
        const blocks = Array.isArray(output) ? output : [output];
        return String((blocks[0] as { text?: string }).text ?? "");
      },
      close: () => client.close(),
    };
  },
};

/** A fresh server process, handshake and call for every call: what a naive integration does. */
const spawnPerCall: Contender = {
  name: "spawn a process per call",
  transports: ["stdio"],
  async connect() {
    return {
      async call(text) {
        const pipe = await NewlineJSONPipe.start();
        try {
          return await pipe.call(text);
        } finally {
          await pipe.close();
        }
      },
      close: async () => {},
    };
  },
};

/** Hand-written newline-delimited JSON-RPC over the server's stdio: the floor for any client. */
const rawPipe: Contender = {
  name: "raw newline-JSON pipe (floor)",
  transports: ["stdio"],
  async connect() {
    const pipe = await NewlineJSONPipe.start();
    return { call: (text) => pipe.call(text), close: () => pipe.close() };
  },
};

/** Hand-written JSON-RPC over HTTP POSTs with the session header: the floor for HTTP. */
const rawFetch: Contender = {
  name: "raw fetch JSON-RPC (floor)",
  transports: ["http"],
  async connect(endpoint) {
    if (endpoint.transport !== "http") throw new Error("http only");
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    let nextId = 1;
    const post = async (message: object) => {
      const response = await fetch(endpoint.url, { method: "POST", headers, body: JSON.stringify(message) });
      const sessionId = response.headers.get("mcp-session-id");
      if (sessionId) headers["mcp-session-id"] = sessionId;
      const body = await response.text();
      const data = body.split("\n").find((line) => line.startsWith("data: "));
      return data ? JSON.parse(data.slice(6)) : body ? JSON.parse(body) : undefined;
    };
    await post({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: initializeParams });
    headers["mcp-protocol-version"] = initializeParams.protocolVersion;
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    return {
      call: async (text) =>
        textOf(
          (
            await post({
              jsonrpc: "2.0",
              id: nextId++,
              method: "tools/call",
              params: { name: "echo", arguments: { text } },
            })
          ).result,
        ),
      close: async () => {
        await fetch(endpoint.url, { method: "DELETE", headers });
      },
    };
  },
};

const initializeParams = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "bench-floor", version: "1.0.0" },
};

class NewlineJSONPipe {
  private nextId = 1;
  private buffer = "";
  private readonly pending = new Map<number, (message: any) => void>();

  private readonly child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.child = child;
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let newline = this.buffer.indexOf("\n"); newline !== -1; newline = this.buffer.indexOf("\n")) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (!line.trim()) continue;
        const message = JSON.parse(line);
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      }
    });
  }

  static async start(): Promise<NewlineJSONPipe> {
    const pipe = new NewlineJSONPipe(
      spawn(stdioCommand.command, stdioCommand.args, { stdio: ["pipe", "pipe", "inherit"] }),
    );
    await pipe.request("initialize", initializeParams);
    pipe.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    return pipe;
  }

  request(method: string, params: object): Promise<any> {
    const id = this.nextId++;
    const reply = new Promise<any>((resolve) => this.pending.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return reply;
  }

  async call(text: string): Promise<string> {
    return textOf((await this.request("tools/call", { name: "echo", arguments: { text } })).result);
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
    this.child.kill();
    if (this.child.exitCode === null && this.child.signalCode === null) await once(this.child, "exit");
  }
}

/** The other MCP clients an agent may be built on: the "fastest peer" of the targets is one of them. */
export const PEERS = [aiSDK.name, langChain.name];

export const contenders: Contender[] = [
  junction,
  rawSDK,
  junctionModern,
  rawSDKModern,
  rawSDKOwnSession,
  aiSDK,
  langChain,
  spawnPerCall,
  rawPipe,
  rawFetch,
];

/** Starts the echo server over Streamable HTTP on a free loopback port, answering after `delayMs`. */
export async function startHTTPEchoServer(
  options: { delayMs?: number; server?: "legacy" | "modern" } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const delay = options.delayMs ? ["--delay-ms", String(options.delayMs)] : [];
  const script = options.server === "modern" ? modernEchoServerPath : echoServerPath;
  const child = spawn(process.execPath, [script, "--http", "0", ...delay], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const { port } = JSON.parse(line.toString("utf8"));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      child.kill();
      if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
    },
  };
}
