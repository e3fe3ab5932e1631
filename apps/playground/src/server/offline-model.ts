import { join } from "node:path";
import { READ_TOOL_RESULT, RUN_PROGRAM, SEARCH_TOOLS } from "@junction/core";
import { type ScriptedTurn, scriptedModel } from "@junction/core/testing";
import type {
  Message,
  ModelProvider,
  ModelRequest,
  ToolDefinition,
  ToolResult,
  Usage,
} from "@junction/types";

/** A planned tool call: which tool, with what input, and what to say first. */
export interface OfflinePlan {
  tool: string;
  input: Record<string, unknown>;
  preface: string;
}

const noUsage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * The playground's offline model: not an LLM, a small set of rules on top of core's scripted
 * model. Each turn it picks a tool from the user's words and the tools on offer, or, once the
 * result is back, summarises it. It shows the whole loop (tool call, approval, result, answer)
 * on a machine with no key and no network.
 */
export function createOfflineModel(options: { sandbox: string; delayMs?: number }): ModelProvider {
  const respond = (request: ModelRequest): ScriptedTurn => {
    const base = { usage: noUsage, delayMs: options.delayMs ?? 8 };
    const last = request.messages.at(-1);
    // A conversation with an output schema: core asks for the answer through a tool it names.
    const forced = typeof request.toolChoice === "object" ? request.toolChoice.name : undefined;
    const answerTool = forced ? request.tools?.find((tool) => tool.name === forced) : undefined;
    if (answerTool) {
      return {
        ...base,
        toolCalls: [
          {
            id: nextCallId(request.messages),
            name: answerTool.name,
            input: exampleOf(answerTool.inputSchema, answerContext(request.messages)),
          },
        ],
      };
    }
    const tools = (request.tools ?? []).filter((tool) => !CORE_TOOLS.has(tool.name));
    const canSearch = request.tools?.some((tool) => tool.name === SEARCH_TOOLS) ?? false;
    const call = (plan: OfflinePlan): ScriptedTurn => ({
      ...base,
      text: plan.preface,
      toolCalls: [{ id: nextCallId(request.messages), name: plan.tool, input: plan.input }],
    });
    if (last?.role === "tool") {
      // Right after its own search, the tools it found are loaded: the model asks again.
      const searched = last.content.some((part) => part.toolName === SEARCH_TOOLS);
      const plan = searched
        ? planToolCall(lastUserText(request.messages), tools, options.sandbox)
        : undefined;
      return plan ? call(plan) : { ...base, text: summarise(last) };
    }
    const text = last?.role === "user" ? userText(last) : "";
    if (tools.length === 0 && !canSearch) {
      const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      return {
        ...base,
        text: `I am the offline scripted model, not an LLM, and I have no tools here. You said: "${excerpt}"`,
      };
    }
    // Code mode in the sandbox: asked for "in a program", the planned call is made by one.
    const canProgram = request.tools?.some((tool) => tool.name === RUN_PROGRAM) ?? false;
    if (canProgram && PROGRAM_WORDS.test(text)) {
      const planned = planToolCall(text.replace(PROGRAM_WORDS, "").trim(), tools, options.sandbox);
      if (planned) return call(programPlan(planned));
    }
    const plan = planToolCall(text, tools, options.sandbox);
    if (plan) return call(plan);
    if (canSearch) {
      return call({
        tool: SEARCH_TOOLS,
        input: { query: searchQueryFor(text, options.sandbox) },
        preface: "No loaded tool does that; let me search the deferred ones. ",
      });
    }
    return { ...base, text: helpText(tools) };
  };
  // One scripted turn per model call; a run never has more steps than the agent's maxSteps.
  return scriptedModel({
    name: "offline",
    responses: Array.from({ length: 64 }, () => respond),
    capabilities: { userImages: false, userAudio: false, parallelToolCalls: false, reasoning: false },
  });
}

/**
 * An id no call of the conversation has: the scripted model would number calls per model (and
 * the playground makes one model per turn), so every turn after the first reused `call_1_1`.
 */
function nextCallId(history: readonly Message[]): string {
  const calls = history.reduce(
    (count, message) =>
      count +
      (message.role === "assistant" ? message.content.filter((part) => part.type === "tool-call").length : 0),
    0,
  );
  return `offline_call_${calls + 1}`;
}

