// The longest functions in the packages' and apps' sources (tests and browser suites left out), by
// lines from the function's first token to its last: the figure issue 38 asks to re-run.
// `node scripts/largest-functions.ts [count] [root ...]`, e.g. `node scripts/largest-functions.ts 20 packages/core/src`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const [countArg, ...rootArgs] = process.argv.slice(2);
const count = Number(countArg ?? 20);
const roots = rootArgs.length > 0 ? rootArgs : ["packages", "apps"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist" || name === "e2e") return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test(-d)?\.tsx?$|\.d\.ts$/.test(name) && path.includes("/src/")
      ? [path]
      : [];
  });
}

function nameOf(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText();
  return "(anonymous)";
}

const found: { lines: number; name: string; where: string }[] = [];
for (const file of roots.flatMap(sources)) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ lines: last - first + 1, name: nameOf(node), where: `${file}:${first + 1}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
found.sort((a, b) => b.lines - a.lines);
for (const { lines, name, where } of found.slice(0, count))
  console.log(`${String(lines).padStart(5)}  ${name}  ${where}`);
