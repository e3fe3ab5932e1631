/** The workspace folders of the packages published to npm, as one fixed release group. */
export const publishedPackageDirs = [
  "packages/types",
  "packages/mcp-client",
  "packages/mcp-server",
  "packages/core",
  "packages/provider-anthropic",
  "packages/provider-openai",
  "packages/provider-gemini",
  "packages/provider-chatcompletions",
  "packages/provider-utils",
  "packages/provider-bedrock",
  "packages/dbos",
  "packages/restate",
  "packages/otel",
  "packages/embed-minilm",
  "packages/sandbox-quickjs",
];
