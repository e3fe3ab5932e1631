import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { directorySize, installConsumerProject, packPublishedPackages } from "@junction/consumer-install";

export interface FootprintFigures {
  name: string;
  dependencies: string[];
  bytes: number;
}

/**
 * Installed size of a consumer project's node_modules with core + mcp-client + one provider,
 * from packed tarballs, against the same set from each peer (installed from the npm registry).
 */
export async function benchFootprint(): Promise<FootprintFigures[]> {
  const work = await mkdtemp(join(tmpdir(), "junction-footprint-"));
  try {
    const tarballs = await packPublishedPackages(join(work, "tarballs"));
    const junctionDependencies = [
      "@junction/types",
      "@junction/core",
      "@junction/mcp-client",
      "@junction/provider-anthropic",
      // provider-anthropic's own workspace dependency: not on the registry, so from its tarball too.
      "@junction/provider-utils",
    ];
    const stacks: { name: string; dependencies: Record<string, string> }[] = [
      {
        name: "Junction (core + mcp-client + provider-anthropic)",
        dependencies: Object.fromEntries(
          junctionDependencies.map((name) => [name, `file:${tarballs.get(name)}`]),
        ),
      },
      {
        name: "AI SDK (ai + @ai-sdk/mcp + @ai-sdk/anthropic)",
        dependencies: { ai: "7.0.173", "@ai-sdk/mcp": "2.0.99", "@ai-sdk/anthropic": "4.0.105", zod: "^4" },
      },
      {
        name: "LangChain (@langchain/mcp-adapters + core + langgraph + anthropic)",
        dependencies: {
          "@langchain/mcp-adapters": "1.1.4",
          "@langchain/core": "^1",
          "@langchain/langgraph": "^1",
          "@langchain/anthropic": "^1",
        },
      },
    ];
    const figures: FootprintFigures[] = [];
    for (const [index, stack] of stacks.entries()) {
      const dir = join(work, `consumer-${index}`);
      await installConsumerProject(dir, stack.dependencies);
      figures.push({
        name: stack.name,
        dependencies: Object.keys(stack.dependencies),
        bytes: await directorySize(join(dir, "node_modules")),
      });
    }
    return figures;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
