import type { HubEvent } from "../shared/api-types.js";

/** The page's token: read from the URL the playground printed, sent with every API call. */
export const token = new URLSearchParams(location.search).get("token") ?? "";

/** An API failure with the server's own message. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Calls the JSON API; a non-2xx answer throws an ApiError with the server's message. */
export function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  return apiRequest<T>(method, path, { body });
}

/** {@link api} with options: `signal` aborts the request (the server then cancels what it does). */
export async function apiRequest<T = unknown>(
  method: string,
  path: string,
  { body, signal }: { body?: unknown; signal?: AbortSignal },
): Promise<T> {
  const response = await fetch(path, {
    method,
    ...(signal ? { signal } : {}),
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : undefined;
  } catch {
    value = { error: text };
  }
  if (!response.ok) {
    const message =
      (value as { error?: string } | undefined)?.error ?? `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message);
  }
  return value as T;
}

/** POSTs JSON and reads the answer as server-sent events, one parsed object per `data:` line. */
export async function postStream<E>(path: string, body: unknown, onEvent: (event: E) => void): Promise<void> {
  const response = await fetch(path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok || !response.body) {
    const text = await response.text();
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {}
    throw new ApiError(response.status, message);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let boundary = buffer.indexOf("\n\n");
    while (boundary !== -1) {
      const frame = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      for (const line of frame.split("\n")) {
        if (line.startsWith("data: ")) onEvent(JSON.parse(line.slice(6)) as E);
      }
      boundary = buffer.indexOf("\n\n");
    }
  }
}

/** The live events of the whole app (server status, elicitation requests). */
export function openEvents(onEvent: (event: HubEvent) => void): EventSource {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  source.onmessage = (message) => onEvent(JSON.parse(message.data as string) as HubEvent);
  return source;
}
