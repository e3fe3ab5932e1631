// Compile-time only (run by `pnpm type-check`): Junction's MCP types and the official SDK's
// stay assignable both ways, so values pass between them without casts.
import type * as SDK from "@modelcontextprotocol/sdk/types.js";
import type * as Ours from "./mcp-protocol.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type Checks = [
  Assert<Mutual<Ours.Implementation, SDK.Implementation>>,
  Assert<Mutual<Ours.ServerCapabilities, SDK.ServerCapabilities>>,
  Assert<Mutual<Ours.ClientCapabilities, SDK.ClientCapabilities>>,
  Assert<Mutual<Ours.InitializeResult, SDK.InitializeResult>>,
  Assert<Mutual<Ours.MCPTool, SDK.Tool>>,
  Assert<Mutual<Ours.CallToolResult, SDK.CallToolResult>>,
  Assert<Mutual<Ours.MCPContentBlock, SDK.ContentBlock>>,
  Assert<Mutual<Ours.TextContent, SDK.TextContent>>,
  Assert<Mutual<Ours.ImageContent, SDK.ImageContent>>,
  Assert<Mutual<Ours.AudioContent, SDK.AudioContent>>,
  Assert<Mutual<Ours.ResourceLink, SDK.ResourceLink>>,
  Assert<Mutual<Ours.EmbeddedResource, SDK.EmbeddedResource>>,
  Assert<Mutual<Ours.Resource, SDK.Resource>>,
  Assert<Mutual<Ours.ResourceTemplate, SDK.ResourceTemplate>>,
  Assert<Mutual<Ours.ReadResourceResult, SDK.ReadResourceResult>>,
  Assert<Mutual<Ours.Prompt, SDK.Prompt>>,
  Assert<Mutual<Ours.PromptArgument, SDK.PromptArgument>>,
  Assert<Mutual<Ours.PromptMessage, SDK.PromptMessage>>,
  Assert<Mutual<Ours.GetPromptResult, SDK.GetPromptResult>>,
  Assert<Mutual<Ours.CompleteResult, SDK.CompleteResult>>,
  Assert<Mutual<Ours.Root, SDK.Root>>,
  Assert<Mutual<Ours.LoggingLevel, SDK.LoggingLevel>>,
  Assert<Mutual<Ours.SamplingMessage, SDK.SamplingMessage>>,
  Assert<Mutual<Ours.CreateMessageRequestParams, SDK.CreateMessageRequest["params"]>>,
  Assert<Mutual<Ours.CreateMessageResult, SDK.CreateMessageResult>>,
  Assert<Mutual<Ours.CreateMessageResultWithTools, SDK.CreateMessageResultWithTools>>,
  Assert<Mutual<Ours.ElicitRequestParams, SDK.ElicitRequest["params"]>>,
  Assert<Mutual<Ours.ElicitResult, SDK.ElicitResult>>,
  Assert<Mutual<Ours.Task, SDK.Task>>,
];
