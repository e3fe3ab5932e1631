// What the READMEs promise must be what the packages declare: the Node version a reader needs
// (each package's engines.node, and what scripts/run.sh sets up), the zod major a project needs
// (the peer ranges), and the server-everything tools the examples ask for (the real server's
// tools/list). Each of these once drifted unseen: "Node 20+" beside engines >=22, a zod 4 peer that
// no README named (a zod 3 project gets ERESOLVE), and an example asking server-everything to
// "Add 2 and 3" with a tool it does not have.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedPackageDirs } from "./published-packages.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");

interface Manifest {
  name: string;
  engines?: { node?: string };
  peerDependencies?: Record<string, string>;
}
const manifestOf = (dir: string): Manifest => JSON.parse(read(`${dir}/package.json`));

const readmes = [
  "README.md",
  "apps/playground/README.md",
  ...publishedPackageDirs.map((dir) => `${dir}/README.md`),
];

/** The lowest major version a range such as `>=22`, `^4.0.0` or `~22.18.0` allows. */
function minimumMajor(range: string): number {
  const match = /^\s*(?:>=|\^|~)?\s*v?(\d+)(?:\.\d+){0,2}\s*$/.exec(range);
  if (!match)
    throw new Error(`cannot read the range ${JSON.stringify(range)}: write it as >=N, ^N.x.y or ~N.x.y`);
  return Number(match[1]);
}

/** Blocks of text between blank lines: a sentence's context, for claims that need one. */
const paragraphsOf = (markdown: string) => markdown.split(/\n[ \t]*\n/);

