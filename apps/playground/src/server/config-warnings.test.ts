import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// The config loader's warnings (a key it does not read) reach the person who typed the entry: in
// the API's answer and the server's status, never as a process warning on the playground's stderr.
const crashingServer = fileURLToPath(new URL("../__fixtures__/crashing-server.mjs", import.meta.url));

let test: TestPlayground;
const processWarnings: string[] = [];
const onProcessWarning = (warning: Error) => processWarnings.push(warning.message);

beforeAll(async () => {
  process.on("warning", onProcessWarning);
  test = await startTestPlayground({ seedDefaults: false });
});
afterAll(async () => {
  process.off("warning", onProcessWarning);
  await test.close();
});

describe("a server config with a key the loader does not read", () => {
  it("adds the server and answers with the warning, also in the server list", async () => {
    const added = await test.api("POST", "/api/servers", {
      name: "typo",
      config: { command: process.execPath, args: [crashingServer], arg: ["--verbose"] },
    });
    expect(added.status).toBe(200);
    expect(added.body.status).toBe("connected");
    const warning = 'MCP server "typo": unknown key "arg" is ignored (did you mean "args"?)';
    expect(added.body.warnings).toEqual([warning]);
    const listed = (await test.api("GET", "/api/servers")).body;
    expect(
      listed.map((server: { name: string; warnings?: string[] }) => [server.name, server.warnings]),
    ).toEqual([["typo", [warning]]]);
    expect(processWarnings.filter((message) => message.includes("unknown key"))).toEqual([]);
  });

  it("imports a file and answers with each entry's warnings", async () => {
    const document = JSON.stringify({
      mcpServers: {
        "imported-typo": { command: process.execPath, args: [crashingServer], disabled: false },
        clean: { command: process.execPath, args: [crashingServer] },
      },
    });
    const imported = await test.api("POST", "/api/servers/import", { document });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({
      added: ["imported-typo", "clean"],
      skipped: [],
      warnings: ['MCP server "imported-typo": unknown key "disabled" is ignored'],
    });
    const clean = (await test.api("GET", "/api/servers")).body.find(
      (server: { name: string }) => server.name === "clean",
    );
    expect(clean.status).toBe("connected");
    expect(clean).not.toHaveProperty("warnings");
    expect(processWarnings.filter((message) => message.includes("unknown key"))).toEqual([]);
  });
});
