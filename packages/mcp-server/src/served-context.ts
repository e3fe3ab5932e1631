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
  InputRequiredResult,
  JsonSchemaType,
  ListRootsResult,
  LoggingLevel,
  McpServer,
  RequestStateCodec,
  ServerContext,
} from "@modelcontextprotocol/server";
import { fromJsonSchema, inputRequired } from "@modelcontextprotocol/server";
import type { Era, MCPRequestContext } from "./served-types.js";

// The request context a served `tool()` (or prompt) reaches through its context: logging to the
// client, progress, sampling, elicitation, the client's roots, cancellation, the client's
// capabilities and the handler's own state across rounds. On 2025 sessions the questions go to the
// client as requests within the call; on 2026-07-28 (stateless) they become `input_required`
// rounds, the call re-run with the answers so far (see `ServedCall`).

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
   * client did not declare `sampling` (uncaught on 2026-07-28, the request's `-32021` error). On
   * 2026-07-28 see {@link servedContext} for how it is answered.
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
   * Lists the client's roots (`roots/list`). Throws `mcp-capability-missing` when the client did
   * not declare `roots`. On 2026-07-28 it is a question like `sample()` and `elicit()`.
   */
  roots(options?: ServedQuestionOptions): Promise<ListRootsResult>;
  /**
   * What the handler kept with {@link setState}: on 2026-07-28 the value the previous round kept
   * (carried in the `requestState`, signed and bound to the tool: a changed one, or one made for
   * another tool, is refused; signed, not encrypted, so the client can read it: keep no secrets
   * in it), within one call on 2025 sessions. `undefined` until one is kept.
   */
  readonly state: unknown;
  /**
   * Keeps a JSON value for the call's next round (2026-07-28; see {@link state}). Only kept when
   * the round ends with a question: a call that completes drops it.
   */
  setState(value: unknown): void;
  /**
   * Where the call of a tool that asks before its task (`withTaskSupport(tool, support, {
   * askBeforeTask: true })`) becomes a task. On 2026-07-28, for a client with the tasks extension,
   * the questions asked before it are `input_required` rounds of the call; here the call ends with
   * the task (`CreateTaskResult`), which runs `execute` again from the start, each question
   * already answered resolving with its answer and `startTask()` at once; later questions are the
   * task's input requests. Everywhere else (in a task, a plain call) it resolves at once.
   */
  startTask(): Promise<void>;
  /**
   * 2025-11-25 over Streamable HTTP: ends the SSE stream this call answers on, now, with the
   * session's `retry` (SEP-1699 polling). The client resumes it with `Last-Event-ID` and gets what
   * follows, the result included, from the session's event store (on by default). Does nothing
   * where there is no such stream (stdio, 2026-07-28, a session without an event store, a task).
   */
  closeStream(): void;
}

