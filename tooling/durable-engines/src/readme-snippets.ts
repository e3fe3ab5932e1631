// The README snippets a newcomer copies, run as written: taken from the README, written where the
// package resolves (its own directory, as a consumer's project would), and run with node.
// Never imported by shipped code.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type NodeProcess, startNode } from "@junction/durable-engines/processes";

/**
 * The one ts block of `readme` that contains `marker` (a line of it, such as an import): the
 * snippet, as written. Fails when no block or more than one has it, so a README edit that splits
 * or drops the snippet fails the test rather than running something else.
 */
export function readmeSnippet(readme: string, marker: string): string {
  const blocks = [...readFileSync(readme, "utf8").matchAll(/^```ts\n([\s\S]*?)^```/gm)].map(
    (match) => match[1] ?? "",
  );
  const found = blocks.filter((block) => block.includes(marker));
  if (found.length !== 1) {
    throw new Error(`${readme} has ${found.length} ts blocks containing ${JSON.stringify(marker)}, not one.`);
  }
  return found[0]!;
}

/** A snippet written as a file of its own in `packageDir` (where its imports resolve), and started. */
export interface RunningSnippet extends NodeProcess {
  /** The file it runs. */
  readonly file: string;
  /** What it printed on stdout only (`output()` has stderr too: the engines' SDK warnings). */
  stdout(): string;
  /** Removes the file (and its folder). */
  remove(): void;
}

/**
 * Writes `code` to `<packageDir>/.readme-examples/<temp>/<name>` (git-ignored) and runs it with
 * node and `env`: Node strips the types, the package resolves by its own name, its dependencies
 * from the package's `node_modules`.
 */
export function runSnippet(parts: {
  packageDir: string;
  name: string;
  code: string;
  env: Record<string, string>;
  args?: string[];
}): RunningSnippet {
  const parent = join(parts.packageDir, ".readme-examples");
  mkdirSync(parent, { recursive: true });
  const directory = mkdtempSync(join(parent, "snippet-"));
  const file = join(directory, parts.name);
  writeFileSync(file, parts.code);
  const running = startNode(file, parts.env, parts.args);
  let stdout = "";
  running.child.stdout!.on("data", (chunk) => {
    stdout += chunk;
  });
  return {
    ...running,
    file,
    stdout: () => stdout,
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
