import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  consumerEnvironment,
  installConsumerProject,
  packPublishedPackages,
  runCommand,
} from "@junction/consumer-install";
import { readSSEFixture, startWireFake } from "@junction/wire-fake";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";
import { afterAll, describe, expect, it } from "vitest";

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("packed packages, installed as a consumer installs them", () => {
  it("core + mcp-client + two providers install from tarballs alone (no vendor SDK) and run", async () => {
    work = await mkdtemp(join(tmpdir(), "junction-consumer-"));
    const step = (what: string) => console.log(`packed-install: ${what} at ${new Date().toISOString()}`);
    step("packing");
    const tarballs = await packPublishedPackages(join(work, "tarballs"));
    expect([...tarballs.keys()].sort()).toEqual([
      "@junction/core",
      "@junction/dbos",
      "@junction/embed-minilm",
      "@junction/mcp-client",
      "@junction/mcp-server",
      "@junction/otel",
      "@junction/provider-anthropic",
      "@junction/provider-bedrock",
      "@junction/provider-chatcompletions",
      "@junction/provider-gemini",
      "@junction/provider-openai",
      "@junction/provider-utils",
      "@junction/restate",
      "@junction/sandbox-quickjs",
      "@junction/types",
    ]);

    const project = join(work, "consumer");
    const wanted = [
      "@junction/types",
      "@junction/core",
      "@junction/mcp-client",
      "@junction/provider-chatcompletions",
      "@junction/provider-anthropic",
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
      "provider-anthropic",
      "provider-chatcompletions",
      "provider-utils",
      "types",
    ]);
    // The providers run their bundled vendor SDKs: neither SDK is installed.
    const installed = await readdir(join(project, "node_modules"));
    expect(installed).not.toContain("openai");
    expect(installed).not.toContain("@anthropic-ai");

    step("running the agent");
    await copyFile(new URL("./consumer-agent.mjs", import.meta.url), join(project, "consumer-agent.mjs"));
    const anthropicFake = await startWireFake();
    anthropicFake.enqueue({
      chunks: readSSEFixture(
        new URL("../__fixtures__/anthropic/anthropic-logo-answer.sse.txt", import.meta.url),
      ),
    });
    const fake = await startChatCompletionsToolLoop({
      toolName: "add",
      toolSteps: 1,
      toolArguments: () => ({ a: 2, b: 3 }),
      finalText: (results) => `The sum is ${results[0]}.`,
    });
    try {
      const { stdout } = await runCommand(process.execPath, ["consumer-agent.mjs"], {
        cwd: project,
        env: { ...consumerEnvironment(), FAKE_URL: fake.url, ANTHROPIC_FAKE_URL: anthropicFake.url },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout)).toEqual({
        chatCompletions: { text: "The sum is 5.", steps: 2 },
        anthropic: "It is the MCP logo.",
      });
      expect(fake.requests[1]?.body.messages.at(-1)).toMatchObject({ role: "tool", content: "5" });
      expect(anthropicFake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /v1/messages",
      ]);
    } finally {
      await fake.close();
      await anthropicFake.close();
    }
  }, 400_000);
});