/** How one served tool or prompt is registered: what its calls' contexts are made with. */
export interface ServedToolScope {
  server: McpServer;
  era: Era;
  /** The served tool's (or prompt's) name (errors name it; a round's state is bound to it). */
  tool: string;
  /** What is served under that name. @default "tool" */
  kind?: "tool" | "prompt";
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

/** A `ToolContext` (or a prompt's `MCPRequestContext`) as the server makes it for a served call. */
export interface ServedToolContextCarrier {
  [SERVED_REQUEST]?: ServerContext;
  [SERVED_SCOPE]?: ServedToolScope;
  [SERVED_CALL]?: ServedCall;
  [SERVED_TASK]?: ServedToolContext;
}

/**
 * The request context of a served call, from the `context` a tool's `execute` (or a served
 * prompt's `get`) got; `undefined` when it was not called by an MCP client through
 * `createMCPServer()` (an Agent called it, or a test). Built on first use, once per call.
 *
 * On 2026-07-28 a client is stateless, so `sample()`, `elicit()` and `roots()` cannot wait within
 * the call: an unanswered one ends the call with an `input_required` result that asks it, and the
 * client's retry runs the handler again from the start, where each question already answered
 * resolves with its answer (kept in the signed `requestState`). Questions asked together
 * (`Promise.all([served.elicit(a), served.sample(b), served.roots()])`) go in one round. Ask
 * before doing what must not happen twice, and let the error they throw to end the round pass
 * (rethrow what you do not handle). A question the client did not declare the capability for
 * throws `mcp-capability-missing`; when it is not caught, a 2026-07-28 client gets the protocol's
 * `-32021` error naming the capability (`data.requiredCapabilities`).
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
export function servedContext(
  context: ToolContext | MCPRequestContext | undefined,
): ServedToolContext | undefined {
  const carrier = context as ServedToolContextCarrier | undefined;
  if (carrier?.[SERVED_TASK]) return carrier[SERVED_TASK];
  const request = carrier?.[SERVED_REQUEST];
  const scope = carrier?.[SERVED_SCOPE];
  if (!carrier || !request || !scope) return undefined;
  carrier[SERVED_CALL] ??= new ServedCall(request, scope);
  return carrier[SERVED_CALL];
}

/**
 * 2026-07-28: the `input_required` result a call ends with when it asked what the client has not
 * answered yet (every question asked in the run, the answers so far and the handler's state,
 * sealed with the scope's codec); `undefined` when it asked nothing unanswered. When the call
 * ended with (`error`) the `mcp-capability-missing` of a question the client lacks the capability
 * for, the result asks that question alone: the SDK answers it with the protocol's `-32021`
 * error, whose `data.requiredCapabilities` names the capability.
 */
export async function inputRequiredOf(
  context: object,
  ended: { request: ServerContext; error?: unknown },
): Promise<InputRequiredResult | undefined> {
  const carrier = context as ServedToolContextCarrier;
  const call = carrier[SERVED_CALL];
  const scope = carrier[SERVED_SCOPE];
  if (!call || !scope) return undefined;
  const uncovered = call.uncovered;
  if (uncovered && ended.error === uncovered.error) {
    return inputRequired({
      inputRequests: { [uncovered.question.key]: uncovered.question.request } as never,
    });
  }
  const round = call.round();
  if (!round) return undefined;
  return inputRequired({
    inputRequests: Object.fromEntries(round.questions.map(({ key, request }) => [key, request])) as never,
    requestState: await scope.codec.mint(round.state, ended.request),
  });
}

/** The answers a call gathered before its tool called `startTask()`, when it did (read by the tool's handler). */
export function taskStartOf(
  context: object,
): { answers: InputAnswer[]; round: string | undefined } | undefined {
  return (context as ServedToolContextCarrier)[SERVED_CALL]?.taskStart;
}

/** A question of a 2026-07-28 round: its input-request key and the request. */
interface InputQuestion {
  key: string;
  request: {
    method: "sampling/createMessage" | "elicitation/create" | "roots/list";
    params: Record<string, unknown>;
  };
}

/** One answered question of a call's earlier rounds: its input-request key and the client's answer. */
export interface InputAnswer {
  key: string;
  answer: unknown;
}

/** The state a tool's (or prompt's) `input_required` round carries (signed by the server's codec). */
export interface ToolInputState {
  kind: "junction.tool-input";
  /** The tool's or prompt's name (the codec binds the state to the method too). */
  tool: string;
  /** The questions answered so far, in the order the handler asked them. */
  answers: InputAnswer[];
  /** The keys of the questions this round asks: the only answers taken from the retry. */
  asking: string[];
  /** What the handler kept with `setState()`, when it kept something. */
  state?: unknown;
  /** The round's own id (random): a round that starts a task starts it once. Absent in earlier states. */
  round?: string;
}

/** How a question is asked (`sample()`, `elicit()`, `roots()`). */
export interface ServedQuestionOptions {
  /**
   * 2026-07-28: the question's key in `inputRequests` (what the client files its answer under),
   * unique within the call.
   * @default `junction.input.N` for the call's N-th question
   */
  key?: string;
}

/** Thrown by `sample()`/`elicit()`/`roots()` on 2026-07-28 to end the round with the question. */
export class InputRequiredSignal extends JunctionError {
  constructor(who: string) {
    super(
      "invalid-argument",
      `${who} asked the client a question; the call ends with input_required and runs again with the answer. Rethrow this error.`,
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
  /** `Tool "name"` or `Prompt "name"`, for errors. */
  readonly #who: string;
  /** 2026-07-28: the answers of earlier rounds and this one, by key (read once). */
  #answers: Map<string, unknown> | undefined;
  #state: unknown;
  #asked = 0;
  readonly #keys = new Set<string>();
  /** 2026-07-28: the questions this run asked that have no answer yet. */
  readonly #pending: InputQuestion[] = [];
  /** 2026-07-28: the last question asked without the client's capability, and the error it threw. */
  uncovered: { question: InputQuestion; error: JunctionError } | undefined;
  /** Set once the tool called `startTask()` where the call may become a task. */
  taskStart: { answers: InputAnswer[]; round: string | undefined } | undefined;
  /** The id of the round this call is the retry of (2026-07-28), when its state has one. */
  #round: string | undefined;

  constructor(request: ServerContext, scope: ServedToolScope) {
    this.era = scope.era;
    this.signal = request.mcpReq.signal;
    this.#request = request;
    this.#scope = scope;
    this.#who = `${scope.kind === "prompt" ? "Prompt" : "Tool"} "${scope.tool}"`;
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

  get state(): unknown {
    if (this.era === "modern") this.#answersSoFar();
    return this.#state;
  }

  setState(value: unknown): void {
    if (this.era === "modern") this.#answersSoFar();
    this.#state = value;
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.#scope.logging) {
      return Promise.reject(
        new JunctionError(
          "invalid-argument",
          `${this.#who} logged to the client, but the server does not declare the logging capability: set \`logging: true\` in createMCPServer().`,
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
    const request = { method: "sampling/createMessage", params: params as never } as const;
    this.#require(questionNeed(this.clientCapabilities, "sampling"), { request, options });
    if (this.era === "legacy") {
      return this.#request.mcpReq.requestSampling(params, { signal: this.signal });
    }
    return this.#ask(request, checkSamplingAnswer, options);
  }

  elicit(
    params: ElicitRequestFormParams | ElicitRequestURLParams,
    options: ServedQuestionOptions = {},
  ): Promise<ElicitResult> {
    const request = { method: "elicitation/create", params: params as never } as const;
    this.#require(questionNeed(this.clientCapabilities, params.mode === "url" ? "url" : "form"), {
      request,
      options,
    });
    if (this.era === "legacy") return this.#request.mcpReq.elicitInput(params, { signal: this.signal });
    return this.#ask(request, (answer, key) => checkElicitAnswer(answer, key, params), options);
  }

  roots(options: ServedQuestionOptions = {}): Promise<ListRootsResult> {
    const request = { method: "roots/list", params: {} } as const;
    this.#require(questionNeed(this.clientCapabilities, "roots"), { request, options });
    if (this.era === "legacy") {
      return this.#request.mcpReq.send({ method: "roots/list" }, { signal: this.signal });
    }
    return this.#ask(request, checkRootsAnswer, options);
  }

  closeStream(): void {
    if (this.era === "legacy") this.#request.http?.closeSSE?.();
  }

  startTask(): Promise<void> {
    if (!this.#scope.startTask) return Promise.resolve();
    // Every question asked so far was answered (else this round had ended): they go to the task.
    const answers = this.#answersSoFar();
    const asked = [...this.#keys].map((key) => ({ key, answer: answers.get(key) }));
    this.taskStart ??= { answers: asked, round: this.#round };
    return Promise.reject(new StartTaskSignal(this.#scope.tool));
  }

  /** Throws `mcp-capability-missing` when the client did not declare what the question needs. */
  #require(
    need: QuestionNeed,
    asked: { request: InputQuestion["request"]; options: ServedQuestionOptions },
  ): void {
    if (need.declared) return;
    const error = capabilityMissing(this.#who, need);
    if (this.era === "modern") {
      const key = asked.options.key ?? inputKey(this.#asked);
      this.uncovered = { question: { key, request: asked.request }, error };
    }
    throw error;
  }

  /** 2026-07-28: the answer when the client has given it; otherwise the question joins this round. */
  async #ask<T>(
    request: InputQuestion["request"],
    check: (answer: unknown, key: string) => T,
    options: ServedQuestionOptions,
  ): Promise<T> {
    const answers = this.#answersSoFar();
    const index = this.#asked++;
    const key = options.key ?? inputKey(index);
    if (this.#keys.has(key)) {
      throw new JunctionError(
        "invalid-argument",
        `${this.#who} asked two questions with the key "${key}"; give each question of a call its own key.`,
      );
    }
    this.#keys.add(key);
    // A first call may carry the answer to the handler's first question (the spec's ephemeral
    // round: no requestState): it asks it first on every run, so it is the question asked.
    if (index === 0 && answers.size === 0 && this.#request.mcpReq.requestState() === undefined) {
      const first = this.#request.mcpReq.inputResponses?.[key];
      if (first !== undefined) answers.set(key, first);
    }
    if (answers.has(key)) return check(answers.get(key), key);
    this.#pending.push({ key, request });
    throw new InputRequiredSignal(this.#who);
  }

  /** The round this run ends with: the questions it left unanswered, and the state to carry. */
  round(): { questions: InputQuestion[]; state: ToolInputState } | undefined {
    if (this.#pending.length === 0) return undefined;
    const answers = [...(this.#answers ?? new Map()).entries()].map(([key, answer]) => ({ key, answer }));
    return {
      questions: this.#pending,
      state: {
        kind: "junction.tool-input",
        tool: this.#scope.tool,
        answers,
        asking: this.#pending.map(({ key }) => key),
        ...(this.#state === undefined ? {} : { state: this.#state }),
        round: globalThis.crypto.randomUUID(),
      },
    };
  }

  /** The answers the client's retry carries: the signed state's, and those to the questions it asked. */
  #answersSoFar(): Map<string, unknown> {
    if (this.#answers) return this.#answers;
    const state = this.#request.mcpReq.requestState<ToolInputState>();
    const answers = new Map<string, unknown>();
    // Without state only the first question's answer is taken (see `#ask`); others were not asked.
    if (state !== undefined) {
      // A round minted before questions could be asked together names its one question's key.
      const asking = typeof state?.asking === "string" ? [state.asking] : state?.asking;
      if (
        state?.kind !== "junction.tool-input" ||
        state.tool !== this.#scope.tool ||
        !Array.isArray(state.answers) ||
        !Array.isArray(asking) ||
        !asking.every((key) => typeof key === "string")
      ) {
        throw new JunctionError(
          "invalid-argument",
          `The requestState sent with the call to "${this.#scope.tool}" was not made for this ${this.#scope.kind ?? "tool"}'s questions: call it again without it.`,
        );
      }
      for (const { key, answer } of state.answers) answers.set(key, answer);
      for (const key of asking) {
        const latest = this.#request.mcpReq.inputResponses?.[key];
        if (latest !== undefined) answers.set(key, latest);
      }
      this.#state = state.state;
      if (typeof state.round === "string") this.#round = state.round;
    }
    this.#answers = answers;
    return answers;
  }
}

/** What a question needs of the client, and whether it declared it. */
interface QuestionNeed {
  what: string;
  declared: boolean;
  capability: string;
}

/**
 * What a question of `kind` needs of a client with `capabilities`: `sampling`, form elicitation
 * (`elicitation.form`, or `elicitation: {}` without modes), URL elicitation (`elicitation.url`) or
 * `roots`. Pure.
 */
function questionNeed(
  capabilities: ClientCapabilities,
  kind: "sampling" | "form" | "url" | "roots",
): QuestionNeed {
  const elicitation = capabilities.elicitation as { form?: object; url?: object } | undefined;
  switch (kind) {
    case "sampling":
      return { what: "sampling", declared: capabilities.sampling !== undefined, capability: "sampling" };
    case "roots":
      return { what: "its roots", declared: capabilities.roots !== undefined, capability: "roots" };
    case "url":
      return {
        what: "URL elicitation",
        declared: elicitation?.url !== undefined,
        capability: "elicitation.url",
      };
    case "form":
      // A client that declares `elicitation: {}` (no modes) supports forms.
      return {
        what: "form elicitation",
        declared:
          elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined),
        capability: "elicitation.form",
      };
  }
}

function capabilityMissing(who: string, need: QuestionNeed): JunctionError {
  return new JunctionError(
    "mcp-capability-missing",
    `${who} asked the client for ${need.what}, but the client did not declare ${need.capability} in its capabilities: it cannot be asked. Check \`clientCapabilities\` first and do without.`,
  );
}

/**
 * Throws `mcp-capability-missing` when the client did not declare what a question of `kind`
 * needs (for a question asked where no round can carry it, as in a task).
 */
export function checkQuestion(question: {
  tool: string;
  capabilities: ClientCapabilities;
  kind: "sampling" | "form" | "url" | "roots";
}): void {
  const need = questionNeed(question.capabilities, question.kind);
  if (!need.declared) throw capabilityMissing(`Tool "${question.tool}"`, need);
}

/** A client's answer to an elicitation, checked; throws naming the key when it is not one. */
export function checkElicitAnswer(
  answer: unknown,
  key: string,
  question: ElicitRequestFormParams | ElicitRequestURLParams,
): ElicitResult {
  const action = (answer as { action?: unknown } | null)?.action;
  if (action === "accept" || action === "decline" || action === "cancel") {
    const content = (answer as { content?: unknown }).content;
    if (
      content === undefined ||
      (typeof content === "object" && content !== null && !Array.isArray(content))
    ) {
      if (action === "accept" && content !== undefined) checkFormContent(content, key, question);
      return answer as ElicitResult;
    }
  }
  throw new JunctionError(
    "invalid-argument",
    `The client's answer to "${key}" is not an elicitation result: it needs \`action\` "accept", "decline" or "cancel", and \`content\` an object when present.`,
  );
}

/**
 * Accepted form content checked against the question's `requestedSchema`, as the SDK checks it
 * within a 2025-11-25 call (its default JSON Schema validator); throws naming the key and what
 * does not fit.
 */
function checkFormContent(
  content: object,
  key: string,
  question: ElicitRequestFormParams | ElicitRequestURLParams,
): void {
  if (question.mode === "url" || question.requestedSchema === undefined) return;
  const verdict = fromJsonSchema(question.requestedSchema as JsonSchemaType)["~standard"].validate(content);
  // The SDK's default validator answers at once; one that would not is refused rather than skipped.
  const issues =
    verdict instanceof Promise ? [{ message: "the validator did not answer at once" }] : verdict.issues;
  if (!issues?.length) return;
  throw new JunctionError(
    "invalid-argument",
    `The client's answer to "${key}" does not fit the question's requestedSchema (${issues.map((issue) => issue.message).join("; ")}): answer it again with content that fits.`,
  );
}

/** A client's answer to `roots/list`, checked; throws naming the key when it is not one. */
export function checkRootsAnswer(answer: unknown, key: string): ListRootsResult {
  const roots = (answer as { roots?: unknown } | null)?.roots;
  if (
    Array.isArray(roots) &&
    roots.every((root) => typeof root === "object" && root !== null && typeof root.uri === "string")
  ) {
    return answer as ListRootsResult;
  }
  throw new JunctionError(
    "invalid-argument",
    `The client's answer to "${key}" is not a roots list: it needs \`roots\`, an array of objects each with a \`uri\`.`,
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
