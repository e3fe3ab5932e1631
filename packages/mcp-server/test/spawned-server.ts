import { spawn } from "node:child_process";

/**
 * Spawns a test server script over HTTP (`node <script> http`) and resolves with the URL it prints
 * on its first line; `closing` gets what stops it, for the test's `afterEach`.
 */
export async function spawnHTTPServer(
  script: string,
  closing: (() => Promise<unknown> | unknown)[],
): Promise<string> {
  const child = spawn(process.execPath, [script, "http"], { stdio: ["ignore", "pipe", "inherit"] });
  closing.push(() => child.kill("SIGTERM"));
  let printed = "";
  for await (const chunk of child.stdout as NodeJS.ReadableStream) {
    printed += chunk;
    if (printed.includes("\n")) break;
  }
  return printed.trim();
}
