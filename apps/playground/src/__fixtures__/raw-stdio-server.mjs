// The JSON-RPC loop of the playground's raw (SDK-less) test servers over stdio: the handshake,
// tools/list, tools/call, ping, and requests of their own to the client, so each server can send
// what the SDK would refuse to build.

/** Writes one JSON-RPC message to the client. */
export const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

/**
 * Serves `tools` on stdin/stdout. `call(name, args, id)` answers a tools/call with a result, or
 * with `{ raw }`, a response written as it is. `onInitialized` runs after the handshake.
 * Returns `request(method, params)`, which sends a request of the server's own and resolves with
 * the client's whole answer (`result` or `error`).
 */
export async function serveRawStdio({ serverInfo, capabilities, tools, call, onInitialized }) {
  const { createInterface } = await import("node:readline");
  let nextRequest = 1000;
  const waiting = new Map();
  const request = (method, params) => {
    const id = nextRequest++;
    send({ jsonrpc: "2.0", id, method, params });
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  createInterface({ input: process.stdin }).on("line", async (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.id !== undefined && message.method === undefined) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
      return;
    }
    const reply = (result) => send({ jsonrpc: "2.0", id: message.id, result });
    switch (message.method) {
      case "initialize":
        return reply({ protocolVersion: message.params.protocolVersion, capabilities, serverInfo });
      case "notifications/initialized":
        return onInitialized?.();
      case "tools/list":
        return reply({ tools });
      case "tools/call": {
        const { name, arguments: args = {} } = message.params;
        const answer = await call(name, args, message.id);
        return answer.raw === undefined ? reply(answer) : process.stdout.write(`${answer.raw}\n`);
      }
      case "ping":
      case "logging/setLevel":
        return reply({});
      default:
        if (message.id !== undefined)
          send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
    }
  });
  return { request };
}
