import {
  errorMessage,
  type JSONSchema,
  JunctionError,
  type Message,
  type ModelProvider,
  type ModelRequest,
  OutputError,
  type StructuredOutputMode,
  type ToolCallPart,
  type ToolDefinition,
  type ToolResultMessagePart,
  type Warning,
} from "@junction/types";
import { type ZodType, z } from "zod";
import type { AgentEvent, Step } from "./agent-events.js";
import { withoutNegativeZero } from "./json-limits.js";
import { answerJSONText, parsePartialJSON } from "./partial-json.js";

/**
 * What a run's answer must look like: a zod schema (the result's `output` is then typed from it)
 * or a JSON Schema. Either way its root is an object.
 */
export type OutputSchema<T = unknown> = ZodType<T> | JSONSchema;

/** The type of the validated answer for an {@link OutputSchema}: zod's output type, else `unknown`. */
export type InferOutput<S> = S extends ZodType ? z.output<S> : unknown;

/** The name of the answer tool offered in `answer-tool` mode (with a number added if a real tool has it). */
export const ANSWER_TOOL_NAME = "final_answer";

/** What the loop does after a step, for a run that asked for a structured answer. */
export type OutputVerdict =
  | { kind: "done"; output: unknown }
  /** Go on as without an output: run the step's tool calls, or stop. */
  | { kind: "next" }
  /** Ask again: `message` goes into the history and the model gets another turn. */
  | { kind: "repair"; message: Message };

/** The parts of a model request the structured answer decides for one step. */
export interface OutputRequest {
  tools: ToolDefinition[];
  responseFormat?: ModelRequest["responseFormat"];
  toolChoice?: ModelRequest["toolChoice"];
}

/**
 * One run's structured answer: decides where the format goes on each step (from the provider's
 * declared {@link StructuredOutputMode}), reads partial objects as they stream, and checks the
 * answer once a step ends. Its state moves only in `offer` and `afterStep`, which a replayed run
 * calls exactly as the live run did, so a replay reaches the same answer.
 */
export interface StructuredOutput {
  readonly mode: StructuredOutputMode;
  /** The tools of a step as offered (the answer tool added in `answer-tool` mode). */
  offer(tools: ToolDefinition[]): ToolDefinition[];
  /** The tools, response format and tool choice for the request of a live step. */
  request(tools: ToolDefinition[]): OutputRequest;
  /** A live model turn starts: partial objects are read afresh. */
  turnStart(): void;
  onText(text: string): void;
  onToolCallPiece(piece: { id: string; name?: string; argumentsDelta?: string }): void;
  isAnswerCall(call: { name: string }): boolean;
  /** Checks an answer tool call's input and says so in its result for the model. */
  answerResult(call: ToolCallPart): ToolResultMessagePart;
  /** Reads a finished step: the answer, another turn, or an `OutputError`. */
  afterStep(step: Step): OutputVerdict;
}

/** Options of {@link createStructuredOutput}. */
export interface StructuredOutputOptions {
  schema: OutputSchema;
  provider: ModelProvider;
  model: string;
  /** Turns the model gets to repair an invalid answer. @default 1 */
  repairTurns?: number;
  emit(event: AgentEvent): void;
  warn(warning: Warning): void;
}

/**
 * A run's structured answer when `schema` is set (warnings go out as `warning` events), else
 * `undefined`. Throws `invalid-argument` for a schema that cannot be used.
 */
export function structuredOutputFor(options: {
  schema: OutputSchema | undefined;
  repairTurns: number | undefined;
  provider: ModelProvider;
  model: string;
  emit(event: AgentEvent): void;
}): StructuredOutput | undefined {
  const { schema, repairTurns, emit } = options;
  if (schema === undefined) return undefined;
  return createStructuredOutput({
    schema,
    provider: options.provider,
    model: options.model,
    ...(repairTurns !== undefined ? { repairTurns } : {}),
    emit,
    warn: (warning) => emit({ type: "warning", warning }),
  });
}

type Check = { ok: true; value: unknown } | { ok: false; issues: string[]; notJSON?: boolean };

