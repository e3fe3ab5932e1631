import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = dirname(fileURLToPath(import.meta.url));

/** Static imports (not `import()`) of a source file, followed through the package's own files. */
function staticImports(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = readFileSync(join(srcDir, file), "utf8");
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)]
    .filter((match) => !/^(?:import|export)\s+type\s/.test(match[0]))
    .map((match) => match[1] as string);
  return specifiers.flatMap((specifier) =>
    specifier.startsWith("./")
      ? [specifier, ...staticImports(specifier.replace(/\.js$/, ".ts"), seen)]
      : [specifier],
  );
}

describe("the root entry", () => {
  it("imports nothing Node-only statically; process spawning is loaded on demand", () => {
    const imports = staticImports("index.ts");
    expect(imports).toContain("./mcp.js");
    expect(imports.filter((specifier) => specifier.startsWith("node:"))).toEqual([]);
    expect(imports).not.toContain("./stdio-transport.js");
    expect(imports).not.toContain("@modelcontextprotocol/client/stdio");
    expect(readFileSync(join(srcDir, "mcp-session.ts"), "utf8")).toContain(
      'await import("./stdio-transport.js")',
    );
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
