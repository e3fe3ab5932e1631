import { JunctionError, type ToolContext, type ToolProgress } from "@junction/types";
import type {
  AuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  LoggingLevel,
  McpServer,
  RequestStateCodec,
  ServerContext,
} from "@modelcontextprotocol/server";
import type { Era } from "./served-types.js";

// The request context a served `tool()` reaches through its `ToolContext`: logging to the client,
// progress, sampling, elicitation, cancellation and the client's capabilities. On 2025 sessions
// the questions go to the client as requests within the call; on 2026-07-28 (stateless) they
// become `input_required` rounds, the call re-run with the answers so far (see `ServedCall`).

/** What a served tool can do with the request that called it. Get it with {@link servedContext}. */
export interface ServedToolContext {
  /** `legacy` (2025-11-25 and earlier, sessions) or `modern` (2026-07-28, stateless requests). */
  era: Era;
  /** Aborted when the client cancels the call (`notifications/cancelled`) or goes away. */
  signal: AbortSignal;
  /** What the client declared it can do: per request on 2026-07-28, at `initialize` on 2025 sessions. */
  clientCapabilities: ClientCapabilities;
  /** The verified token of an HTTP request, when the endpoint has `auth`. */
  authInfo?: AuthInfo;
  /**
   * Logs to the client (`notifications/message`), when `level` is at or above the level the
   * client set (`logging/setLevel` on 2025 sessions, the request's `logLevel` on 2026-07-28; a
   * 2026-07-28 request without one gets no logs). Needs `logging: true` in `createMCPServer()`.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Reports progress, when the client asked for it (sent a progress token); otherwise does
   * nothing. Resolves once it is written (await it to have it reach the client before the result).
   */
  progress(report: { progress: number; total?: number; message?: string }): Promise<void>;
  /**
   * Asks the client's model (`sampling/createMessage`). Throws `mcp-capability-missing` when the
   * client did not declare `sampling`. On 2026-07-28 see {@link servedContext} for how it is answered.
   */
  sample(
    params: CreateMessageRequestParams,
    options?: ServedQuestionOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /**
   * Asks the person (`elicitation/create`): a form (`mode: "form"`, or no mode) or a URL to open
   * (`mode: "url"`). Throws `mcp-capability-missing` when the client did not declare that mode.
   */
  elicit(
    params: ElicitRequestFormParams | ElicitRequestURLParams,
    options?: ServedQuestionOptions,
  ): Promise<ElicitResult>;
  /**
   * Where the call of a tool that asks before its task (`withTaskSupport(tool, support, {
   * askBeforeTask: true })`) becomes a task. On 2026-07-28, for a client with the tasks extension,
   * the questions asked before it are `input_required` rounds of the call; here the call ends with
   * the task (`CreateTaskResult`), which runs `execute` again from the start, each question
   * already answered resolving with its answer and `startTask()` at once; later questions are the
   * task's input requests. Everywhere else (in a task, a plain call) it resolves at once.
   */
  startTask(): Promise<void>;
}

/** How one served tool is registered: what its calls' contexts are made with. */
export interface ServedToolScope {
  server: McpServer;
  era: Era;
  /** The served tool's name (errors name it; a round's state is bound to it). */
  tool: string;
  codec: RequestStateCodec;
  /** Whether the server declared the `logging` capability. */
  logging: boolean;
  /**
   * Set where this call may become a task when its tool calls `startTask()` (2026-07-28, the
   * tasks extension declared, a tool that asks before its task): makes the task, the tool run
   * again in it from the start with `answers`; resolves with the `CreateTaskResult`.
   */
  startTask?:
    | ((parts: {
        args: unknown;
        answers: InputAnswer[];
        /** The `input_required` round whose retry started the task, if one did. */
        round: string | undefined;
        context: ServerContext;
      }) => Promise<unknown>)
    | undefined;
}

/** Where the served request and its scope ride on a `ToolContext` (read only by `servedContext`). */
export const SERVED_REQUEST: unique symbol = Symbol("junction.served-request") as never;
export const SERVED_SCOPE: unique symbol = Symbol("junction.served-scope") as never;
const SERVED_CALL: unique symbol = Symbol("junction.served-call") as never;
/** Where a tool running as a task finds its served context (`TaskServedCall`). */
export const SERVED_TASK: unique symbol = Symbol("junction.served-task") as never;

/** A `ToolContext` as the server makes it for a served call. */
export interface ServedToolContextCarrier extends ToolContext {
  [SERVED_REQUEST]?: ServerContext;
  [SERVED_SCOPE]?: ServedToolScope;
  [SERVED_CALL]?: ServedCall;
  [SERVED_TASK]?: ServedToolContext;
}

/**
 * The request context of a served call, from the `context` a tool's `execute` got; `undefined`
 * when the tool was not called by an MCP client through `createMCPServer()` (an Agent called it,
 * or a test). Built on first use, once per call.
 *
 * On 2026-07-28 a client is stateless, so `sample()` and `elicit()` cannot wait within the call:
 * the first unanswered one ends the call with an `input_required` result that asks it, and the
 * client's retry runs `execute` again from the start, where each question already answered
 * resolves with its answer (kept in the signed `requestState`). Ask before doing what must not
 * happen twice, and let the error `sample()`/`elicit()` throw to end the round pass (rethrow what
 * you do not handle).
 *
 * @example
 * ```ts
 * const greet = tool({ name: "greet", description: "Greets", schema: z.object({}),
 *   execute: async (_input, context) => {
 *     const served = servedContext(context);
 *     if (!served) return "Hello!";
 *     await served.log("info", "asking for a name");
 *     const answer = await served.elicit({ message: "Your name?", requestedSchema: {
 *       type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
 *     return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : "Hello!";
 *   } });
 * ```
 */
export function servedContext(context: ToolContext | undefined): ServedToolContext | undefined {
  const carrier = context as ServedToolContextCarrier | undefined;
  if (carrier?.[SERVED_TASK]) return carrier[SERVED_TASK];
  const request = carrier?.[SERVED_REQUEST];
  const scope = carrier?.[SERVED_SCOPE];
  if (!carrier || !request || !scope) return undefined;
  carrier[SERVED_CALL] ??= new ServedCall(request, scope);
  return carrier[SERVED_CALL];
}

/** The question a 2026-07-28 call asks next, when one went unanswered (read by the tool's handler). */
export function pendingInputOf(context: ToolContext): InputRound | undefined {
  return (context as ServedToolContextCarrier)[SERVED_CALL]?.pending;
}

/** The answers a call gathered before its tool called `startTask()`, when it did (read by the tool's handler). */
export function taskStartOf(
  context: ToolContext,
): { answers: InputAnswer[]; round: string | undefined } | undefined {
  return (context as ServedToolContextCarrier)[SERVED_CALL]?.taskStart;
}

/** A question a 2026-07-28 round ends with: its key, the request, and the answers so far. */
export interface InputRound {
  key: string;
  request: { method: "sampling/createMessage" | "elicitation/create"; params: Record<string, unknown> };
  answers: InputAnswer[];
}

/** One answered question of a call's earlier rounds: its input-request key and the client's answer. */
export interface InputAnswer {
  key: string;
  answer: unknown;
}

/** The state a tool's `input_required` round carries (signed by the server's codec). */
export interface ToolInputState {
  kind: "junction.tool-input";
  tool: string;
  /** The questions answered so far, in the order the tool asked them. */
  answers: InputAnswer[];
  /** The key of the question this round asks: the only answer taken from the retry. */
  asking: string;
  /** The round's own id (random): a round that starts a task starts it once. Absent in earlier states. */
  round?: string;
}

/** How a question is asked (`sample()`, `elicit()`). */
export interface ServedQuestionOptions {
  /**
   * 2026-07-28: the question's key in `inputRequests` (what the client files its answer under),
   * unique within the call.
   * @default `junction.input.N` for the call's N-th question
   */
  key?: string;
}

/** Thrown by `sample()`/`elicit()` on 2026-07-28 to end the round with the question. */
export class InputRequiredSignal extends JunctionError {
  constructor(tool: string) {
    super(
      "invalid-argument",
      `Tool "${tool}" asked the client a question; the call ends with input_required and runs again with the answer. Rethrow this error.`,
    );
    this.name = "InputRequiredSignal";
  }
}

/** Thrown by `startTask()` on 2026-07-28 to end the call with a task. */
export class StartTaskSignal extends JunctionError {
  constructor(tool: string) {
    super(
      "invalid-argument",
      `Tool "${tool}" started its task; the call ends with the task, which runs the tool again. Rethrow this error.`,
    );
    this.name = "StartTaskSignal";
  }
}

/** The key of the n-th question (0-based) of a call's rounds. */
export function inputKey(index: number): string {
  return `junction.input.${index + 1}`;
}

class ServedCall implements ServedToolContext {
  readonly era: Era;
  readonly signal: AbortSignal;
  readonly #request: ServerContext;
  readonly #scope: ServedToolScope;
  /** 2026-07-28: the answers of earlier rounds and this one, in the order they were asked. */
  #answers: InputAnswer[] | undefined;
  #asked = 0;
  pending: InputRound | undefined;
  /** Set once the tool called `startTask()` where the call may become a task. */
  taskStart: { answers: InputAnswer[]; round: string | undefined } | undefined;
  /** The id of the round this call is the retry of (2026-07-28), when its state has one. */
  #round: string | undefined;

