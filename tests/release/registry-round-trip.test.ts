// A release as users get it: the packages go to a real npm registry (Verdaccio on loopback, with
// an uplink to the public registry for everything that is not ours) through the publish step of
// `pnpm release`, then a fresh npm project installs them by semver range and runs the root
// README's example, with the Anthropic provider on the local wire fake and server-everything
// installed from that registry. Versions are read from the packages, so this holds before and after
// `pnpm changeset version`.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { consumerEnvironment, installConsumerProject, runCommand } from "@junction/consumer-install";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterAll, describe, expect, it } from "vitest";
import { publishRelease } from "../../scripts/release.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";
import { publishedPackageDirs } from "./published-packages.ts";
import { examplesIn } from "./readme-code.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const fixture = (name: string) =>
  readSSEFixture(new URL(`../__fixtures__/anthropic/${name}`, import.meta.url));

let work: string | undefined;
let registry: LocalRegistry | undefined;
let fake: WireFake | undefined;
afterAll(async () => {
  await fake?.close();
  await registry?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

async function readJSON<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, "utf8")) as T;
}

describe("a release through a local npm registry", () => {
  it("pnpm release's publish step publishes the fixed group; a fresh npm project installs core, mcp-client and the Anthropic provider by ^version and runs the README example", async () => {
    const step = (what: string) => console.log(`registry round trip: ${what} at ${new Date().toISOString()}`);
    const manifests = await Promise.all(
      publishedPackageDirs.map((dir) => readJSON<Manifest>(join(root, dir, "package.json"))),
    );
    const versions = [...new Set(manifests.map((manifest) => manifest.version))];
    expect(versions, "the fixed group shares one version").toHaveLength(1);
    const version = versions[0]!;

    work = await mkdtemp(join(tmpdir(), "junction-registry-"));
    step("starting Verdaccio");
    registry = await startLocalRegistry(join(work, "registry"));
    const tagsBefore = (await run("git", ["tag", "--list"], { cwd: root })).stdout;

    step(`publishing ${version} to ${registry.url}`);
    await publishRelease({
      root,
      registry: registry.url,
      // A maintainer's setup: the token in NPM_TOKEN, read by the user config's _authToken line.
      // CI=true: changeset publish reports its progress in lines instead of animating a spinner.
      env: {
        ...process.env,
        CI: "true",
        npm_config_userconfig: registry.userconfig,
        NPM_TOKEN: registry.token,
      },
      gitTag: false,
    });
    expect((await run("git", ["tag", "--list"], { cwd: root })).stdout, "no git tags in a test").toBe(
      tagsBefore,
    );

    // What the registry now holds: every package of the group at the version, with its siblings
    // pinned to that version (pnpm publish rewrote workspace:*).
    for (const manifest of manifests) {
      const response = await fetch(`${registry.url}${manifest.name.replace("/", "%2f")}`);
      expect(response.status, manifest.name).toBe(200);
      const packument = (await response.json()) as {
        "dist-tags": Record<string, string>;
        versions: Record<string, Manifest>;
      };
      expect(packument["dist-tags"], manifest.name).toEqual({ latest: version });
      expect(Object.keys(packument.versions), manifest.name).toEqual([version]);
      const published = packument.versions[version]!;
      const internal = Object.entries(published.dependencies ?? {}).filter(([name]) =>
        name.startsWith("@junction/"),
      );
      const declared = Object.keys(manifest.dependencies ?? {}).filter((name) =>
        name.startsWith("@junction/"),
      );
      expect(internal.map(([name]) => name).sort(), manifest.name).toEqual(declared.sort());
      for (const [name, range] of internal) expect(range, `${manifest.name} → ${name}`).toBe(version);
    }

    step("installing from the registry");
    const project = join(work, "consumer");
    // The user config of the consumer: empty, so nothing of the machine's ~/.npmrc comes in.
    const userconfig = join(work, "consumer.npmrc");
    await writeFile(userconfig, "");
    const everythingVersion = (
      await readJSON<{ devDependencies: Record<string, string> }>(join(root, "tests/package.json"))
    ).devDependencies["@modelcontextprotocol/server-everything"]!;
    const consumerEnv = { npm_config_userconfig: userconfig };
    await installConsumerProject(
      project,
      {
        "@junction/core": `^${version}`,
        "@junction/mcp-client": `^${version}`,
        "@junction/provider-anthropic": `^${version}`,
        zod: "^4.0.0",
        "@modelcontextprotocol/server-everything": everythingVersion,
      },
      { npmrc: `registry=${registry.url}\n`, env: consumerEnv },
    );
    expect((await readdir(join(project, "node_modules/@junction"))).sort()).toEqual([
      "core",
      "mcp-client",
      "provider-anthropic",
      "provider-utils",
      "types",
    ]);
    const lock = await readJSON<{ packages: Record<string, { version: string; resolved: string }> }>(
      join(project, "package-lock.json"),
    );
    for (const name of ["core", "mcp-client", "provider-anthropic", "provider-utils", "types"]) {
      const entry = lock.packages[`node_modules/@junction/${name}`];
      expect(entry?.version, name).toBe(version);
      expect(entry?.resolved, name).toBe(`${registry.url}@junction/${name}/-/${name}-${version}.tgz`);
    }
    expect(lock.packages["node_modules/@modelcontextprotocol/server-everything"]?.resolved).toMatch(
      new RegExp(`^${registry.url}`),
    );

    step("running the README example");
    const readmeExamples = examplesIn(await readFile(join(root, "README.md"), "utf8")).filter(
      (code) => code.includes("@junction/provider-anthropic") && code.includes("server-everything"),
    );
    expect(readmeExamples, "the root README's agent example").toHaveLength(1);
    await writeFile(join(project, "example.ts"), readmeExamples[0]!);
    fake = await startWireFake();
    fake.enqueue(
      { chunks: fixture("anthropic-readme-add-and-tiny-image.sse.txt") },
      { chunks: fixture("anthropic-readme-answer.sse.txt") },
    );
    const { stdout } = await runCommand(process.execPath, ["example.ts"], {
      cwd: project,
      env: {
        ...consumerEnvironment(),
        ...consumerEnv,
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: fake.url,
      },
      timeout: 90_000,
    });

    // What the example prints: the streamed text, each call and each result.
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("Let me add them and fetch the image.");
    expect(lines).toContain('→ add({"a":2,"b":3})');
    expect(lines).toContain("→ everything_get-tiny-image({})");
    expect(lines.filter((line) => /^← add in \d+ ms$/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /^← everything_get-tiny-image in \d+ ms$/.test(line))).toHaveLength(1);
    expect(stdout.endsWith("2 + 3 = 5, and the tiny image is the MCP logo.")).toBe(true);

    // What the model was sent: the README's model, system prompt and question, both tools, and
    // then the two results, the sum as text and the server's image natively.
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/messages",
      "POST /v1/messages",
    ]);
    const first = fake.requests[0]!.body;
    expect(first).toMatchObject({
      model: "claude-sonnet-5-5",
      system: "You are a helpful assistant. Use tools when they help.",
      messages: [{ role: "user", content: "What is 2 + 3? Then show me the tiny image." }],
      stream: true,
    });
    const toolNames = (first.tools as { name: string }[]).map((tool) => tool.name);
    expect(toolNames).toContain("add");
    expect(toolNames).toContain("everything_get-tiny-image");
    const results = fake.requests[1]!.body.messages.at(-1);
    expect(results.role).toBe("user");
    expect(results.content).toHaveLength(2);
    const byId = Object.fromEntries(
      (results.content as { tool_use_id: string; content: unknown }[]).map((block) => [
        block.tool_use_id,
        block,
      ]),
    );
    expect(byId.toolu_01Ad2D3xQm7kRbN5vT8yWzPq).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01Ad2D3xQm7kRbN5vT8yWzPq",
      content: "5",
    });
    expect(byId.toolu_01Ni1uw4HXYxUhc4iFMqx7yY).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01Ni1uw4HXYxUhc4iFMqx7yY",
      content: [
        { type: "text", text: "Here's the image you requested:" },
        {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) },
        },
        { type: "text", text: "The image above is the MCP logo." },
      ],
    });
  }, 240_000);
});