/** Tools core adds to a run (the tool search, the reader of cut results, code mode's program): never the offline model's pick. */
const CORE_TOOLS = new Set([SEARCH_TOOLS, READ_TOOL_RESULT, RUN_PROGRAM]);

/** The user's words that ask for the work to be done by a program ("… in a program"). */
const PROGRAM_WORDS = /\s*\b(?:in|as|with|by) a program\b/i;

/**
 * `plan`'s call made by a code mode program instead: `run_program` with a program that calls the
 * tool as code mode declares it (`tools.<server>.<tool>`, the server's prefix before the first
 * `_`, characters a name cannot hold as `_`) and returns its result.
 */
export function programPlan(plan: OfflinePlan): OfflinePlan {
  const split = plan.tool.indexOf("_");
  const path =
    split > 0
      ? `${identifier(plan.tool.slice(0, split))}.${identifier(plan.tool.slice(split + 1))}`
      : identifier(plan.tool);
  return {
    tool: RUN_PROGRAM,
    input: { code: `const result = await tools.${path}(${JSON.stringify(plan.input)});\nreturn result;` },
    preface: `${plan.preface}I'll do it in a program. `,
  };
}

/** A tool's name as a program's function name (what code mode's declarations make of it). */
function identifier(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(cleaned) || cleaned === "" ? `_${cleaned}` : cleaned;
}

function lastUserText(history: readonly Message[]): string {
  const said = history.findLast((message) => message.role === "user");
  return said?.role === "user" ? userText(said) : "";
}

function userText(message: Extract<Message, { role: "user" }>): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
}

function findTool(tools: ToolDefinition[], ...names: string[]): ToolDefinition | undefined {
  for (const name of names) {
    const tool = tools.find((candidate) => candidate.name === name || candidate.name.endsWith(`_${name}`));
    if (tool) return tool;
  }
  return undefined;
}

/**
 * One thing the offline model knows how to ask a default server for: whether the user's words
 * ask for it, the tools that do it (best first), what a model would search for when none of
 * them is loaded yet, and the call.
 */
interface OfflineRule {
  asks: boolean;
  tools: string[];
  query: string;
  plan(tool: ToolDefinition): OfflinePlan;
}

/** What the rules read in a request: its words in lower case, its numbers, its first quoted text. */
function wordsOf(text: string): { lower: string; numbers: number[]; quoted: string | undefined } {
  return {
    lower: text.toLowerCase(),
    numbers: (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number),
    quoted: /["“']([^"”']+)["”']/.exec(text)?.[1],
  };
}