  constructor(request: ServerContext, scope: ServedToolScope) {
    this.era = scope.era;
    this.signal = request.mcpReq.signal;
    this.#request = request;
    this.#scope = scope;
  }

  get clientCapabilities(): ClientCapabilities {
    const envelope = this.#request.mcpReq.envelope as Record<string, unknown> | undefined;
    const declared = envelope?.["io.modelcontextprotocol/clientCapabilities"] as
      | ClientCapabilities
      | undefined;
    if (this.era === "modern") return declared ?? {};
    return declared ?? this.#scope.server.server.getClientCapabilities() ?? {};
  }

  get authInfo(): AuthInfo | undefined {
    return this.#request.http?.authInfo;
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.#scope.logging) {
      return Promise.reject(
        new JunctionError(
          "invalid-argument",
          `Tool "${this.#scope.tool}" logged to the client, but the server does not declare the logging capability: set \`logging: true\` in createMCPServer().`,
        ),
      );
    }
    return this.#request.mcpReq.log(level, data, logger);
  }

  progress(report: { progress: number; total?: number; message?: string }): Promise<void> {
    return progressReporter(this.#request)?.(report) ?? Promise.resolve();
  }

  sample(
    params: CreateMessageRequestParams,
    options: ServedQuestionOptions = {},
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    checkQuestion({ tool: this.#scope.tool, capabilities: this.clientCapabilities, kind: "sampling" });
    if (this.era === "legacy") {
      return this.#request.mcpReq.requestSampling(params, { signal: this.signal });
    }
    return this.#ask(
      { method: "sampling/createMessage", params: params as never },
      checkSamplingAnswer,
      options,
    );
  }

  elicit(
    params: ElicitRequestFormParams | ElicitRequestURLParams,
    options: ServedQuestionOptions = {},
  ): Promise<ElicitResult> {
    checkQuestion({
      tool: this.#scope.tool,
      capabilities: this.clientCapabilities,
      kind: params.mode === "url" ? "url" : "form",
    });
    if (this.era === "legacy") return this.#request.mcpReq.elicitInput(params, { signal: this.signal });
    return this.#ask({ method: "elicitation/create", params: params as never }, checkElicitAnswer, options);
  }

  startTask(): Promise<void> {
    if (!this.#scope.startTask) return Promise.resolve();
    // Every question asked so far was answered (else this round had ended): they go to the task.
    const answers = this.#answersSoFar().slice(0, this.#asked);
    this.taskStart ??= { answers, round: this.#round };
    return Promise.reject(new StartTaskSignal(this.#scope.tool));
  }

  /** 2026-07-28: the answer when an earlier round has it; otherwise ends this round with the question. */
  async #ask<T>(
    request: InputRound["request"],
    check: (answer: unknown, key: string) => T,
    options: ServedQuestionOptions,
  ): Promise<T> {
    const answers = this.#answersSoFar();
    const index = this.#asked++;
    const key = options.key ?? inputKey(index);
    if (answers.slice(0, index).some((earlier) => earlier.key === key) || this.pending?.key === key) {
      throw new JunctionError(
        "invalid-argument",
        `Tool "${this.#scope.tool}" asked two questions with the key "${key}"; give each question of a call its own key.`,
      );
    }
    // A first call may carry the answer to the tool's first question (the spec's ephemeral round:
    // no requestState): the tool asks it first on every run, so it is the question asked.
    if (index === 0 && answers.length === 0 && this.#request.mcpReq.requestState() === undefined) {
      const first = this.#request.mcpReq.inputResponses?.[key];
      if (first !== undefined) answers.push({ key, answer: first });
    }
    const answered = answers[index];
    if (answered !== undefined) {
      if (answered.key !== key) {
        throw new JunctionError(
          "invalid-argument",
          `Tool "${this.#scope.tool}" asked "${key}" where its earlier round asked "${answered.key}": on 2026-07-28 a tool runs again each round and must ask its questions in the same order.`,
        );
      }
      return check(answered.answer, key);
    }
    this.pending ??= { key, request, answers: answers.slice() };
    throw new InputRequiredSignal(this.#scope.tool);
  }

  /** The answers the client's retry carries: the signed state's, and the one to the question it asked. */
  #answersSoFar(): InputAnswer[] {
    if (this.#answers) return this.#answers;
    const state = this.#request.mcpReq.requestState<ToolInputState>();
    const answers: InputAnswer[] = [];
    // Without state only the first question's answer is taken (see `#ask`); others were not asked.
    if (state !== undefined) {
      if (
        state?.kind !== "junction.tool-input" ||
        state.tool !== this.#scope.tool ||
        !Array.isArray(state.answers) ||
        typeof state.asking !== "string"
      ) {
        throw new JunctionError(
          "invalid-argument",
          `The requestState sent with the call to "${this.#scope.tool}" was not made for this tool's questions: call the tool again without it.`,
        );
      }
      answers.push(...state.answers);
      if (typeof state.round === "string") this.#round = state.round;
      const latest = this.#request.mcpReq.inputResponses?.[state.asking];
      if (latest !== undefined) answers.push({ key: state.asking, answer: latest });
    }
    this.#answers = answers;
    return answers;
  }
}

/**
 * Throws `mcp-capability-missing` when the client did not declare what a question needs:
 * `sampling`, form elicitation (`elicitation.form`, or `elicitation: {}` without modes) or URL
 * elicitation (`elicitation.url`).
 */
export function checkQuestion(question: {
  tool: string;
  capabilities: ClientCapabilities;
  kind: "sampling" | "form" | "url";
}): void {
  const { tool, capabilities, kind } = question;
  const elicitation = capabilities.elicitation as { form?: object; url?: object } | undefined;
  const [what, declared, capability] =
    kind === "sampling"
      ? ["sampling", capabilities.sampling !== undefined, "sampling"]
      : kind === "url"
        ? ["URL elicitation", elicitation?.url !== undefined, "elicitation.url"]
        : // A client that declares `elicitation: {}` (no modes) supports forms.
          [
            "form elicitation",
            elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined),
            "elicitation.form",
          ];
  if (declared) return;
  throw new JunctionError(
    "mcp-capability-missing",
    `Tool "${tool}" asked the client for ${what}, but the client did not declare ${capability} in its capabilities: it cannot be asked. Check \`clientCapabilities\` first and do without.`,
  );
}

/** A client's answer to an elicitation, checked; throws naming the key when it is not one. */
export function checkElicitAnswer(answer: unknown, key: string): ElicitResult {
  const action = (answer as { action?: unknown } | null)?.action;
  if (action === "accept" || action === "decline" || action === "cancel") {
    const content = (answer as { content?: unknown }).content;
    if (
      content === undefined ||
      (typeof content === "object" && content !== null && !Array.isArray(content))
    ) {
      return answer as ElicitResult;
    }
  }
  throw new JunctionError(
    "invalid-argument",
    `The client's answer to "${key}" is not an elicitation result: it needs \`action\` "accept", "decline" or "cancel", and \`content\` an object when present.`,
  );
}

/** A client's answer to a sampling request, checked; throws naming the key when it is not one. */
export function checkSamplingAnswer(answer: unknown, key: string): CreateMessageResult {
  const value = answer as { role?: unknown; content?: unknown; model?: unknown } | null;
  if (
    typeof value === "object" &&
    value !== null &&
    typeof value.content === "object" &&
    value.content !== null
  ) {
    return answer as CreateMessageResult;
  }
  throw new JunctionError(
    "invalid-argument",
    `The client's answer to "${key}" is not a sampling result: it needs \`content\` (the model's message).`,
  );
}

/**
 * Sends `notifications/progress` for a request whose client sent a progress token (`undefined`
 * when it sent none); resolves once written, and never rejects.
 */
export function progressReporter(
  context: ServerContext,
): ((progress: ToolProgress) => Promise<void>) | undefined {
  const token = context.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (progress: ToolProgress) => {
    if (context.mcpReq.signal.aborted) return Promise.resolve();
    return (
      context.mcpReq
        .notify({
          method: "notifications/progress",
          params: {
            progressToken: token,
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          },
        })
        // A progress report the transport could not deliver must not fail the tool.
        .catch(() => undefined)
    );
  };
}