/** The structured answer of one run (see {@link StructuredOutput}). */
export function createStructuredOutput(options: StructuredOutputOptions): StructuredOutput {
  const repairTurns = options.repairTurns ?? 1;
  if (!Number.isInteger(repairTurns) || repairTurns < 0) {
    throw new JunctionError(
      "invalid-argument",
      `outputRepairTurns must be a whole number of turns (0 or more), got ${repairTurns}.`,
    );
  }
  const { jsonSchema, validate } = compileSchema(options.schema, options.warn);
  const capabilities = options.provider.capabilitiesFor?.(options.model) ?? options.provider.capabilities;
  const mode: StructuredOutputMode = capabilities.structuredOutput ?? "answer-tool";
  let answerName = ANSWER_TOOL_NAME;
  let repairsUsed = 0;
  // The format is asked for on the next step (final-step-only and answer-tool, after a prose answer).
  let formatNext = false;
  let formatTurnUsed = false;
  let accepted: { value: unknown } | undefined;
  let lastIssues: { text: string; issues: string[] } | undefined;
  // Partial objects of the live turn.
  let streamed = "";
  const answerArguments = new Map<string, string>();
  let lastPartial = "";

  const responseFormat = { type: "json" as const, schema: jsonSchema, name: "answer" };
  // A model's -0 is zero: made 0, so the answer can be signed and digested (a served agent's task record).
  const check = (value: unknown): Check => validate(withoutNegativeZero(value));
  const checkText = (text: string): Check => {
    let value: unknown;
    try {
      value = JSON.parse(answerJSONText(text));
    } catch (error) {
      return { ok: false, issues: [`The answer is not JSON: ${errorMessage(error)}.`], notJSON: true };
    }
    return check(value);
  };
  const emitPartial = (partial: unknown) => {
    if (partial === undefined || typeof partial !== "object" || partial === null) return;
    const key = JSON.stringify(partial);
    if (key === lastPartial) return;
    lastPartial = key;
    options.emit({ type: "output-delta", partial });
  };
  const fail = (parts: { code: OutputError["code"]; message: string; text: string; issues?: string[] }) => {
    throw new OutputError(parts);
  };
  const endChecks = (step: Step, raw: string) => {
    if (step.refusal !== undefined || step.finishReason === "content-filter") {
      fail({
        code: "output-refused",
        message: `The model refused to answer${step.refusal ? `: ${step.refusal}` : " (the vendor's content filter stopped it)."}`,
        text: step.refusal ?? raw,
      });
    }
    if (step.finishReason === "length") {
      fail({
        code: "output-truncated",
        message:
          "The answer was cut off at the output token limit before it was complete; raise `maxTokens` in the model settings or ask for a smaller answer.",
        text: raw,
      });
    }
  };
  const exhausted = (text: string, issues: string[]) =>
    fail({
      code: "output-invalid",
      message: `The model's answer did not match the output schema after ${repairTurns} repair turn${repairTurns === 1 ? "" : "s"}: ${issues.join("; ")}`,
      text,
      issues,
    });

  return {
    mode,
    offer(tools) {
      if (mode !== "answer-tool") return tools;
      const names = new Set(tools.map((tool) => tool.name));
      answerName = ANSWER_TOOL_NAME;
      for (let suffix = 2; names.has(answerName); suffix++) answerName = `${ANSWER_TOOL_NAME}_${suffix}`;
      return [
        ...tools,
        {
          name: answerName,
          description:
            "Gives your final answer. Call it once, when you are done (after any other tool calls), with the whole answer as its input.",
          inputSchema: jsonSchema,
        },
      ];
    },
    request(tools) {
      switch (mode) {
        case "native-with-tools":
          return { tools, responseFormat };
        case "final-step-only":
          // The vendor's format stops tool calls: it goes alone, on the step that answers (or on
          // every step when no tools are offered at all).
          return formatNext || tools.length === 0 ? { tools: [], responseFormat } : { tools };
        case "answer-tool":
          return formatNext ? { tools, toolChoice: { type: "tool", name: answerName } } : { tools };
        default: {
          const unknown: never = mode;
          throw new JunctionError("invalid-argument", `Unknown structured output mode ${String(unknown)}.`);
        }
      }
    },
    turnStart() {
      streamed = "";
      answerArguments.clear();
      lastPartial = "";
    },
    onText(text) {
      if (mode === "answer-tool") return;
      streamed += text;
      emitPartial(parsePartialJSON(streamed));
    },
    onToolCallPiece(piece) {
      if (piece.name !== undefined) {
        if (piece.name === answerName) answerArguments.set(piece.id, "");
        return;
      }
      const sofar = answerArguments.get(piece.id);
      if (sofar === undefined || piece.argumentsDelta === undefined) return;
      const next = sofar + piece.argumentsDelta;
      answerArguments.set(piece.id, next);
      emitPartial(parsePartialJSON(next));
    },
    isAnswerCall(call) {
      return mode === "answer-tool" && call.name === answerName;
    },
    answerResult(call) {
      const result = accepted ? { ok: true as const, value: accepted.value } : check(call.input);
      const text = JSON.stringify(call.input) ?? "";
      if (result.ok) {
        accepted ??= { value: result.value };
        return answerPart(call, "The answer was received.", false);
      }
      lastIssues = { text, issues: result.issues };
      return answerPart(
        call,
        `The answer does not match the schema:\n${result.issues.map((issue) => `- ${issue}`).join("\n")}\nCall ${answerName} again with the corrected answer.`,
        true,
      );
    },
    afterStep(step) {
      const answerCalls = step.toolCalls.filter((call) => call.name === answerName && mode === "answer-tool");
      if (answerCalls.length > 0) {
        const raw = JSON.stringify(answerCalls[0]!.input) ?? "";
        if (accepted) {
          options.emit({ type: "output", output: accepted.value });
          return { kind: "done", output: accepted.value };
        }
        endChecks(step, raw);
        const { text, issues } = lastIssues ?? { text: raw, issues: [] };
        if (repairsUsed >= repairTurns) exhausted(text, issues);
        repairsUsed++;
        // The answer tool's error result tells the model what to fix; the loop goes on.
        return { kind: "next" };
      }
      if (step.toolCalls.length > 0) return { kind: "next" };
      endChecks(step, step.text);
      const result = checkText(step.text);
      if (result.ok) {
        options.emit({ type: "output", output: result.value });
        return { kind: "done", output: result.value };
      }
      const formatInForce = mode === "native-with-tools" || formatNext;
      if (!formatInForce && !formatTurnUsed && result.notJSON) {
        // A prose answer on a vendor whose format could not go with the tools: ask once, with the format.
        formatTurnUsed = true;
        formatNext = true;
        return { kind: "repair", message: { role: "user", content: formatRequest(mode, answerName) } };
      }
      if (repairsUsed >= repairTurns) exhausted(step.text, result.issues);
      repairsUsed++;
      // The repair goes with the format where the vendor's mode allows it.
      formatNext = true;
      return {
        kind: "repair",
        message: {
          role: "user",
          content: `Your answer did not match the required JSON schema:\n${result.issues.map((issue) => `- ${issue}`).join("\n")}\n${
            mode === "answer-tool"
              ? `Call ${answerName} with the corrected answer.`
              : "Reply with only the corrected JSON object."
          }`,
        },
      };
    },
  };
}

