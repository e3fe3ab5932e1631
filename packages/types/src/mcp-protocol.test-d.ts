// Compile-time only (run by `pnpm type-check`): Junction's MCP types and the official SDK's
// stay assignable both ways, so values pass between them without casts. Checked against the
// v2 SDK (`@modelcontextprotocol/client`, revisions 2026-07-28 and 2025-11-25), which the
// client is built on, and the v1 SDK (`@modelcontextprotocol/sdk`, 2025-11-25).
//
// Where the two SDK lines truly differ, v2 wins: v2 types free-form capability objects, the
// `properties` of a tool's input schema and sampling `metadata` as JSON (v1: any `object`),
// lets a tool's `outputSchema` omit `type`, and allows any JSON value as `structuredContent`
// (v1: an object). Ours follows v2 there, so against v1 those types hold in one direction only
// (noted below), or in neither for `Tool` and `CreateMessageRequest["params"]`.
import type * as V2 from "@modelcontextprotocol/client";
import type * as V2Skills from "@modelcontextprotocol/client/ext/skills";
import type * as SDK from "@modelcontextprotocol/sdk/types.js";
import type * as Ours from "./mcp-protocol.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<From, To> = [From] extends [To] ? true : false;

export type ChecksV2 = [
  Assert<Mutual<Ours.Implementation, V2.Implementation>>,
  Assert<Mutual<Ours.ServerCapabilities, V2.ServerCapabilities>>,
  Assert<Mutual<Ours.ClientCapabilities, V2.ClientCapabilities>>,
  Assert<Mutual<Ours.InitializeResult, V2.InitializeResult>>,
  Assert<Mutual<Ours.MCPTool, V2.Tool>>,
  Assert<Mutual<Ours.CallToolResult, V2.CallToolResult>>,
  Assert<Mutual<Ours.MCPContentBlock, V2.ContentBlock>>,
  Assert<Mutual<Ours.TextContent, V2.TextContent>>,
  Assert<Mutual<Ours.ImageContent, V2.ImageContent>>,
  Assert<Mutual<Ours.AudioContent, V2.AudioContent>>,
  Assert<Mutual<Ours.ResourceLink, V2.ResourceLink>>,
  Assert<Mutual<Ours.EmbeddedResource, V2.EmbeddedResource>>,
  Assert<Mutual<Ours.Resource, V2.Resource>>,
  Assert<Mutual<Ours.ResourceTemplate, V2.ResourceTemplateType>>,
  Assert<Mutual<Ours.ReadResourceResult, V2.ReadResourceResult>>,
  Assert<Mutual<Ours.Prompt, V2.Prompt>>,
  Assert<Mutual<Ours.PromptArgument, V2.PromptArgument>>,
  Assert<Mutual<Ours.PromptMessage, V2.PromptMessage>>,
  Assert<Mutual<Ours.GetPromptResult, V2.GetPromptResult>>,
  Assert<Mutual<Ours.CompleteResult, V2.CompleteResult>>,
  Assert<Mutual<Ours.Root, V2.Root>>,
  Assert<Mutual<Ours.LoggingLevel, V2.LoggingLevel>>,
  Assert<Mutual<Ours.SamplingMessage, V2.SamplingMessage>>,
  Assert<Mutual<Ours.CreateMessageRequestParams, V2.CreateMessageRequest["params"]>>,
  Assert<Mutual<Ours.CreateMessageResult, V2.CreateMessageResult>>,
  Assert<Mutual<Ours.CreateMessageResultWithTools, V2.CreateMessageResultWithTools>>,
  Assert<Mutual<Ours.ElicitRequestParams, V2.ElicitRequest["params"]>>,
  Assert<Mutual<Ours.ElicitResult, V2.ElicitResult>>,
  Assert<Mutual<Ours.Task, V2.Task>>,
  Assert<Mutual<Ours.JSONValue, V2.JSONValue>>,
  // The Skills extension (SEP-2640), from the SDK's `ext/skills` entry.
  Assert<Mutual<Ours.MCPSkill, V2Skills.Skill>>,
  Assert<Mutual<Ours.MCPSkillFrontmatter, V2Skills.SkillFrontmatter>>,
  Assert<Mutual<Ours.MCPSkillResourceEntry, V2Skills.SkillResourceEntry>>,
];

export type ChecksV1 = [
  Assert<Mutual<Ours.Implementation, SDK.Implementation>>,
  // v1 allows any object as a capability's value; v2 (and ours) a JSON object.
  Assert<Assignable<Ours.ServerCapabilities, SDK.ServerCapabilities>>,
  Assert<Assignable<Ours.ClientCapabilities, SDK.ClientCapabilities>>,
  Assert<Assignable<Ours.InitializeResult, SDK.InitializeResult>>,
  // Tool: v1 requires `type: "object"` on `outputSchema` and allows any object as an input
  // property's schema; v2 (and ours) the reverse, so neither direction holds against v1.
  Assert<Assignable<SDK.Tool["annotations"], Ours.MCPTool["annotations"]>>,
  // v1 requires an object as `structuredContent`; v2 (and ours) allow any JSON value.
  Assert<Assignable<SDK.CallToolResult, Ours.CallToolResult>>,
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
  // A tool result inside a sampling message: `structuredContent` as for CallToolResult.
  Assert<Assignable<SDK.SamplingMessage, Ours.SamplingMessage>>,
  // Sampling params: the messages' `structuredContent`, the offered tools (as Tool) and
  // `metadata` (v1: any object; v2 and ours: a JSON object) differ, so neither direction holds.
  Assert<Mutual<Ours.ModelPreferences, NonNullable<SDK.CreateMessageRequest["params"]["modelPreferences"]>>>,
  Assert<Mutual<Ours.CreateMessageResult, SDK.CreateMessageResult>>,
  Assert<Assignable<SDK.CreateMessageResultWithTools, Ours.CreateMessageResultWithTools>>,
  Assert<Mutual<Ours.ElicitRequestParams, SDK.ElicitRequest["params"]>>,
  Assert<Mutual<Ours.ElicitResult, SDK.ElicitResult>>,
  Assert<Mutual<Ours.Task, SDK.Task>>,
];
