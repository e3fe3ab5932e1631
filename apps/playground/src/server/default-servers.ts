import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
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
