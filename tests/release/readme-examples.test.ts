// The code in the READMEs is what users copy first: every block that imports a Junction package
// must compile against the packages as built, and the ones that need no network or key must run.
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedPackageDirs } from "./published-packages.ts";
import { examplesIn } from "./readme-code.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
// Inside tests/, so the examples resolve @junction/* and zod as a consumer's project would.
const work = fileURLToPath(new URL("../.readme-examples", import.meta.url));

const readmes = ["README.md", ...publishedPackageDirs.map((dir) => `${dir}/README.md`)];

/** Examples that need no network, no API key and no MCP server from npm: these are run too. */
const offline = [
  { readme: "packages/types/README.md", block: 0, prints: "provider-config-invalid parrot repeats text" },
  { readme: "packages/core/README.md", block: 1, prints: "2 + 3 = 5." },
  { readme: "packages/core/README.md", block: 2, prints: "approval-required [ 'write_note' ]\nNoted." },
  {
    readme: "packages/core/README.md",
    block: 3,
    prints: "{}\n{ city: 'Paris' }\n{ city: 'Paris', temperatureC: 21 }\n21",
  },
];

interface Example {
  readme: string;
  /** Index among the README's examples (code blocks that import a package). */
  block: number;
  file: string;
}

const examples: Example[] = [];

beforeAll(async () => {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  for (const readme of readmes) {
    const blocks = examplesIn(await readFile(join(root, readme), "utf8"));
    for (const [block, code] of blocks.entries()) {
      const file = join(work, `${readme.replaceAll("/", "_").replace(/\.md$/, "")}-${block}.ts`);
      await writeFile(file, code);
      examples.push({ readme, block, file });
    }
  }
  // What a consumer's strict TypeScript project would use.
  await writeFile(
    join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        types: ["node"],
      },
      include: ["*.ts"],
    }),
  );
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("README examples", () => {
  it("every README that shows code has at least one whole example", () => {
    const withExamples = new Set(examples.map((example) => example.readme));
    expect(readmes.filter((readme) => !withExamples.has(readme))).toEqual([]);
  });

  it("all compile against the built packages", async () => {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", work], { cwd: work }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    // Name the README and block, not the temporary file.
    const named = result.replaceAll(/^(\S+?)-(\d+)\.ts/gm, (_, base: string, block: string) => {
      const example = examples.find((e) => relative(work, e.file) === `${base}-${block}.ts`);
      return example ? `${example.readme} (example ${Number(block) + 1})` : `${base}-${block}.ts`;
    });
    expect(named).toBe("");
  }, 120_000);

  it.each(offline)(
    "$readme example $block runs and prints what it says",
    async ({ readme, block, prints }) => {
      const example = examples.find((e) => e.readme === readme && e.block === block);
      expect(example, `${readme} has no example ${block}`).toBeDefined();
      const { stdout } = await run(process.execPath, [example?.file ?? ""], { cwd: work, timeout: 60_000 });
      expect(stdout).toContain(prints);
    },
  );
});
