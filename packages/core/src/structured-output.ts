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
  return new RunStructuredOutput(options);
}

/**
 * One run's structured answer: the schema compiled once, the mode from the provider, and what the
 * run has seen so far (repairs used, the format turn, the accepted answer, the live turn's partial
 * objects). Its state moves only in `offer`, `turnStart`, the stream's pieces and `afterStep`.
 */
class RunStructuredOutput implements StructuredOutput {
  readonly mode: StructuredOutputMode;
  readonly #options: StructuredOutputOptions;
  readonly #repairTurns: number;
  readonly #jsonSchema: JSONSchema;
  readonly #validate: (value: unknown) => Check;
  readonly #responseFormat: NonNullable<ModelRequest["responseFormat"]>;
  #answerName = ANSWER_TOOL_NAME;
  #repairsUsed = 0;
  /** The format is asked for on the next step (final-step-only and answer-tool, after a prose answer). */
  #formatNext = false;
  #formatTurnUsed = false;
  #accepted: { value: unknown } | undefined;
  #lastIssues: { text: string; issues: string[] } | undefined;
  // Partial objects of the live turn.
  #streamed = "";
  readonly #answerArguments = new Map<string, string>();
  #lastPartial = "";

  constructor(options: StructuredOutputOptions) {
    const repairTurns = options.repairTurns ?? 1;
    if (!Number.isInteger(repairTurns) || repairTurns < 0) {
      throw new JunctionError(
        "invalid-argument",
        `outputRepairTurns must be a whole number of turns (0 or more), got ${repairTurns}.`,
      );
    }
    this.#options = options;
    this.#repairTurns = repairTurns;
    const { jsonSchema, validate } = compileSchema(options.schema, options.warn);
    this.#jsonSchema = jsonSchema;
    this.#validate = validate;
    this.#responseFormat = { type: "json", schema: jsonSchema, name: "answer" };
    const capabilities = options.provider.capabilitiesFor?.(options.model) ?? options.provider.capabilities;
    this.mode = capabilities.structuredOutput ?? "answer-tool";
  }

