import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { JunctionError } from "@junction/types";

const require = createRequire(import.meta.url);

/** The servers a fresh playground starts with: real ones from npm, installed as dependencies. */
export const BUILTIN_SERVERS = ["everything", "filesystem", "memory"] as const;
export type BuiltinServer = (typeof BUILTIN_SERVERS)[number];

const packages: Record<BuiltinServer, string> = {
  everything: "@modelcontextprotocol/server-everything",
  filesystem: "@modelcontextprotocol/server-filesystem",
  memory: "@modelcontextprotocol/server-memory",
};

/** The absolute path of an installed package's executable (its `bin`), never fetched at run time. */
export function resolvePackageBin(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new JunctionError("mcp-config-invalid", `${packageName} has no executable.`);
  return join(dirname(manifestPath), bin);
}

/**
 * The `mcpServers` entry of a default server, resolved on this machine: this Node runs the
 * installed package, so no network and no `npx` are needed.
 */
export function builtinServerEntry(
  server: BuiltinServer,
  options: { sandbox: string; dataRoot: string },
): { command: string; args: string[]; env?: Record<string, string> } {
  const bin = resolvePackageBin(packages[server]);
  switch (server) {
    case "everything":
      return { command: process.execPath, args: [bin, "stdio"] };
    case "filesystem":
      return { command: process.execPath, args: [bin, options.sandbox] };
    case "memory":
      return {
        command: process.execPath,
        args: [bin],
        env: { MEMORY_FILE_PATH: join(options.dataRoot, "memory.jsonl") },
      };
    default: {
      const unknown: never = server;
      throw new JunctionError("mcp-config-invalid", `Unknown default server ${String(unknown)}.`);
    }
  }
}

export function isBuiltinServer(name: string | null): name is BuiltinServer {
  return name !== null && (BUILTIN_SERVERS as readonly string[]).includes(name);
}

/** Example servers the page adds in one click, shipped with the playground (`examples/`). */
const exampleServers = {
  /** A counter MCP App: `show-counter` opens it, and the app calls the server's own tools. */
  "counter-app": "counter-app/server.mjs",
} as const;

/** The name of an example server. */
export type ExampleServer = keyof typeof exampleServers;

/** Whether `name` names an example server. */
export function isExampleServer(name: string): name is ExampleServer {
  return Object.hasOwn(exampleServers, name);
}

/** The `mcpServers` entry of an example server: this Node runs the script the playground ships. */
export function exampleServerEntry(server: ExampleServer): { command: string; args: string[] } {
  // From src/server/ (tests) and dist/server/ (the built CLI) alike, examples/ is two levels up.
  const script = fileURLToPath(new URL(`../../examples/${exampleServers[server]}`, import.meta.url));
  return { command: process.execPath, args: [script] };
}
