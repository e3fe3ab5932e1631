import { JunctionError } from "@junction/types";
import { describe, expect, it, onTestFinished } from "vitest";
import { type RecordedRequest, sse, startFakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import { runChatTurn, startTestPlayground } from "../../test/test-playground.js";

// Issue 11, hole 5: a PUT that changed a server's URL while sending the masked header value
// restored the stored secret and sent it to the new host; the environment's OpenAI-compatible
// key went to a base URL set through the page.

/** A host that records what it is sent and answers 500: no MCP server, just a listener. */
const refuse = (): string[] => {
  throw new JunctionError("invalid-argument", "not an MCP server");
};

async function endpoint(answer: (request: RecordedRequest) => string[] = refuse) {
  const started = await startFakeVendorEndpoint(answer);
  onTestFinished(() => started.close());
  return started;
}

async function playground(environment: NodeJS.ProcessEnv = {}) {
  const test = await startTestPlayground({
    environment: { PATH: process.env.PATH, ...environment },
    seedDefaults: false,
  });
  onTestFinished(() => test.close());
  return test;
}

describe("a stored secret never follows a server to a new destination", () => {
  it("refuses a masked header sent with a new URL; the new host never sees the secret", async () => {
    const original = await endpoint();
    const attacker = await endpoint();
    const test = await playground();
    const added = await test.api("POST", "/api/servers", {
      name: "remote",
      config: { url: `${original.url}/mcp`, headers: { authorization: "Bearer stored-secret-123" } },
    });
    expect(original.requests[0]!.headers.authorization).toBe("Bearer stored-secret-123");
    const shown = (await test.api("GET", "/api/servers")).body[0];
    expect(shown.config.headers).toEqual({ authorization: "••••••" });

    const moved = await test.api("PUT", `/api/servers/${added.body.id}`, {
      name: "remote",
      config: { ...shown.config, url: `${attacker.url}/mcp` },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toBe(
      "The header authorization still shows its hidden value (••••••), but the server's command, arguments or URL changed: type the value again. A stored secret never follows a server to a new destination.",
    );
    expect(attacker.requests).toEqual([]);
    expect(test.playground.store.getServer(added.body.id)!.config.url).toBe(`${original.url}/mcp`);

    // Typed again, the new value (and only it) goes to the new host.
    const retyped = await test.api("PUT", `/api/servers/${added.body.id}`, {
      name: "remote",
      config: { url: `${attacker.url}/mcp`, headers: { authorization: "Bearer typed-for-the-new-host" } },
    });
    expect(retyped.status).toBe(200);
    expect(attacker.requests.map((request) => request.headers.authorization)).toContain(
      "Bearer typed-for-the-new-host",
    );
    expect(JSON.stringify(attacker.requests.map((request) => request.headers))).not.toContain(
      "stored-secret-123",
    );
  });

  it("still restores a masked value when the destination stays, and refuses it with a new command", async () => {
    const original = await endpoint();
    const test = await playground();
    const added = await test.api("POST", "/api/servers", {
      name: "remote",
      config: { url: `${original.url}/mcp`, headers: { "x-api-key": "kept-secret-456" } },
    });
    const shown = (await test.api("GET", "/api/servers")).body[0];
    const before = original.requests.length;
    const same = await test.api("PUT", `/api/servers/${added.body.id}`, {
      name: "renamed",
      config: shown.config,
    });
    expect(same.status).toBe(200);
    expect(original.requests.slice(before).map((request) => request.headers["x-api-key"])).toContain(
      "kept-secret-456",
    );

    const local = await test.api("POST", "/api/servers", {
      name: "local",
      config: { command: "false", env: { API_TOKEN: "env-secret-789" } },
    });
    const localShown = (await test.api("GET", "/api/servers")).body.find(
      (server: any) => server.name === "local",
    );
    const newCommand = await test.api("PUT", `/api/servers/${local.body.id}`, {
      name: "local",
      config: {
        ...localShown.config,
        command: process.execPath,
        args: ["-e", "console.log(process.env.API_TOKEN)"],
      },
    });
    expect(newCommand.status).toBe(400);
    expect(newCommand.body.error).toMatch(/^The env variable API_TOKEN still shows its hidden value/);
    expect(test.playground.store.getServer(local.body.id)!.config).toEqual({
      command: "false",
      env: { API_TOKEN: "env-secret-789" },
    });
  });
});

describe("the environment's OpenAI-compatible key goes only to the environment's URL", () => {
  const chatAnswer = () => [
    sse({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
    }),
    "data: [DONE]\n\n",
  ];

  it("sends the key to OPENAI_COMPATIBLE_BASE_URL, and no key to a URL set through the page's settings", async () => {
    const own = await endpoint(chatAnswer);
    const elsewhere = await endpoint(chatAnswer);
    const test = await playground({
      OPENAI_COMPATIBLE_BASE_URL: `${own.url}/v1/`,
      OPENAI_COMPATIBLE_API_KEY: "env-compatible-key",
    });
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const first = await runChatTurn(test, conversation.id, { text: "hello" });
    expect(first.at(-1)).toEqual({ type: "finish", reason: "stop", text: "hi" });
    expect(own.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer env-compatible-key",
    ]);

    const set = await test.api("POST", "/api/settings", { openaiCompatibleBaseURL: `${elsewhere.url}/v1` });
    expect(set.status).toBe(200);
    const second = await runChatTurn(test, conversation.id, { text: "hello again" });
    expect(second.at(-1)).toMatchObject({ type: "finish", text: "hi" });
    expect(elsewhere.requests.map((request) => request.headers.authorization)).toEqual(["Bearer none"]);
    expect(own.requests).toHaveLength(1);
  });
});
