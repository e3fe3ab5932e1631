import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JunctionError } from "@junction/types";
import { openPlayground, type Playground } from "../src/server/app.js";
import { startHttpServer } from "../src/server/http-server.js";
import { createToken } from "../src/server/security.js";

/** A playground on a fresh data folder and a free loopback port, for tests. */
export interface TestPlayground {
  playground: Playground;
  directory: string;
  token: string;
  port: number;
  /** The app origin's port: MCP App documents only. */
  appPort: number;
  base: string;
  url: string;
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(options?: { keepDirectory?: boolean }): Promise<void>;
}

export async function startTestPlayground(
  options: {
    directory?: string;
    environment?: NodeJS.ProcessEnv;
    /** `--allow-env`: the variables server configs may expand. */
    allowEnv?: string[];
    /** `false`: start without the three default servers (faster, for tests that add their own). */
    seedDefaults?: boolean;
    /** The loopback address to listen on (`--host`). */
    host?: string;
  } = {},
): Promise<TestPlayground> {
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), "junction-playground-test-"));
  const playground = await openPlayground({
    directory,
    environment: options.environment ?? {},
    allowEnv: options.allowEnv,
    seedDefaults: options.seedDefaults,
  });
  const token = createToken();
  const http = await startHttpServer(playground, { token, port: 0, host: options.host });
  const base = `http://${options.host ?? "127.0.0.1"}:${http.port}`;
  return {
    playground,
    directory,
    token,
    port: http.port,
    appPort: http.appPort,
    base,
    url: http.url,
    async api(method, path, body) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async close(closeOptions = {}) {
      await http.close();
      await playground.close();
      if (!closeOptions.keepDirectory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Reads a chat turn's server-sent events to the end. */
export function runChatTurn(test: TestPlayground, conversationId: string, body: unknown): Promise<any[]> {
  return streamEvents(test, `/api/conversations/${conversationId}/messages`, body);
}

/**
 * Answers every call the conversation's stopped run waits for (approving, unless `approve` says
 * otherwise), one at a time as the page does; resolves with the events of the continued runs.
 */
export async function answerApprovals(
  test: TestPlayground,
  conversationId: string,
  approve: (call: { id: string; name: string; input: unknown }) => boolean = () => true,
): Promise<any[]> {
  const events: any[] = [];
  for (;;) {
    const call = test.playground.store.getConversation(conversationId)?.runState?.pending[0];
    if (!call) return events;
    const path = `/api/conversations/${conversationId}/approvals/${encodeURIComponent(call.id)}`;
    events.push(...(await streamEvents(test, path, { approve: approve(call) })));
  }
}

/** Answers one waiting call of the conversation's stopped run, as the page's buttons do; resolves with the continued run's events. */
export function answerApproval(
  test: TestPlayground,
  { conversationId, callId }: { conversationId: string; callId: string },
  body: { approve: boolean; reason?: string },
): Promise<any[]> {
  return streamEvents(
    test,
    `/api/conversations/${conversationId}/approvals/${encodeURIComponent(callId)}`,
    body,
  );
}

/** Posts `body` to `path` and reads the server-sent events it answers with, to the end. */
async function streamEvents(test: TestPlayground, path: string, body: unknown): Promise<any[]> {
  const response = await fetch(`${test.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${test.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new JunctionError(
      "invalid-argument",
      `${path} answered ${response.status}: ${await response.text()}`,
    );
  }
  const events: any[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith("data: ")) {
        const event = JSON.parse(frame.slice(6));
        events.push(event);
      }
      end = buffer.indexOf("\n\n");
    }
  }
  return events;
}
