import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./stats.ts";

export interface ImportFigures {
  name: string;
  modules: string[];
  ms: number;
}

const benchDir = fileURLToPath(new URL("..", import.meta.url));

const stacks: Omit<ImportFigures, "ms">[] = [
  {
    name: "Junction (core + mcp-client + provider-anthropic)",
    modules: ["@junction/core", "@junction/mcp-client", "@junction/provider-anthropic"],
  },
  {
    name: "AI SDK (ai + @ai-sdk/mcp + @ai-sdk/anthropic)",
    modules: ["ai", "@ai-sdk/mcp", "@ai-sdk/anthropic"],
  },
  {
    name: "LangChain (@langchain/mcp-adapters + @langchain/core)",
    modules: ["@langchain/mcp-adapters", "@langchain/core/tools"],
  },
];

/** Cold import time: a fresh Node process per sample, timing only the imports. */
export function benchImportTime(samples: number): ImportFigures[] {
  return stacks.map((stack) => {
    const script = `const t = performance.now(); ${stack.modules
      .map((m) => `await import(${JSON.stringify(m)});`)
      .join(" ")} process.stdout.write(String(performance.now() - t));`;
    const times = Array.from({ length: samples }, () =>
      Number(
        execFileSync(process.execPath, ["--input-type=module", "-e", script], {
          cwd: benchDir,
          encoding: "utf8",
        }),
      ),
    );
    return { ...stack, ms: median(times) };
  });
}
