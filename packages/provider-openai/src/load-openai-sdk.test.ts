import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// Runs in a fresh Node process against the built package, with a resolve hook that records every
// module the process resolves: importing the package and calling openai() must not reach the
// SDK, and the first stream() must.
const probe = `
import { registerHooks } from "node:module";
const [distURL, baseURL] = process.argv.slice(1);
const resolved = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    resolved.push({ specifier, url: result.url });
    return result;
  },
});
const isSDK = (entry) =>
  entry.specifier === "openai" || entry.specifier.startsWith("openai/") ||
  entry.url.includes("/node_modules/openai/");
const { openai } = await import(distURL);
const provider = openai({ apiKey: "sk-test", baseURL: \`\${baseURL}/v1\`, maxRetries: 0 });
const beforeStream = {
  sawTypes: resolved.some((entry) => entry.specifier === "@junction/types"),
  sdk: [...new Set(resolved.filter(isSDK).map((entry) => entry.specifier))],
};
let text = "";
for await (const event of provider.stream({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: "Hello" }],
})) {
  if (event.type === "text-delta") text += event.text;
}
const afterStream = { sdk: [...new Set(resolved.filter(isSDK).map((entry) => entry.specifier))] };
process.stdout.write(JSON.stringify({ beforeStream, afterStream, text }));
`;

const distURL = new URL("../dist/index.js", import.meta.url).href;

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

describe("loading openai", () => {
  it("does not load the SDK on import or openai(), only on the first stream()", async () => {
    fake.enqueue({
      chunks: readSSEFixture(new URL("./__fixtures__/openai-text.sse.txt", import.meta.url)),
    });
    // Asynchronous, so that this process's wire fake can answer the child's request.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "--eval", probe, distURL, fake.url],
      { cwd: fileURLToPath(new URL("..", import.meta.url)) },
    );
    const result = JSON.parse(stdout) as {
      beforeStream: { sawTypes: boolean; sdk: string[] };
      afterStream: { sdk: string[] };
      text: string;
    };

    // The hook saw the package's own imports, and none of them was the SDK.
    expect(result.beforeStream).toEqual({ sawTypes: true, sdk: [] });
    expect(result.afterStream.sdk).toContain("openai");
    expect(result.text).toBe("OK");
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/responses",
    ]);
  }, 30_000);
});
