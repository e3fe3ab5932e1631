import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = dirname(fileURLToPath(import.meta.url));

/**
 * The imports of a source file, followed through the package's own files: static ones (not type-only)
 * and, with `dynamic`, `import()` too, which bundlers follow as well.
 */
function reachableImports(file: string, dynamic: boolean, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = readFileSync(join(srcDir, file), "utf8");
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)]
    .filter((match) => !/^(?:import|export)\s+type\s/.test(match[0]))
    .map((match) => match[1] as string);
  const sideEffectOnly = [...source.matchAll(/^import\s+"([^"]+)"/gm)].map((match) => match[1] as string);
  const loaded = dynamic
    ? [...source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1] as string)
    : [];
  return [...specifiers, ...sideEffectOnly, ...loaded].flatMap((specifier) =>
    specifier.startsWith("./")
      ? [specifier, ...reachableImports(specifier.replace(/\.js$/, ".ts"), dynamic, seen)]
      : [specifier],
  );
}

describe("the root entry", () => {
  it("reaches nothing Node-only, not even through import(), so it bundles for browsers and Workers", () => {
    const imports = reachableImports("index.ts", true);
    expect(imports).toContain("./mcp.js");
    expect(imports.filter((specifier) => specifier.startsWith("node:"))).toEqual([]);
    expect(imports).not.toContain("./stdio-transport.js");
    expect(imports).not.toContain("./node.js");
    expect(imports).not.toContain("@modelcontextprotocol/client/stdio");
  });

  it("the node entry is the root entry plus the stdio transport, loaded on demand", () => {
    expect(reachableImports("node.ts", false)).not.toContain("./stdio-transport.js");
    const imports = reachableImports("node.ts", true);
    expect(imports).toContain("./index.js");
    expect(imports).toContain("./stdio-transport.js");
    expect(imports).toContain("@modelcontextprotocol/client/stdio");
  });
});

describe("src/", () => {
  it("holds the package's code and its tests, and no test support the build could pick up", () => {
    // Test helpers live in test/: a module in src/ that is not a test must not import vitest.
    const modules = readdirSync(srcDir).filter((file) => file.endsWith(".ts") && !file.includes(".test"));
    const testSupport = modules.filter((file) =>
      /from\s+"vitest"|from\s+"\.\.\/test\//.test(readFileSync(join(srcDir, file), "utf8")),
    );
    expect(testSupport).toEqual([]);
    expect(modules).not.toContain("test-support.ts");
    expect(modules).toContain("mcp.ts");
  });
});