  offer(tools: ToolDefinition[]): ToolDefinition[] {
    if (this.mode !== "answer-tool") return tools;
    const names = new Set(tools.map((tool) => tool.name));
    this.#answerName = ANSWER_TOOL_NAME;
    for (let suffix = 2; names.has(this.#answerName); suffix++)
      this.#answerName = `${ANSWER_TOOL_NAME}_${suffix}`;
    return [
      ...tools,
      {
        name: this.#answerName,
        description:
          "Gives your final answer. Call it once, when you are done (after any other tool calls), with the whole answer as its input.",
        inputSchema: this.#jsonSchema,
      },
    ];
  }

  request(tools: ToolDefinition[]): OutputRequest {
    const responseFormat = this.#responseFormat;
    switch (this.mode) {
      case "native-with-tools":
        return { tools, responseFormat };
      case "final-step-only":
        // The vendor's format stops tool calls: it goes alone, on the step that answers (or on
        // every step when no tools are offered at all).
        return this.#formatNext || tools.length === 0 ? { tools: [], responseFormat } : { tools };
      case "answer-tool":
        return this.#formatNext ? { tools, toolChoice: { type: "tool", name: this.#answerName } } : { tools };
      default: {
        const unknown: never = this.mode;
        throw new JunctionError("invalid-argument", `Unknown structured output mode ${String(unknown)}.`);
      }
    }
  }

  turnStart(): void {
    this.#streamed = "";
    this.#answerArguments.clear();
    this.#lastPartial = "";
  }

  onText(text: string): void {
    if (this.mode === "answer-tool") return;
    this.#streamed += text;
    this.#emitPartial(parsePartialJSON(this.#streamed));
  }

  onToolCallPiece(piece: { id: string; name?: string; argumentsDelta?: string }): void {
    if (piece.name !== undefined) {
      if (piece.name === this.#answerName) this.#answerArguments.set(piece.id, "");
      return;
    }
    const sofar = this.#answerArguments.get(piece.id);
    if (sofar === undefined || piece.argumentsDelta === undefined) return;
    const next = sofar + piece.argumentsDelta;
    this.#answerArguments.set(piece.id, next);
    this.#emitPartial(parsePartialJSON(next));
  }

  isAnswerCall(call: { name: string }): boolean {
    return this.mode === "answer-tool" && call.name === this.#answerName;
  }

  answerResult(call: ToolCallPart): ToolResultMessagePart {
    const result = this.#accepted
      ? { ok: true as const, value: this.#accepted.value }
      : this.#check(call.input);
    const text = JSON.stringify(call.input) ?? "";
    if (result.ok) {
      this.#accepted ??= { value: result.value };
      return answerPart(call, "The answer was received.", false);
    }
    this.#lastIssues = { text, issues: result.issues };
    return answerPart(
      call,
      `The answer does not match the schema:\n${result.issues.map((issue) => `- ${issue}`).join("\n")}\nCall ${this.#answerName} again with the corrected answer.`,
      true,
    );
  }

  afterStep(step: Step): OutputVerdict {
    const answerCalls = step.toolCalls.filter((call) => this.isAnswerCall(call));
    if (answerCalls.length > 0)
      return this.#afterAnswerCall(step, JSON.stringify(answerCalls[0]!.input) ?? "");
    if (step.toolCalls.length > 0) return { kind: "next" };
    return this.#afterText(step);
  }

  /** A step that called the answer tool: done once an answer was accepted, else another turn (the tool's result says what to fix). */
  #afterAnswerCall(step: Step, raw: string): OutputVerdict {
    if (this.#accepted) {
      this.#options.emit({ type: "output", output: this.#accepted.value });
      return { kind: "done", output: this.#accepted.value };
    }
    endChecks(step, raw);
    const { text, issues } = this.#lastIssues ?? { text: raw, issues: [] };
    this.#useRepair(text, issues);
    return { kind: "next" };
  }

  /** A step that answered in text: the answer, a request for the format, or a repair. */
  #afterText(step: Step): OutputVerdict {
    endChecks(step, step.text);
    const result = this.#checkText(step.text);
    if (result.ok) {
      this.#options.emit({ type: "output", output: result.value });
      return { kind: "done", output: result.value };
    }
    const formatInForce = this.mode === "native-with-tools" || this.#formatNext;
    if (!formatInForce && !this.#formatTurnUsed && result.notJSON) {
      // A prose answer on a vendor whose format could not go with the tools: ask once, with the format.
      this.#formatTurnUsed = true;
      this.#formatNext = true;
      return {
        kind: "repair",
        message: { role: "user", content: formatRequest(this.mode, this.#answerName) },
      };
    }
    this.#useRepair(step.text, result.issues);
    // The repair goes with the format where the vendor's mode allows it.
    this.#formatNext = true;
    return {
      kind: "repair",
      message: {
        role: "user",
        content: `Your answer did not match the required JSON schema:\n${result.issues.map((issue) => `- ${issue}`).join("\n")}\n${
          this.mode === "answer-tool"
            ? `Call ${this.#answerName} with the corrected answer.`
            : "Reply with only the corrected JSON object."
        }`,
      },
    };
  }

  /** Counts a repair turn, or fails (`output-invalid`) when none is left. */
  #useRepair(text: string, issues: string[]): void {
    if (this.#repairsUsed >= this.#repairTurns) {
      const turns = this.#repairTurns;
      throw new OutputError({
        code: "output-invalid",
        message: `The model's answer did not match the output schema after ${turns} repair turn${turns === 1 ? "" : "s"}: ${issues.join("; ")}`,
        text,
        issues,
      });
    }
    this.#repairsUsed++;
  }

  // A model's -0 is zero: made 0, so the answer can be signed and digested (a served agent's task record).
  #check(value: unknown): Check {
    return this.#validate(withoutNegativeZero(value));
  }

  #checkText(text: string): Check {
    let value: unknown;
    try {
      value = JSON.parse(answerJSONText(text));
    } catch (error) {
      return { ok: false, issues: [`The answer is not JSON: ${errorMessage(error)}.`], notJSON: true };
    }
    return this.#check(value);
  }

  #emitPartial(partial: unknown): void {
    if (partial === undefined || typeof partial !== "object" || partial === null) return;
    const key = JSON.stringify(partial);
    if (key === this.#lastPartial) return;
    this.#lastPartial = key;
    this.#options.emit({ type: "output-delta", partial });
  }
}

/** A step the model refused or the vendor cut off: an `OutputError` saying which. */
function endChecks(step: Step, raw: string): void {
  if (step.refusal !== undefined || step.finishReason === "content-filter") {
    throw new OutputError({
      code: "output-refused",
      message: `The model refused to answer${step.refusal ? `: ${step.refusal}` : " (the vendor's content filter stopped it)."}`,
      text: step.refusal ?? raw,
    });
  }
  if (step.finishReason === "length") {
    throw new OutputError({
      code: "output-truncated",
      message:
        "The answer was cut off at the output token limit before it was complete; raise `maxTokens` in the model settings or ask for a smaller answer.",
      text: raw,
    });
  }
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
