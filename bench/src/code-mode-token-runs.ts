// The code-mode bench's token figures: each task of code-mode-tasks.ts run end to end through a
// framework's public agent API with a scripted model, over fresh MCP servers on stdio, once per
// variant (direct calls, a call per turn or a wave per turn; code mode). What is counted is what
// the model received: every request's input tokens by Junction's one estimator (the AI SDK's
// requests converted to Junction's neutral shape first, so both are counted alike), and the
// tools' result bytes that reached it against those the tools produced.
import { experimental_codeModeTool as codeModeTool, DIRECT_TOOL_CALL } from "@ai-sdk/code-mode";
import { experimental_createMCPClient as createAISDKMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport as AISDKStdioTransport } from "@ai-sdk/mcp/mcp-stdio";
import { Agent, estimateRequestSize, RUN_PROGRAM } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import type {
  AssistantContentPart,
  Message,
  Sandbox,
  ToolDefinition,
  ToolResult,
  ToolResultPart,
} from "@junction/types";
import { type Tool as AISDKTool, generateText, stepCountIs, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import {
  AI_SDK_DIALECT,
  type CodeModeTask,
  directTurns,
  JUNCTION_DIALECT,
  type ScriptedCall,
  type TaskServers,
} from "./code-mode-tasks.ts";

export type TaskVariant = "direct, call per turn" | "direct, wave per turn" | "code mode";

/** One task run: what the model was sent, and what the tools produced. */
export interface TaskRun {
  framework: "Junction" | "AI SDK";
  task: string;
  kind: CodeModeTask["kind"];
  variant: TaskVariant;
  /** Model requests (turns). */
  requests: number;
  /** Input tokens over every request (Junction's estimator). */
  inputTokens: number;
  /** Of which the tool definitions. */
  toolTokens: number;
  /** Tools offered in the first request (with code mode, the program tool among them). */
  toolsOffered: number;
  /** Tool calls the servers ran (direct or from a program). */
  calls: number;
  /** UTF-8 bytes of the tools' results (their text, else their JSON). */
  producedBytes: number;
  /** UTF-8 bytes of the tool results in the conversation the model was last sent. */
  reachedBytes: number;
}

const CONTEXT_WINDOW = 128_000;
const MAX_STEPS = 64;

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** A tool result's size as the model would read it: its text parts, else its JSON. */
function resultBytes(output: unknown): number {
  if (typeof output === "string") return bytes(output);
  const content = (output as { content?: unknown } | null)?.content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((part: { type?: string; text?: string }) =>
      part.type === "text" && typeof part.text === "string" ? [part.text] : [],
    );
    if (texts.length > 0) return texts.reduce((sum, text) => sum + bytes(text), 0);
  }
  return bytes(JSON.stringify(output) ?? "");
}

/** The variant's turns for a scripted model: tool calls per turn (or the program), then the answer. */
function turnsOf(task: CodeModeTask, variant: TaskVariant): ScriptedCall[][] | { program: true } {
  if (variant === "code mode" && task.program) return { program: true };
  return directTurns(task, variant === "direct, wave per turn" ? "wave per turn" : "call per turn");
}