function offlineRules(text: string, sandbox: string): OfflineRule[] {
  const { lower, numbers, quoted } = wordsOf(text);
  const echo = /\becho\b\s*(.*)$/is.exec(text);
  const write = /\b(?:write|save|create)\b.*?\bfile\b\s*([\w.-]+)?/i.exec(text);
  const fileName = write?.[1] && write[1].toLowerCase() !== "with" ? write[1] : "note.txt";
  const read = /\bread\b.*?([\w-]+\.\w+)/i.exec(text);
  const remember = /\bremember\b(?:\s+that)?\s+(.+)$/is.exec(text);
  return [
    {
      asks: /\b(image|picture|logo)\b/.test(lower),
      tools: ["get-tiny-image"],
      query: "tiny image",
      plan: (tool) => ({ tool: tool.name, input: {}, preface: "Let me fetch the tiny image. " }),
    },
    {
      asks: /\b(add|sum|plus|\+)\b/.test(lower) && numbers.length >= 2,
      tools: ["get-sum"],
      query: "sum of two numbers",
      plan: (tool) => ({
        tool: tool.name,
        input: { a: numbers[0], b: numbers[1] },
        preface: `I'll add ${numbers[0]} and ${numbers[1]} with the sum tool. `,
      }),
    },
    {
      asks: echo !== null,
      tools: ["echo"],
      query: "echo back the input",
      plan: (tool) => ({
        tool: tool.name,
        input: { message: quoted ?? (echo?.[1]?.trim() || "hello") },
        preface: "Echoing that back. ",
      }),
    },
    {
      asks: write !== null,
      tools: ["write_file"],
      query: "write a file",
      plan: (tool) => ({
        tool: tool.name,
        input: { path: join(sandbox, fileName), content: quoted ?? "Written by the offline model.\n" },
        preface: `I'll write ${fileName} in the sandbox folder. `,
      }),
    },
    {
      asks: read !== null,
      tools: ["read_text_file", "read_file"],
      query: "read a text file",
      plan: (tool) => ({
        tool: tool.name,
        input: { path: join(sandbox, read![1]!) },
        preface: `Reading ${read![1]} from the sandbox. `,
      }),
    },
    {
      asks: /\b(list|files|folder|directory|sandbox)\b/.test(lower),
      tools: ["list_directory"],
      query: "list directory files",
      plan: (tool) => ({
        tool: tool.name,
        input: { path: sandbox },
        preface: "Listing the sandbox folder. ",
      }),
    },
    {
      asks: remember !== null,
      tools: ["create_entities"],
      query: "create entities in the knowledge graph",
      plan: (tool) => ({
        tool: tool.name,
        input: {
          entities: [{ name: "user-note", entityType: "note", observations: [remember![1]!.trim()] }],
        },
        preface: "I'll store that in the memory server's knowledge graph. ",
      }),
    },
    {
      asks: /\b(memory|knowledge|graph|remembered)\b/.test(lower),
      tools: ["read_graph"],
      query: "read the knowledge graph",
      plan: (tool) => ({ tool: tool.name, input: {}, preface: "Reading the knowledge graph. " }),
    },
    {
      asks: /\b(elicit|form|ask me)\b/.test(lower),
      tools: ["trigger-elicitation-request"],
      query: "elicitation request",
      plan: (tool) => ({ tool: tool.name, input: {}, preface: "The server will ask you some questions. " }),
    },
  ];
}

/**
 * Chooses a tool for the user's words. Clear requests map to known tools of the default
 * servers; anything else goes to the tool whose name and description share the most words
 * with the request, when its required arguments can be filled.
 */
export function planToolCall(
  text: string,
  tools: ToolDefinition[],
  sandbox: string,
): OfflinePlan | undefined {
  for (const rule of offlineRules(text, sandbox)) {
    const tool = rule.asks ? findTool(tools, ...rule.tools) : undefined;
    if (tool) return rule.plan(tool);
  }
  const { lower, numbers, quoted } = wordsOf(text);
  return genericPlan(lower, tools, { numbers, quoted });
}

/**
 * What the offline model searches for when the tool it wants is not loaded (the Agent deferred
 * it behind `search_tools`): a known request's own words, else the user's.
 */
export function searchQueryFor(text: string, sandbox: string): string {
  return offlineRules(text, sandbox).find((rule) => rule.asks)?.query ?? text.slice(0, 200);
}

const stopWords = new Set([
  "the",
  "and",
  "for",
  "with",
  "this",
  "that",
  "please",
  "can",
  "you",
  "run",
  "use",
  "call",
  "tool",
  "from",
  "what",
  "show",
]);

function genericPlan(
  lower: string,
  tools: ToolDefinition[],
  { numbers, quoted }: { numbers: number[]; quoted: string | undefined },
): OfflinePlan | undefined {
  const words = new Set(lower.split(/[^a-z0-9]+/).filter((word) => word.length >= 3 && !stopWords.has(word)));
  let best: { tool: ToolDefinition; score: number } | undefined;
  for (const tool of tools) {
    const haystack = new Set(`${tool.name} ${tool.description}`.toLowerCase().split(/[^a-z0-9]+/));
    const score = [...haystack].filter((word) => words.has(word)).length;
    if (score > 0 && (!best || score > best.score)) best = { tool, score };
  }
  if (!best) return undefined;
  const input = fillArguments(best.tool.inputSchema, numbers, quoted);
  if (!input) return undefined;
  return { tool: best.tool.name, input, preface: `The closest tool is ${best.tool.name}; I'll call it. ` };
}

