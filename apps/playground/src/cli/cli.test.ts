import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// The built CLI, as `pnpm playground …` runs it (the test script builds first).
const cli = fileURLToPath(new URL("../../dist/server/cli.js", import.meta.url));
const directories: string[] = [];

function run(
  args: string[],
  input = "",
): Promise<{ code: number | null; stdout: string; stderr: string; directory: string }> {
  const directory = mkdtempSync(join(tmpdir(), "junction-playground-cli-"));
  directories.push(directory);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "--", ...args], {
      env: { PATH: process.env.PATH, HOME: directory, JUNCTION_PLAYGROUND_DIR: directory },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, directory }));
    child.stdin.end(input);
  });
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe("the CLI", () => {
  it("lists the tools of every configured server", async () => {
    const { code, stdout } = await run(["tools"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^everything \(connected, \d+ tools\)\n {2}everything_echo — Echoes back the input string$/m,
    );
    expect(stdout).toContain("  everything_trigger-sampling-request — ");
    expect(stdout).toMatch(/^filesystem \(connected, \d+ tools\)$/m);
    expect(stdout).toContain("  filesystem_read_text_file — ");
    expect(stdout).toMatch(/^memory \(connected, \d+ tools\)$/m);
    expect(stdout).toContain("  memory_create_entities — ");
  });

  it("runs one prompt with streamed text and the tool call shown", async () => {
    const { code, stdout, stderr } = await run(["chat", "please add 2 and 3"]);
    expect(code).toBe(0);
    expect(stderr).toContain(
      "[offline scripted model: no API key found; it picks tools from your words, it is not an LLM]",
    );
    expect(stdout).toMatch(
      /^I'll add 2 and 3 with the sum tool. \n→ everything_get-sum \[everything\] \{"a":2,"b":3\}\n← everything_get-sum done in \d+ ms: The sum of 2 and 3 is 5\.\nDone\. everything_get-sum returned: "The sum of 2 and 3 is 5"\.\n$/,
    );
  });

  it("runs an interactive session from piped input, asking before a destructive call", async () => {
    const { code, stdout, stderr, directory } = await run(
      ["chat"],
      'write a file piped.txt with "from stdin"\ny\necho bye\n/exit\n',
    );
    expect(code).toBe(0);
    expect(stderr).toContain("? Allow filesystem_write_file with");
    expect(stdout).toContain("  approved\n← filesystem_write_file done in");
    expect(stdout).toContain('→ everything_echo [everything] {"message":"bye"}');
    expect(readFileSync(join(directory, "sandbox", "piped.txt"), "utf8")).toBe("from stdin");
  });

  it("says what is wrong with an unknown command or provider", async () => {
    const unknown = await run(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate".');
    const provider = await run(["chat", "--provider", "anthropic", "hi"]);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toContain("The provider anthropic is not available; available: offline.");
  });
});
