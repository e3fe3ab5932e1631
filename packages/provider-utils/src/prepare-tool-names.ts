import {
  createToolNameMapping,
  type Message,
  type ToolChoice,
  type ToolDefinition,
  type ToolNameMapping,
  type ToolNameRule,
  type Warning,
} from "@junction/types";

/** Makes the name mapping from every name a request uses, for a vendor whose rule is more than a {@link ToolNameRule}. */
export type ToolNameMapper = (names: string[]) => ToolNameMapping;

/** What {@link prepareToolNames} returns. */
export interface PreparedToolNames<Tool extends { name: string } = ToolDefinition> {
  /** The tools to send, in order, each name once (the first of two tools with one name wins). */
  tools: Tool[];
  /** Real tool names ↔ the names sent to the vendor. */
  toolNames: ToolNameMapping;
  /** A `tool-duplicate-name` warning for each tool left out. */
  warnings: Warning[];
}

/**
 * The name half of every provider's prepare-tools step: the mapping from real tool names to the
 * names a vendor accepts, made from the offered tools and every name the conversation already
 * used (the names `toolNamesInMessages` lists), so earlier turns map the same way even for a tool no longer
 * offered; and the offered tools with each name once. A second tool with a name already taken is
 * left out with a `tool-duplicate-name` warning ("Two tools are named "x"; only the first is sent
 * to Anthropic."): a vendor rejects a request that declares one name twice. Pure.
 *
 * @param options.rule The vendor's {@link ToolNameRule} (`COMMON_TOOL_NAME_RULE` for most), or a
 *   function making the mapping for a vendor with an extra rule.
 * @param options.provider The provider's name as people write it, for the warning (`"Anthropic"`).
 *
 * @example
 * ```ts
 * const { tools, toolNames, warnings } = prepareToolNames({
 *   tools: request.tools, messages: request.messages, rule: COMMON_TOOL_NAME_RULE, provider: "Acme",
 * });
 * const wireTools = tools.map((tool) => ({ name: toolNames.toVendor(tool.name), schema: tool.inputSchema }));
 * ```
 */
export function prepareToolNames<Tool extends { name: string } = ToolDefinition>(options: {
  tools?: readonly Tool[];
  messages?: readonly Message[];
  rule: ToolNameRule | ToolNameMapper;
  provider: string;
}): PreparedToolNames<Tool> {
  const offered = options.tools ?? [];
  // Each name once, in the order first met (as the mapping would keep them): a long
  // conversation names the same few tools thousands of times, on every request.
  const distinct = new Set(offered.map((tool) => tool.name));
  for (const message of options.messages ?? []) {
    if (message.role === "assistant") {
      for (const part of message.content) if (part.type === "tool-call") distinct.add(part.name);
    } else if (message.role === "tool") {
      for (const part of message.content) distinct.add(part.toolName);
    }
  }
  const names = [...distinct];
  const rule = options.rule;
  const toolNames = typeof rule === "function" ? rule(names) : createToolNameMapping(names, rule);

  const tools: Tool[] = [];
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  for (const tool of offered) {
    if (seen.has(tool.name)) {
      warnings.push({
        code: "tool-duplicate-name",
        message: `Two tools are named "${tool.name}"; only the first is sent to ${options.provider}.`,
      });
      continue;
    }
    seen.add(tool.name);
    tools.push(tool);
  }
  return { tools, toolNames, warnings };
}

/**
 * The warning for a tool choice that needs a tool (`"required"` or a named tool) in a request
 * without tools, for a provider that then sends no tool choice at all (a vendor rejects one
 * without tools); `undefined` for any other choice.
 */
export function toolChoiceWithoutTools(toolChoice: ToolChoice | undefined): Warning | undefined {
  if (toolChoice !== "required" && typeof toolChoice !== "object") return undefined;
  return {
    code: "tool-choice-without-tools",
    message: "A tool choice that requires a tool was given without any tools; it was not sent.",
  };
}
