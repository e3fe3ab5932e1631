/** What a raw 2026-07-28 request answers: its JSON-RPC result or error. */
export interface RawAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * A raw 2026-07-28 request to an endpoint, as another client (or a forger) sends it: no client
 * library in between. `tasks: false` leaves the tasks extension out of the client's capabilities
 * (an agent tool's approval then comes as an `input_required` result); `capabilities` adds others.
 */
export async function rawRequest(
  url: string,
  { method, params }: { method: string; params: Record<string, unknown> },
  options: { tasks?: boolean; capabilities?: Record<string, unknown>; token?: string } = {},
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {}),
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {
            elicitation: {},
            ...options.capabilities,
            ...(options.tasks === false ? {} : { extensions: { "io.modelcontextprotocol/tasks": {} } }),
          },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data:"))
        ?.slice(5) ?? "{}");
  return JSON.parse(data) as RawAnswer;
}

/** Polls `tasks/get` until the task has `status` (bounded: 500 polls). */
export async function waitForTask(
  url: string,
  taskId: string,
  status: string,
): Promise<Record<string, unknown>> {
  let seen: unknown;
  for (let polls = 0; polls < 500; polls++) {
    const task = (await rawRequest(url, { method: "tasks/get", params: { taskId } }, undefined)).result;
    if (task?.status === status) return task;
    seen = task?.status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`The task ${taskId} never reached "${status}" (last seen: ${String(seen)}).`);
}
