import { JunctionError, type ToolProgress } from "@junction/types";
import type {
  AuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "@modelcontextprotocol/server";
import type { TaskQuestionMethod } from "./pass-through.js";
import {
  checkElicitAnswer,
  checkQuestion,
  checkRootsAnswer,
  checkSamplingAnswer,
  type InputAnswer,
  inputKey,
  type ServedQuestionOptions,
  type ServedToolContext,
} from "./served-context.js";
import type { TaskClient } from "./task-options.js";

/** Asks the task's client something (an input request of the task); resolves with its answer. */
export type TaskQuestion = (question: {
  method: TaskQuestionMethod;
  params: Record<string, unknown>;
  /** The input-request key (unique within the task). @default `upstream:<n>` */
  key?: string | undefined;
}) => Promise<unknown>;

/** What a run is given besides its input. */
export interface TaskRunOptions {
  signal: AbortSignal;
  onProgress: (progress: ToolProgress) => void;
  ask: TaskQuestion;
  /** The client that created the task, as far as it is known in this process. */
  client: TaskClient | undefined;
}

/** What a tool's task asks with: its run's options, and the answers its call gathered before the task. */
export interface TaskCallParts extends TaskRunOptions {
  tool: string;
  /** Answers to the tool's first questions, in order (asked as `input_required` rounds before the task). */
  answers?: InputAnswer[] | undefined;
}

/**
 * What `servedContext()` gives a tool running as a task: no request is open while it runs, so
 * its questions (`elicit`, `sample`, `roots`) become the task's input requests (answered with
 * `tasks/update` on 2026-07-28, asked through `tasks/result` on 2025-11-25), and its progress
 * and logs the task's status message.
 */
export class TaskServedCall implements ServedToolContext {
  readonly era: ServedToolContext["era"];
  readonly signal: AbortSignal;
  readonly clientCapabilities: ClientCapabilities;
  readonly authInfo?: AuthInfo;
  readonly #tool: string;
  readonly #options: TaskRunOptions;
  #asked = 0;
  readonly #keys = new Set<string>();

  readonly #answers: InputAnswer[];
  /** The task runs once, start to end: what the tool keeps lives as long as the run. */
  #state: unknown;

  constructor(parts: TaskCallParts) {
    this.#answers = parts.answers ?? [];
    this.#tool = parts.tool;
    this.#options = parts;
    this.signal = parts.signal;
    this.era = parts.client?.era ?? "modern";
    this.clientCapabilities = parts.client?.capabilities ?? {};
    if (parts.client?.authInfo) this.authInfo = parts.client.authInfo;
  }

  get state(): unknown {
    return this.#state;
  }

  setState(value: unknown): void {
    this.#state = value;
  }

  /** A task's result is fetched later, on a stream of its own: nothing to close. */
  closeStream(): void {}

  /** In a task the call already is one: resolves at once. */
  startTask(): Promise<void> {
    return Promise.resolve();
  }

  /** A task has no request to send `notifications/message` on: a log becomes its status message. */
  log(_level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const text = typeof data === "string" ? data : JSON.stringify(data);
    this.#options.onProgress({ progress: 0, message: logger ? `${logger}: ${text}` : text });
    return Promise.resolve();
  }

  progress(report: { progress: number; total?: number; message?: string }): Promise<void> {
    this.#options.onProgress(report);
    return Promise.resolve();
  }

  async sample(
    params: CreateMessageRequestParams,
    options: ServedQuestionOptions = {},
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const key = this.#key(options);
    const gathered = this.#gathered(key);
    if (gathered !== undefined) return checkSamplingAnswer(gathered, key);
    checkQuestion({ tool: this.#tool, capabilities: this.clientCapabilities, kind: "sampling" });
    const answer = await this.#options.ask({
      method: "sampling/createMessage",
      params: params as unknown as Record<string, unknown>,
      key,
    });
    return checkSamplingAnswer(answer, key);
  }

  async elicit(
    params: ElicitRequestFormParams | ElicitRequestURLParams,
    options: ServedQuestionOptions = {},
  ): Promise<ElicitResult> {
    const key = this.#key(options);
    const gathered = this.#gathered(key);
    if (gathered !== undefined) return checkElicitAnswer(gathered, key, params);
    checkQuestion({
      tool: this.#tool,
      capabilities: this.clientCapabilities,
      kind: params.mode === "url" ? "url" : "form",
    });
    const answer = await this.#options.ask({
      method: "elicitation/create",
      params: params as unknown as Record<string, unknown>,
      key,
    });
    return checkElicitAnswer(answer, key, params);
  }

  async roots(options: ServedQuestionOptions = {}): Promise<ListRootsResult> {
    const key = this.#key(options);
    const gathered = this.#gathered(key);
    if (gathered !== undefined) return checkRootsAnswer(gathered, key);
    checkQuestion({ tool: this.#tool, capabilities: this.clientCapabilities, kind: "roots" });
    const answer = await this.#options.ask({ method: "roots/list", params: {}, key });
    return checkRootsAnswer(answer, key);
  }

  /** The answer the call gathered before the task to the question just asked (the `#asked`-th), if any. */
  #gathered(key: string): unknown {
    const answered = this.#answers[this.#asked - 1];
    if (answered === undefined) return undefined;
    if (answered.key !== key) {
      throw new JunctionError(
        "invalid-argument",
        `Tool "${this.#tool}" asked "${key}" where its call before the task asked "${answered.key}": a tool runs again in its task and must ask its questions in the same order.`,
      );
    }
    return answered.answer;
  }

  /** The question's input-request key: the one given, else `junction.input.N`; unique within the task. */
  #key(options: ServedQuestionOptions): string {
    const key = options.key ?? inputKey(this.#asked);
    this.#asked += 1;
    if (this.#keys.has(key)) {
      throw new JunctionError(
        "invalid-argument",
        `Tool "${this.#tool}" asked two questions with the key "${key}"; give each question of a call its own key.`,
      );
    }
    this.#keys.add(key);
    return key;
  }
}
