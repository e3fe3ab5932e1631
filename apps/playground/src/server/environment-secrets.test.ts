// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} placeholders in configs
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// Issue 11, hole 3: a config added or imported through the page expanded ${VAR} against the
// playground's whole environment, and the values came back in error messages.
const hostileServer = fileURLToPath(new URL("../__fixtures__/hostile-server.mjs", import.meta.url));
const providerKey = "sk-ant-api03-the-key-an-attacker-wants";
const allowedSecret = "ghp_allowedButSecretValue42";
const notAllowed = ({
  field,
  name,
  server,
  written = name,
}: {
  field: string;
  name: string;
  server: string;
  written?: string;
}) =>
  `MCP server "${server}": ${field} uses \${${written}} but ${name} is not set or not allowed (the playground expands only the variables named with --allow-env)`;

let test: TestPlayground;
const events: string[] = [];

beforeAll(async () => {
  test = await startTestPlayground({
    environment: {
      PATH: process.env.PATH,
      ANTHROPIC_API_KEY: providerKey,
      OPENAI_API_KEY: "sk-openai-also-secret",
      GITHUB_TOKEN: allowedSecret,
    },
    allowEnv: ["GITHUB_TOKEN"],
    seedDefaults: false,
  });
  test.playground.hub.listen((event) => events.push(JSON.stringify(event)));
});
afterAll(async () => {
  await test.close();
});

describe("configs from the page expand only the variables the person allowed", () => {
  it("refuses a provider key and an unset variable with the same words, adding nothing", async () => {
    const stolen = await test.api("POST", "/api/servers", {
      name: "steal",
      config: { command: "false", args: ["${ANTHROPIC_API_KEY}"] },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe(
      notAllowed({ field: "args[0]", name: "ANTHROPIC_API_KEY", server: "steal" }),
    );
    const absent = await test.api("POST", "/api/servers", {
      name: "steal",
      config: { command: "false", args: ["${NO_SUCH_VARIABLE_ANYWHERE}"] },
    });
    expect(absent.body.error).toBe(
      notAllowed({ field: "args[0]", name: "NO_SUCH_VARIABLE_ANYWHERE", server: "steal" }),
    );
    const viaUrl = await test.api("POST", "/api/servers", {
      name: "steal",
      config: { url: "http://127.0.0.1:9/${env:OPENAI_API_KEY}" },
    });
    expect(viaUrl.body.error).toBe(
      notAllowed({ field: "url", name: "OPENAI_API_KEY", server: "steal", written: "env:OPENAI_API_KEY" }),
    );
    const imported = await test.api("POST", "/api/servers/import", {
      document: JSON.stringify({
        mcpServers: {
          fine: { command: "false" },
          steal: { url: "http://127.0.0.1:9/mcp", headers: { "x-key": "${ANTHROPIC_API_KEY}" } },
        },
      }),
    });
    expect(imported.status).toBe(400);
    expect(imported.body.error).toBe(
      notAllowed({ field: "headers.x-key", name: "ANTHROPIC_API_KEY", server: "steal" }),
    );
    expect((await test.api("GET", "/api/servers")).body).toEqual([]);
  });

  it("redacts an allowed value from a start failure, a spawn error and a connect error", async () => {
    const inArgs = await test.api("POST", "/api/servers", {
      name: "in-args",
      config: { command: "false", args: ["--token", "${GITHUB_TOKEN}"] },
    });
    expect(inArgs.body.status).toBe("error");
    expect(inArgs.body.error).toContain("••••••");
    const asCommand = await test.api("POST", "/api/servers", {
      name: "as-command",
      config: { command: "${GITHUB_TOKEN}" },
    });
    expect(asCommand.body.status).toBe("error");
    expect(asCommand.body.error).toContain("••••••");
    const inUrl = await test.api("POST", "/api/servers", {
      name: "in-url",
      config: {
        url: "http://127.0.0.1:9/${GITHUB_TOKEN}/mcp",
        headers: { authorization: "${GITHUB_TOKEN}" },
      },
    });
    expect(inUrl.body.status).toBe("error");
    const listed = await test.api("GET", "/api/servers");
    expect(listed.body.map((server: any) => [server.name, server.status])).toEqual([
      ["in-args", "error"],
      ["as-command", "error"],
      ["in-url", "error"],
    ]);
    // The stored config keeps the placeholder; no answer and no event carries the value.
    expect(listed.body[0].config.args).toEqual(["--token", "${GITHUB_TOKEN}"]);
    const everything = JSON.stringify([inArgs.body, asCommand.body, inUrl.body, listed.body, events]);
    expect(everything).not.toContain(allowedSecret);
    expect(everything).not.toContain(encodeURIComponent(allowedSecret));
    expect(everything).not.toContain(providerKey);
    const tools = await test.api("GET", `/api/servers/${inArgs.body.id}/tools`);
    expect(tools.status).toBe(503);
    expect(tools.body.error).not.toContain(allowedSecret);
  });

  it("redacts an allowed value a server echoes back in a tool result, its log and the page's events", async () => {
    const added = await test.api("POST", "/api/servers", {
      name: "echoes",
      config: { command: process.execPath, args: [hostileServer], env: { TOKEN: "${GITHUB_TOKEN}" } },
    });
    expect(added.body.status).toBe("connected");
    const call = await test.api("POST", `/api/servers/${added.body.id}/tools/call`, {
      name: "leak-env",
      arguments: { name: "TOKEN" },
    });
    expect(call.status).toBe(200);
    expect(call.body.result.content).toEqual([{ type: "text", text: "value:••••••" }]);
    await expect
      .poll(async () => (await test.api("GET", `/api/servers/${added.body.id}/logs`)).body.entries)
      .toMatchObject([{ level: "info", data: "env TOKEN=••••••" }]);
    await expect.poll(() => events.filter((event) => event.includes('"server-log"'))).toHaveLength(1);
    expect(events.join("\n")).not.toContain(allowedSecret);
    // The server did receive the value: redaction is for what people see, not what servers get.
    const raw = await test.playground.registry.client(added.body.id).callTool("leak-env", { name: "TOKEN" });
    expect(raw.content).toEqual([{ type: "text", text: `value:${allowedSecret}` }]);
  });
});