describe("README claims about Node", () => {
  const dirs = [".", "apps/playground", ...publishedPackageDirs];
  const engines = dirs.map((dir) => ({ dir, range: manifestOf(dir).engines?.node }));
  const nodeMajor = minimumMajor(manifestOf("packages/core").engines?.node ?? "");
  const runScript = read("scripts/run.sh");
  const setupMajor = Number(/\bnode@(\d+)\b/.exec(runScript)?.[1]);

  it("every published package, the playground and the workspace need the same Node", () => {
    expect(engines.filter(({ range }) => range === undefined).map(({ dir }) => dir)).toEqual([]);
    expect(engines.filter(({ range }) => minimumMajor(range ?? "") !== nodeMajor)).toEqual([]);
  });

  it("scripts/run.sh sets up a Node the packages accept whenever the one it finds is older", () => {
    expect(setupMajor).toBeGreaterThanOrEqual(nodeMajor);
    const thresholds = [...runScript.matchAll(/node_major\)" -lt (\d+)/g)].map((match) => Number(match[1]));
    expect(thresholds.length).toBeGreaterThan(0);
    expect(thresholds.filter((threshold) => threshold !== nodeMajor)).toEqual([]);
  });

  /** "Node 22+", "Node 22 or newer", "Node 22.18 and newer", "Node >= 22", "Node.js ≥ 22". */
  const minimumClaim =
    /\bNode(?:\.js)?\s+(>=\s*|≥\s*)?v?(\d+)(?:\.\d+)*(\+|\s+(?:or|and)\s+(?:newer|later|above))?/g;
  const claims = readmes.flatMap((readme) =>
    paragraphsOf(read(readme)).flatMap((paragraph) =>
      [...paragraph.matchAll(minimumClaim)]
        .filter((match) => match[1] !== undefined || match[3] !== undefined)
        .map((match) => ({
          readme,
          text: match[0],
          major: Number(match[2]),
          // The quick start may name an older Node: the one scripts/run.sh starts from.
          aboutSetup: paragraph.includes("scripts/run.sh") && paragraph.includes(`Node ${setupMajor}`),
        })),
    ),
  );

  it("every minimum Node version a README names is the packages' (or the setup script's starting point)", () => {
    const wrong = claims
      .filter((claim) => claim.major !== nodeMajor && !(claim.aboutSetup && claim.major < nodeMajor))
      .map((claim) => `${claim.readme}: "${claim.text}", but the packages need Node ${nodeMajor} or newer`);
    expect(wrong).toEqual([]);
  });

  it("the root README says which Node the packages need", () => {
    const stated = claims.filter((claim) => claim.readme === "README.md" && claim.major === nodeMajor);
    expect(stated.map((claim) => claim.text)).not.toEqual([]);
  });
});

describe("README claims about zod", () => {
  const zodPeers = publishedPackageDirs.flatMap((dir) => {
    const manifest = manifestOf(dir);
    const range = manifest.peerDependencies?.zod;
    return range === undefined ? [] : [{ dir, name: manifest.name, major: minimumMajor(range) }];
  });
  const zodMajor = zodPeers[0]?.major;

  it("the packages that take users' schemas have zod as a peer, all of one major", () => {
    expect(zodPeers.map((peer) => peer.name)).toContain("@junction/core");
    expect(zodPeers.filter((peer) => peer.major !== zodMajor)).toEqual([]);
  });

  it("every zod version a README names is the peers' major", () => {
    const wrong = readmes.flatMap((readme) =>
      [...read(readme).matchAll(/\bzod(?:@[\^~]?|\s+v?)(\d+)\b/gi)]
        .filter((match) => Number(match[1]) !== zodMajor)
        .map((match) => `${readme}: "${match[0]}", but the peer range is zod ${zodMajor}`),
    );
    expect(wrong).toEqual([]);
  });

  it("the README of each package with a zod peer, and the root README, say which zod it needs", () => {
    const silent = ["README.md", ...zodPeers.map((peer) => `${peer.dir}/README.md`)].filter(
      (readme) => !new RegExp(`\\bzod ${zodMajor}\\b`).test(read(readme)),
    );
    expect(silent).toEqual([]);
  });

  it("an install command with a package that has a zod peer installs that zod major", () => {
    const peerNames = zodPeers.map((peer) => peer.name);
    const commands = readmes.flatMap((readme) =>
      [...read(readme).matchAll(/\b(?:npm install|npm i|pnpm add|yarn add|bun add)\s[^`\n]*/g)].map(
        (match) => ({
          readme,
          command: match[0].trim(),
          words: match[0].split(/\s+/),
        }),
      ),
    );
    const needingZod = commands.filter(({ words }) => words.some((word) => peerNames.includes(word)));
    expect(needingZod.length).toBeGreaterThan(0);
    const wrong = needingZod
      .filter(({ words }) => !words.some((word) => new RegExp(`^zod@\\^?${zodMajor}(\\.\\d+)*$`).test(word)))
      .map(({ readme, command }) => `${readme}: "${command}" should install zod@${zodMajor}`);
    expect(wrong).toEqual([]);
  });
});

describe("README examples that use server-everything", () => {
  const require = createRequire(import.meta.url);
  const everything = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [require.resolve("@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
  });
  let toolNames: string[] = [];
  beforeAll(async () => {
    await everything.connect();
    toolNames = (await everything.listTools()).map((tool) => tool.name);
  }, 30_000);
  afterAll(() => everything.close());

  const examples = readmes.flatMap((readme) =>
    [...read(readme).matchAll(/^```(?:ts|js|typescript|javascript)\n([\s\S]*?)^```/gm)]
      .map((match) => match[1] ?? "")
      .filter((code) => code.includes("@modelcontextprotocol/server-everything"))
      .map((code) => ({ readme, code })),
  );
  /** What an example sends an agent: the first string argument of send(), stream() or generate(). */
  const prompts = examples.flatMap(({ readme, code }) =>
    [...code.matchAll(/\.(?:send|stream|generate)\(\s*(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((match) => ({
      readme,
      prompt: match[2] ?? "",
    })),
  );

  it("name only tools the server has", () => {
    expect(toolNames).toContain("get-sum");
    const named = examples.flatMap(({ readme, code }) => {
      const prefixes = [...code.matchAll(/prefix:\s*"([^"]+)"/g)].map((match) => match[1]);
      return [
        ...[...code.matchAll(/\.callTool\(\s*"([^"]+)"/g)].map((match) => match[1]),
        ...prefixes.flatMap((prefix) =>
          [...code.matchAll(new RegExp(`\\b${prefix}_([a-z][a-z0-9-]*[a-z0-9])`, "g"))].map(
            (match) => match[1],
          ),
        ),
        // A tool named in a prompt: kebab-case, as server-everything names its tools.
        ...prompts
          .filter((entry) => entry.readme === readme && code.includes(entry.prompt))
          .flatMap(({ prompt }) => prompt.match(/\b[a-z]+(?:-[a-z]+)+\b/g) ?? []),
      ].map((name) => ({ readme, name: name ?? "" }));
    });
    expect(named.length).toBeGreaterThan(0);
    const missing = named
      .filter(({ name }) => !toolNames.includes(name))
      .map(({ readme, name }) => `${readme}: ${name}`);
    expect(missing).toEqual([]);
  });

  it("ask the agent for something one of the server's tools does, in the words of its name", () => {
    // Words every kind of tool name starts with say nothing about what the tool does.
    const generic = new Set(["get", "trigger", "toggle", "simulate", "as"]);
    const toolWords = new Set(
      toolNames.flatMap((name) => name.split("-")).filter((word) => !generic.has(word)),
    );
    expect(prompts.map(({ readme }) => readme)).toContain("packages/provider-chatcompletions/README.md");
    const unrelated = prompts
      .filter(
        ({ prompt }) => !(prompt.toLowerCase().match(/[a-z0-9]+/g) ?? []).some((word) => toolWords.has(word)),
      )
      .map(({ readme, prompt }) => `${readme}: "${prompt}" asks for none of ${toolNames.join(", ")}`);
    expect(unrelated).toEqual([]);
  });
});
