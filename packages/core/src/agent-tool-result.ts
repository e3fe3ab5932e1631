import type { ToolResult, ToolResultPart } from "@junction/types";
import type { AgentFinishedResult } from "./agent-events.js";

/**
 * An Agent's finished run as the result of a tool that asked it (an agent served as a tool over
 * MCP, in this process or on a durable engine): the answer's text, then the rich parts its tools
 * returned (images, audio, resources: everything but text, in the order the calls ran), a note
 * when the step limit cut the run short, and the structured answer (with an `output` schema) as
 * `structuredContent`.
 *
 * `parts` replaces the rich parts read from `result.steps`, for a caller that collected them from
 * the run's `tool-result` events (a resumed run's steps begin after the stop).
 *
 * @example
 * ```ts
 * const result = await agent.send("Draw the floor plan").final;
 * if (result.finishReason !== "approval-required") return agentToolResult(result);
 * ```
 */
export function agentToolResult(
  result: AgentFinishedResult,
  options: { parts?: readonly ToolResultPart[] } = {},
): ToolResult {
  const content: ToolResultPart[] = [];
  if (result.text.length > 0) content.push({ type: "text", text: result.text });
  content.push(...(options.parts ?? richPartsOf(result)));
  if (result.finishReason === "max-steps") {
    content.push({
      type: "text",
      text: "[The agent stopped at its step limit before it finished; the answer above may be incomplete.]",
    });
  }
  const toolResult: ToolResult = { content, isError: false };
  if (typeof result.output === "object" && result.output !== null)
    toolResult.structuredContent = result.output;
  return toolResult;
}

/** The parts of the run's tool results worth handing back beside the answer: everything but text. */
function richPartsOf(result: AgentFinishedResult): ToolResultPart[] {
  const parts: ToolResultPart[] = [];
  for (const step of result.steps) {
    for (const toolResult of step.toolResults) {
      if (typeof toolResult.output === "string") continue;
      parts.push(...toolResult.output.content.filter((part) => part.type !== "text"));
    }
  }
  return parts;
}