/** Runs `task` through Junction's `Agent` with the scripted model, code mode on for `code mode`. */
export async function runJunctionTask(parts: {
  task: CodeModeTask;
  variant: TaskVariant;
  servers: TaskServers;
  sandbox: Sandbox;
}): Promise<TaskRun> {
  const { task, variant, servers, sandbox } = parts;
  const fs = new MCP({ transport: "stdio", ...servers.filesystem, reconnect: false });
  const tracker = new MCP({ transport: "stdio", ...servers.tracker, reconnect: false });
  await Promise.all([fs.connect(), tracker.connect()]);
  try {
    const turns = turnsOf(task, variant);
    const provider = scriptedModel([
      ...("program" in turns
        ? [{ toolCalls: [{ name: RUN_PROGRAM, input: { code: task.program!(JUNCTION_DIALECT) } }] }]
        : turns.map((calls) => ({
            toolCalls: calls.map((call) => ({ name: call.tool, input: call.input })),
          }))),
      { text: task.answer },
    ]);
    let calls = 0;
    let producedBytes = 0;
    const failures: string[] = [];
    const agent = new Agent({
      provider,
      model: "scripted",
      mcps: [
        { prefix: "fs", mcp: fs },
        { prefix: "tracker", mcp: tracker },
      ],
      maxSteps: MAX_STEPS,
      ...(variant === "code mode" ? { codeMode: { sandbox } } : {}),
      onEvent: (event) => {
        if (event.type !== "tool-result") return;
        if (event.outcome !== undefined && event.outcome !== "success")
          failures.push(`${event.name}: ${event.outcome} ${JSON.stringify(event.result).slice(0, 300)}`);
        if (event.name === RUN_PROGRAM) return;
        calls++;
        producedBytes += resultBytes(event.result);
      },
    });
    const result = await agent.send(task.prompt).final;
    if (failures.length > 0) throw new Error(`Junction, ${task.name} (${variant}): ${failures.join("; ")}`);
    if (result.text !== task.answer)
      throw new Error(
        `Junction, ${task.name} (${variant}): the run ended ${result.finishReason}, not with the answer`,
      );
    if (task.expectStale) {
      const list = (await tracker.listTools()).find((tool) => tool.name === "list_issues")!;
      await expectStale(
        { task, variant, framework: "Junction" },
        await list.execute({ label: "stale", per_page: 100 }),
      );
    }
    const sizes = provider.requests.map((request) =>
      estimateRequestSize({
        ...(request.system !== undefined ? { system: request.system } : {}),
        messages: request.messages,
        ...(request.tools ? { tools: request.tools.map(sentDefinition) } : {}),
        contextWindow: CONTEXT_WINDOW,
      }),
    );
    return {
      framework: "Junction",
      task: task.name,
      kind: task.kind,
      variant,
      requests: provider.requests.length,
      inputTokens: sizes.reduce((sum, size) => sum + size.total, 0),
      toolTokens: sizes.reduce((sum, size) => sum + size.tools, 0),
      toolsOffered: provider.requests[0]?.tools?.length ?? 0,
      calls,
      producedBytes,
      reachedBytes: reachedBytes(provider.requests.at(-1)?.messages ?? []),
    };
  } finally {
    await Promise.allSettled([fs.close(), tracker.close()]);
  }
}

/**
 * A tool definition as a provider sends it: name, description and input schema (and the deferral
 * marks the estimator reads). Junction's definitions also carry `outputSchema` and `annotations`,
 * which no provider puts on the wire and the estimator would count: both frameworks' definitions
 * are counted on the fields that reach the model.
 */
function sentDefinition(definition: ToolDefinition): ToolDefinition {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    ...(definition.defer !== undefined ? { defer: definition.defer } : {}),
    ...(definition.group !== undefined ? { group: definition.group } : {}),
  };
}

function reachedBytes(messages: Message[]): number {
  let total = 0;
  for (const message of messages)
    if (message.role === "tool") for (const part of message.content) total += resultBytes(part.output);
  return total;
}

async function expectStale(
  { task, variant, framework }: { task: CodeModeTask; variant: TaskVariant; framework: string },
  listed: unknown,
) {
  const text = (listed as { content: { text: string }[] }).content[0]!.text;
  const numbers = (JSON.parse(text) as { number: number }[])
    .map((issue) => issue.number)
    .sort((a, b) => a - b);
  const expected = [...task.expectStale!].sort((a, b) => a - b);
  if (JSON.stringify(numbers) !== JSON.stringify(expected))
    throw new Error(
      `${framework}, ${task.name} (${variant}): issues labelled stale ${numbers.join(",")}, expected ${expected.join(",")}`,
    );
}

