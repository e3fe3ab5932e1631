import type { Sandbox, SandboxLimits, ToolDefinition, ToolResult } from "@junction/types";
import type { AgentEvent } from "./agent-events.js";

// The tools Junction itself offers the model (the read tool, the tool search, the program tool):
// what each is, apart from the run that offers it.

/**
 * A tool Junction itself offers the model for one step (reading the rest of a cut tool result,
 * searching deferred tools). It only reads what the run already holds, so it runs without the
 * approval policy; a user's tool of the same name wins over it.
 */
export interface CoreTool {
  definition: ToolDefinition;
  /** Never throws for bad input: the model gets an error result it can act on. */
  execute(input: unknown, context?: CoreToolContext): string | ToolResult | Promise<string | ToolResult>;
  /** Set on the program tool (code mode): a call to it runs a program in this sandbox, not `execute`. */
  program?: ProgramSpec;
}

/** How code mode runs a program: the sandbox, the functions a program may call, its limits. */
export interface ProgramSpec {
  sandbox: Sandbox;
  /** The real tool name of each function a program may call, by the name it calls it with (`github.create_issue`). */
  functions: ReadonlyMap<string, string>;
  limits?: Partial<SandboxLimits>;
}

/** What a core tool's call is given: its id in the conversation and the run's events. */
export interface CoreToolContext {
  callId: string;
  emit(event: AgentEvent): void;
  /** Aborted when the run is aborted or fails. */
  signal?: AbortSignal;
}

/** The name of the tool the model finds deferred tools with. */
export const SEARCH_TOOLS = "search_tools";

/** The name of the tool the model runs a program with (code mode). */
export const RUN_PROGRAM = "run_program";

/** The name of the tool the model reads the rest of a cut result with. */
export const READ_TOOL_RESULT = "read_tool_result";

/**
 * The names of the tools Junction itself offers the model. They only read what the run already
 * holds (tool definitions, results in the conversation), so they run without the approval policy,
 * their results are not private data for the exfiltration guard, and an MCP server cannot take
 * their names (see `ToolRegistry`).
 */
export const CORE_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, READ_TOOL_RESULT, RUN_PROGRAM]);

/** An error result for a core tool's bad input. */
export function coreToolError(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** A core tool's arguments as a record to read fields from (anything else reads as empty: the model's input is untrusted). */
export function coreToolInput(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

/** Core tools only read what the run already holds. */
export const CORE_TOOL_ANNOTATIONS = { readOnlyHint: true, openWorldHint: false } as const;
