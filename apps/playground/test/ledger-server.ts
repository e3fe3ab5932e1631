import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { TestPlayground } from "./test-playground.js";

const ledgerServer = fileURLToPath(new URL("../src/__fixtures__/ledger-server.mjs", import.meta.url));

/** One post the ledger made, as its log keeps it. */
export interface LedgerPost {
  account: string;
  amount: number;
}

/**
 * Adds the ledger MCP server (src/__fixtures__/ledger-server.mjs, on stdio) to `test` as
 * "ledger", connected; returns what it posted so far, read from its log, one entry a post.
 */
export async function connectLedger(test: TestPlayground): Promise<() => LedgerPost[]> {
  const log = join(test.directory, "ledger.log");
  const added = await test.api("POST", "/api/servers", {
    name: "ledger",
    config: { command: process.execPath, args: [ledgerServer, "--log", log] },
  });
  expect(added.body.status).toBe("connected");
  return () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as LedgerPost)
      : [];
}
