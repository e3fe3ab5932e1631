import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChatTurn, startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// Issue 18, item 12: the server is a hono app. Errors keep their own status, path ids are
// checked, one SSE writer serves the page's events and a chat turn, and a page that goes away
// stops its turn.
let test: TestPlayground;

beforeAll(async () => {
  test = await startTestPlayground();
});
afterAll(async () => {
  await test.close();
});

const authorization = () => ({ authorization: `Bearer ${test.token}` });

/** Reads a server-sent-events response until `until` holds for what arrived, then drops the connection. */
async function readEvents(
  response: Response,
  until: (text: string) => boolean,
  abort: AbortController,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (until(text)) break;
  }
  abort.abort();
  return text;
}

describe("errors keep their own status", () => {
  it("answers an unknown endpoint 404 naming it, and a wrong method too", async () => {
    expect(await test.api("GET", "/api/nothing-here")).toEqual({
      status: 404,
      body: { error: "No such endpoint: GET /api/nothing-here" },
    });
    expect(await test.api("PATCH", "/api/servers", {})).toEqual({
      status: 404,
      body: { error: "No such endpoint: PATCH /api/servers" },
    });
  });

  it("refuses a path id with control characters or over 200 characters with 400", async () => {
    expect(await test.api("GET", "/api/conversations/a%01b")).toEqual({
      status: 400,
      body: { error: "The id in the path must be 1–200 characters without control characters." },
    });
    expect((await test.api("POST", `/api/runs/${"r".repeat(201)}/stop`, {})).body).toEqual({
      error: "The runId in the path must be 1–200 characters without control characters.",
    });
    expect(await test.api("GET", "/api/conversations/no-such-conversation")).toEqual({
      status: 404,
      body: { error: "No conversation with id no-such-conversation." },
    });
  });

  it("refuses a body over 8 MB with 413, and a body that is not a JSON object with 400", async () => {
    const huge = await fetch(`${test.base}/api/settings`, {
      method: "POST",
      headers: { ...authorization(), "content-type": "application/json" },
      body: JSON.stringify({ openaiCompatibleModel: "x".repeat(9 * 1024 * 1024) }),
    });
    expect([huge.status, await huge.json()]).toEqual([
      413,
      { error: "The request body is larger than 8 MB." },
    ]);
    expect(await test.api("POST", "/api/settings", [1, 2])).toEqual({
      status: 400,
      body: { error: "The request body must be a JSON object." },
    });
    const notJson = await fetch(`${test.base}/api/settings`, {
      method: "POST",
      headers: { ...authorization(), "content-type": "application/json" },
      body: "{ nope",
    });
    expect(notJson.status).toBe(400);
  });

  it("refuses a request whose Host cannot make a URL with 403, as any foreign Host", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      httpRequest(
        {
          host: "127.0.0.1",
          port: test.port,
          path: "/api/servers",
          headers: { host: "a b", ...authorization() },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      )
        .on("error", reject)
        .end();
    });
    expect(status).toBe(403);
  });
});

describe("example servers", () => {
  it("answers an example the playground does not ship with 404, and adds nothing", async () => {
    expect(await test.api("POST", "/api/servers/examples/nope", {})).toEqual({
      status: 404,
      body: { error: "There is no example server nope." },
    });
    expect(await test.api("POST", "/api/servers/examples/__proto__", {})).toEqual({
      status: 404,
      body: { error: "There is no example server __proto__." },
    });
    expect(
      (await test.api("GET", "/api/servers")).body.map((server: { name: string }) => server.name),
    ).toEqual(["everything", "filesystem", "memory"]);
  });
});

describe("the page's files", () => {
  it("serves the favicon the page names without the token, so loading the page has no 401", async () => {
    const page = await (await fetch(test.url)).text();
    expect(page).toContain('<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />');
    const icon = await fetch(`${test.base}/assets/favicon.svg`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
    expect(await icon.text()).toMatch(/^<svg /);
  });
});

describe("server-sent events", () => {
  it("opens the page's event stream with a comment and carries hub events as data frames", async () => {
    const abort = new AbortController();
    const response = await fetch(`${test.base}/api/events?token=${test.token}`, { signal: abort.signal });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const reading = readEvents(response, (text) => text.includes("elicitation-closed"), abort);
    await new Promise((resolve) => setTimeout(resolve, 100));
    test.playground.hub.publish({ type: "elicitation-closed", id: "e1" });
    // The default servers' own events (a log line from server-everything) may come in between.
    const frames = (await reading)
      .split("\n\n")
      .filter((frame) => !frame.startsWith('data: {"type":"server-log"'));
    expect(frames).toEqual([": connected", 'data: {"type":"elicitation-closed","id":"e1"}', ""]);
  });

  it("stops a chat turn whose page went away, and the conversation takes the next turn", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "offline" });
    const abort = new AbortController();
    const response = await fetch(`${test.base}/api/conversations/${conversation.id}/messages`, {
      method: "POST",
      headers: { ...authorization(), "content-type": "application/json" },
      body: JSON.stringify({ text: "trigger the long running operation" }),
      signal: abort.signal,
    });
    const seen = await readEvents(response, (text) => text.includes('"type":"tool-call"'), abort).catch(
      (error: unknown) => String(error),
    );
    expect(seen).toMatch(/^: connected\n\ndata: \{"type":"run-start"/);
    await expect
      .poll(() => test.playground.store.getConversation(conversation.id)!.transcript.at(-1))
      .toEqual({ kind: "notice", level: "info", text: "Stopped." });
    const saved = test.playground.store.getConversation(conversation.id)!;
    expect(saved.transcript.find((item) => item.kind === "tool")).toMatchObject({ status: "stopped" });
    const next = await runChatTurn(test, conversation.id, { text: "echo still here" });
    expect(next.at(-1)).toEqual({
      type: "finish",
      reason: "stop",
      text: 'Done. everything_echo returned: "Echo: still here".',
    });
  });
});