/** The AI SDK's model call options and prompt (its provider spec, through the mock model's types). */
type LanguageModelV4CallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type LanguageModelV4Prompt = LanguageModelV4CallOptions["prompt"];

const mockUsage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * Runs `task` through the AI SDK's `generateText` with its mock model; in `code mode`, with
 * `@ai-sdk/code-mode`'s `codeModeTool()` and every MCP tool callable both directly and from code
 * (`experimental_toolCallers`), as Junction's default offers them.
 */
export async function runAISDKTask(parts: {
  task: CodeModeTask;
  variant: TaskVariant;
  servers: TaskServers;
}): Promise<TaskRun> {
  const { task, variant, servers } = parts;
  const [fs, tracker] = await Promise.all([
    createAISDKMCPClient({ transport: new AISDKStdioTransport(servers.filesystem) }),
    createAISDKMCPClient({ transport: new AISDKStdioTransport(servers.tracker) }),
  ]);
  try {
    const served = { fs: await fs.tools(), tracker: await tracker.tools() };
    let calls = 0;
    let producedBytes = 0;
    const tools: ToolSet = {};
    for (const [prefix, set] of Object.entries(served)) {
      for (const [name, original] of Object.entries(set)) {
        const mcpTool = original as AISDKTool;
        tools[`${prefix}_${name}`] = {
          ...mcpTool,
          execute: async (input: unknown, options: never) => {
            const output = await mcpTool.execute!(input, options);
            calls++;
            producedBytes += resultBytes(output);
            if ((output as { isError?: boolean }).isError)
              throw new Error(`AI SDK, ${task.name}: ${prefix}_${name} failed: ${resultBytes(output)}`);
            return output;
          },
        } as AISDKTool;
      }
    }
    const turns = turnsOf(task, variant);
    const script =
      "program" in turns ? [[{ tool: "code_mode", input: { js: task.program!(AI_SDK_DIALECT) } }]] : turns;
    const model = scriptedAISDKModel(script, task.answer);
    const codeMode = variant === "code mode";
    const result = await generateText({
      model,
      tools: codeMode ? { code_mode: codeModeTool(), ...tools } : tools,
      ...(codeMode
        ? {
            experimental_toolCallers: Object.fromEntries(
              Object.keys(tools).map((name) => [name, ["code_mode", DIRECT_TOOL_CALL]]),
            ),
          }
        : {}),
      prompt: task.prompt,
      stopWhen: stepCountIs(MAX_STEPS),
    });
    const errors = result.steps.flatMap((step) =>
      step.content.flatMap((part) =>
        part.type === "tool-error" ? [`${part.toolName}: ${String(part.error).slice(0, 300)}`] : [],
      ),
    );
    if (errors.length > 0) throw new Error(`AI SDK, ${task.name} (${variant}): ${errors.join("; ")}`);
    if (result.text !== task.answer)
      throw new Error(
        `AI SDK, ${task.name} (${variant}): the run ended ${result.finishReason}, not with the answer`,
      );
    if (task.expectStale) {
      const list = served.tracker.list_issues as AISDKTool;
      await expectStale(
        { task, variant, framework: "AI SDK" },
        await list.execute!({ label: "stale", per_page: 100 }, {
          toolCallId: "check",
          messages: [],
        } as never),
      );
    }
    const sizes = model.doGenerateCalls.map((options) => {
      const request = aiSDKRequest(options);
      return estimateRequestSize({
        ...request,
        tools: request.tools.map(sentDefinition),
        contextWindow: CONTEXT_WINDOW,
      });
    });
    return {
      framework: "AI SDK",
      task: task.name,
      kind: task.kind,
      variant,
      requests: model.doGenerateCalls.length,
      inputTokens: sizes.reduce((sum, size) => sum + size.total, 0),
      toolTokens: sizes.reduce((sum, size) => sum + size.tools, 0),
      toolsOffered: model.doGenerateCalls[0]?.tools?.length ?? 0,
      calls,
      producedBytes,
      reachedBytes: reachedBytes(aiSDKRequest(model.doGenerateCalls.at(-1)!).messages),
    };
  } finally {
    await Promise.allSettled([fs.close(), tracker.close()]);
  }
}