function fillArguments(
  schema: Record<string, unknown>,
  numbers: number[],
  quoted: string | undefined,
): Record<string, unknown> | undefined {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const input: Record<string, unknown> = {};
  const remaining = [...numbers];
  for (const name of required) {
    const property = properties[name] ?? {};
    if (Array.isArray(property.enum) && property.enum.length > 0) input[name] = property.enum[0];
    else if (property.type === "number" || property.type === "integer") {
      if (remaining.length === 0) return undefined;
      input[name] = remaining.shift();
    } else if (property.type === "string") {
      if (quoted === undefined) return undefined;
      input[name] = quoted;
    } else if (property.type === "boolean") input[name] = false;
    else return undefined;
  }
  return input;
}

function summarise(message: Extract<Message, { role: "tool" }>): string {
  const lines: string[] = [];
  for (const part of message.content) {
    const output: ToolResult =
      typeof part.output === "string"
        ? { content: [{ type: "text", text: part.output }], isError: false }
        : part.output;
    const texts = output.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
    const images = output.content.filter((block) => block.type === "image").length;
    const audio = output.content.filter((block) => block.type === "audio").length;
    const resources = output.content.filter(
      (block) => block.type === "resource" || block.type === "resource_link",
    ).length;
    const joined = texts.join(" ").replace(/\s+/g, " ").trim();
    const trimmed = joined.replace(/[.\s]+$/, "");
    const excerpt = trimmed.length > 400 ? `${trimmed.slice(0, 400)}…` : trimmed;
    if (output.isError) {
      lines.push(`${part.toolName} failed: ${excerpt || "no message"}.`);
      continue;
    }
    const extras = [
      images ? `${images} image${images > 1 ? "s" : ""}` : "",
      audio ? `${audio} audio clip${audio > 1 ? "s" : ""}` : "",
      resources ? `${resources} resource${resources > 1 ? "s" : ""}` : "",
    ].filter(Boolean);
    lines.push(
      `${part.toolName} returned${excerpt ? `: "${excerpt}"` : " no text"}${extras.length ? ` and ${extras.join(", ")}` : ""}.`,
    );
  }
  return `Done. ${lines.join(" ")}`;
}

function helpText(tools: ToolDefinition[]): string {
  const names = tools.slice(0, 12).map((tool) => tool.name);
  return (
    "I am the offline scripted model: I pick a tool from your words, I don't understand language. " +
    'Try "show me the tiny image", "add 2 and 3", "echo hello", "list the sandbox files", ' +
    `"write a file notes.txt with 'hi'", or "remember that I like tea". ` +
    (names.length
      ? `Tools on offer: ${names.join(", ")}${tools.length > names.length ? ", …" : ""}.`
      : "No tools are connected.")
  );
}

/** What an offline answer is filled from: the model's last words and the numbers in the last result. */
interface AnswerContext {
  text: string;
  numbers: number[];
}

function answerContext(history: readonly Message[]): AnswerContext {
  const said = history.findLast((message) => message.role === "assistant");
  const text =
    said?.role === "assistant"
      ? said.content
          .flatMap((part) => (part.type === "text" ? [part.text] : []))
          .join(" ")
          .trim()
      : "";
  const result = history.findLast((message) => message.role === "tool");
  const resultText = result ? JSON.stringify(result.content) : text;
  const numbers = (resultText.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  return { text, numbers };
}

/**
 * A value matching `schema`, as the offline model's structured answer: strings from its last
 * words, numbers from the last tool result (its last number), the first of an enum, and every
 * property of an object. Not an LLM: it fills the shape, it does not understand it.
 */
export function exampleOf(schema: unknown, context: AnswerContext, depth = 0): unknown {
  const node = (typeof schema === "object" && schema !== null ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ("const" in node) return node.const;
  const type = Array.isArray(node.type) ? node.type.find((candidate) => candidate !== "null") : node.type;
  switch (type) {
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      if (depth > 8) return {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, exampleOf(value, context, depth + 1)]),
      );
    }
    case "array":
      return depth > 8 ? [] : [exampleOf(node.items, context, depth + 1)];
    case "number":
      return context.numbers.at(-1) ?? 0;
    case "integer":
      return Math.round(context.numbers.at(-1) ?? 0);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return context.text || "offline answer";
  }
}
