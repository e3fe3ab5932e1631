import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  consumerEnvironment,
  installConsumerProject,
  packPublishedPackages,
  runCommand,
} from "@junction/consumer-install";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";
import { afterAll, describe, expect, it } from "vitest";

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("packed packages, installed as a consumer installs them", () => {
  it("core + mcp-client + one provider install from tarballs alone and run an agent", async () => {
    work = await mkdtemp(join(tmpdir(), "junction-consumer-"));
    const step = (what: string) => console.log(`packed-install: ${what} at ${new Date().toISOString()}`);
    step("packing");
    const tarballs = await packPublishedPackages(join(work, "tarballs"));
    expect([...tarballs.keys()].sort()).toEqual([
      "@junction/core",
      "@junction/mcp-client",
      "@junction/provider-anthropic",
      "@junction/provider-bedrock",
      "@junction/provider-chatcompletions",
      "@junction/provider-gemini",
      "@junction/provider-openai",
      "@junction/provider-utils",
      "@junction/types",
    ]);

    const project = join(work, "consumer");
    const wanted = [
      "@junction/types",
      "@junction/core",
      "@junction/mcp-client",
      "@junction/provider-chatcompletions",
      "@junction/provider-utils",
    ];
    step("installing");
    await installConsumerProject(project, {
      ...Object.fromEntries(wanted.map((name) => [name, `file:${tarballs.get(name)}`])),
      "@modelcontextprotocol/sdk": "^1.32.2",
      zod: "^4.0.0",
    });
    // Only what was asked for: no other provider, and no workspace links.
    expect((await readdir(join(project, "node_modules/@junction"))).sort()).toEqual([
      "core",
      "mcp-client",
      "provider-chatcompletions",
      "provider-utils",
      "types",
    ]);

    step("running the agent");
    await copyFile(new URL("./consumer-agent.mjs", import.meta.url), join(project, "consumer-agent.mjs"));
    const fake = await startChatCompletionsToolLoop({
      toolName: "add",
      toolSteps: 1,
      toolArguments: () => ({ a: 2, b: 3 }),
      finalText: (results) => `The sum is ${results[0]}.`,
    });
    try {
      const { stdout } = await runCommand(process.execPath, ["consumer-agent.mjs"], {
        cwd: project,
        env: { ...consumerEnvironment(), FAKE_URL: fake.url },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout)).toEqual({ text: "The sum is 5.", steps: 2 });
      expect(fake.requests[1]?.body.messages.at(-1)).toMatchObject({ role: "tool", content: "5" });
    } finally {
      await fake.close();
    }
  }, 400_000);
});