/** The AI SDK's mock model playing the turns (each turn's calls at once), then the answer. */
function scriptedAISDKModel(turns: ScriptedCall[][], answer: string): MockLanguageModelV4 {
  let turn = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const calls = turns[turn++];
      if (calls === undefined) {
        return {
          content: [{ type: "text", text: answer }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: mockUsage,
          warnings: [],
        };
      }
      return {
        content: calls.map((call, index) => ({
          type: "tool-call" as const,
          toolCallId: `call_${turn}_${index + 1}`,
          toolName: call.tool,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: mockUsage,
        warnings: [],
      };
    },
  });
}

/**
 * An AI SDK model request in Junction's neutral shape, so the one estimator counts both
 * frameworks' requests alike: the system prompt, the messages (text, tool calls with their
 * input, tool results as the model gets them), and the function tools' definitions.
 */
export function aiSDKRequest(options: LanguageModelV4CallOptions): {
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
} {
  const prompt: LanguageModelV4Prompt = options.prompt;
  const system = prompt
    .flatMap((message) => (message.role === "system" ? [message.content] : []))
    .join("\n\n");
  const messages: Message[] = [];
  for (const message of prompt) {
    if (message.role === "user") {
      messages.push({
        role: "user",
        content: message.content.flatMap((part) =>
          part.type === "text" ? [{ type: "text" as const, text: part.text }] : [],
        ),
      });
    } else if (message.role === "assistant") {
      const content: AssistantContentPart[] = [];
      for (const part of message.content) {
        if (part.type === "text") content.push({ type: "text", text: part.text });
        else if (part.type === "reasoning") content.push({ type: "reasoning", text: part.text });
        else if (part.type === "tool-call")
          content.push({ type: "tool-call", id: part.toolCallId, name: part.toolName, input: part.input });
      }
      messages.push({ role: "assistant", content });
    } else if (message.role === "tool") {
      messages.push({
        role: "tool",
        content: message.content.flatMap((part) =>
          part.type === "tool-result"
            ? [
                {
                  type: "tool-result" as const,
                  toolCallId: part.toolCallId,
                  toolName: part.toolName,
                  output: toolResultOf(part.output),
                },
              ]
            : [],
        ),
      });
    }
  }
  const tools = (options.tools ?? []).flatMap((tool) =>
    tool.type === "function"
      ? [
          {
            name: tool.name,
            description: tool.description ?? "",
            inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
          },
        ]
      : [],
  );
  return { ...(system !== "" ? { system } : {}), messages, tools };
}

type AISDKToolOutput = Extract<
  LanguageModelV4Prompt[number],
  { role: "tool" }
>["content"][number] extends infer Part
  ? Part extends { type: "tool-result"; output: infer Output }
    ? Output
    : never
  : never;

/** A tool result as the AI SDK sends it, as a Junction `ToolResult` (JSON values as their text). */
function toolResultOf(output: AISDKToolOutput): ToolResult {
  const text = (value: string): ToolResult => ({ content: [{ type: "text", text: value }], isError: false });
  switch (output.type) {
    case "text":
    case "error-text":
      return text(output.value);
    case "json":
    case "error-json":
      return text(JSON.stringify(output.value));
    case "execution-denied":
      return text(output.reason ?? "denied");
    case "content":
      return {
        content: output.value.map(
          (part): ToolResultPart =>
            part.type === "text"
              ? { type: "text", text: part.text }
              : { type: "text", text: JSON.stringify(part) },
        ),
        isError: false,
      };
    default: {
      const unknown: never = output;
      return text(JSON.stringify(unknown));
    }
  }
}