function formatRequest(mode: StructuredOutputMode, answerName: string): string {
  return mode === "answer-tool"
    ? `Now give your final answer by calling ${answerName}.`
    : "Now give your final answer as a JSON object matching the required schema, and nothing else.";
}

function answerPart(call: ToolCallPart, text: string, isError: boolean): ToolResultMessagePart {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    output: { content: [{ type: "text", text }], isError },
  };
}

/** The schema as JSON Schema for the vendor, and the check of an answer against it. */
function compileSchema(
  schema: OutputSchema,
  warn: (warning: Warning) => void,
): { jsonSchema: JSONSchema; validate: (value: unknown) => Check } {
  if (schema instanceof z.ZodType) {
    let jsonSchema: JSONSchema;
    try {
      const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input" }) as JSONSchema;
      jsonSchema = rest;
    } catch (error) {
      throw new JunctionError(
        "invalid-argument",
        `output: the zod schema cannot be expressed as JSON Schema (${errorMessage(error)}); use types JSON Schema can describe (no transforms to other types, no dates).`,
        { cause: error },
      );
    }
    requireObject(jsonSchema);
    return { jsonSchema, validate: zodValidate(schema) };
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new JunctionError("invalid-argument", "output: expected a zod schema or a JSON Schema object.");
  }
  requireObject(schema);
  let converted: ZodType;
  try {
    converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    warn({
      code: "output-schema-unsupported",
      message: `The output JSON Schema could not be converted for local validation (${errorMessage(error)}); any JSON object is accepted as the answer.`,
    });
    return {
      jsonSchema: schema,
      validate: (value) =>
        typeof value === "object" && value !== null && !Array.isArray(value)
          ? { ok: true, value }
          : { ok: false, issues: ["The answer must be a JSON object."] },
    };
  }
  return { jsonSchema: schema, validate: zodValidate(converted) };
}

/** `value` with every object property whose value is `null` left out, at any depth (`value` itself when none is). */
function withoutNullProperties(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutNullProperties);
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (typeof value !== "object" || value === null) return value;
  let changed = false;
  const entries: [string, unknown][] = [];
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null) {
      changed = true;
      continue;
    }
    const next = withoutNullProperties(entry);
    if (next !== entry) changed = true;
    entries.push([key, next]);
  }
  return changed ? Object.fromEntries(entries) : value;
}

function requireObject(schema: JSONSchema): void {
  if (schema.type !== "object") {
    throw new JunctionError(
      "invalid-argument",
      `output: the schema's root must be an object (type "object"), got ${JSON.stringify(schema.type ?? null)}; wrap a list or a value in an object property.`,
    );
  }
}

function zodValidate(schema: ZodType): (value: unknown) => Check {
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, value: result.data };
    // OpenAI's strict mode makes optional properties required and nullable: a `null` there means
    // "absent", so an answer that fits once its null properties are left out is taken that way.
    const withoutNulls = withoutNullProperties(value);
    if (withoutNulls !== value) {
      const second = schema.safeParse(withoutNulls);
      if (second.success) return { ok: true, value: second.data };
    }
    return {
      ok: false,
      issues: result.error.issues.map(
        (issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`,
      ),
    };
  };
}
