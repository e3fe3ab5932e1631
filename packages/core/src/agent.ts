import {
  JunctionError,
  type Message,
  type ModelProvider,
  type Tool,
  type ToolResultPart,
  type Warning,
} from "@junction/types";
import type { AgentEvent, AgentHandle, AgentResult } from "./agent-events.js";
import { createAgentToolExecutor } from "./agent-tool-executor.js";
import { type ApprovalPolicy, toApprovalFunction } from "./approval.js";
import { EventChannel } from "./event-channel.js";
import {
  type CallLedger,
  createExfiltrationGuard,
  type ExfiltrationGuard,
  type ExfiltrationGuardOptions,
  privateDataReads,
} from "./exfiltration-guard.js";
import { validateMessages } from "./message-validation.js";
import { type ModelSettings, runLoop } from "./run-loop.js";
import type { MCPEntry, RegisteredTool } from "./tool-registry.js";
import { ToolRegistry } from "./tool-registry.js";
import type { Tracer } from "./tracing.js";

/** Everything an Agent is made of. */
export interface AgentConfig {
  /** The model vendor, for example `anthropic({ apiKey })`. */
  provider: ModelProvider;
  /** The vendor's model id. */
  model: string;
  /** The system prompt. */
  system?: string;
  /** Local tools, for example made with `tool()`. */
  tools?: Tool[];
  /** MCP connections (or any `ToolSource`), each optionally with a name prefix. Listed lazily on the first `send()`. */
  mcps?: MCPEntry[];
  /**
   * Decides per call whether a tool runs. Omitted, every tool runs (and nothing ever asks, not
   * even the exfiltration guard: a `warning` says when it would have).
   */
  approval?: ApprovalPolicy;
  /**
   * Open-world tools and MCP connections exempt from the exfiltration guard. With any
   * `approval` policy, once the conversation holds results of a closed-world tool
   * (`openWorldHint: false`), a call to an open-world tool asks a person even if the policy
   * approves it (denials stay denials). Local tools count by their own annotations, like MCP
   * tools.
   * @example `{ trustTools: ["slack_post_to_me"], trustSources: [companySearch] }`
   */
  exfiltrationGuard?: ExfiltrationGuardOptions;
  /**
   * Model turns per `send()`.
   * @default 10
   */
  maxSteps?: number;
  /**
   * Tool calls of one step running at the same time.
   * @default 8
   */
  toolConcurrency?: number;
  /**
   * Characters of text a tool result may carry; beyond it the text is cut, with a note to the model and a warning.
   * @default 100000
   */
  maxToolOutputChars?: number;
  /** A conversation to continue, for example one saved from `agent.messages`. */
  messages?: Message[];
  /** Sent with every model request: max tokens, temperature, tool choice, vendor options. */
  modelSettings?: ModelSettings;
  /** Called with every event of every run, in order (for logging and UIs that do not iterate handles). */
  onEvent?: (event: AgentEvent) => void;
  /** Receives spans for runs, model calls and tool calls; shaped so an OpenTelemetry tracer fits behind it. */
  tracer?: Tracer;
}

/**
 * Runs the tool loop over local tools and MCP connections with any provider, and keeps the
 * conversation across `send()` calls.
 *
 * @example
 * ```ts
 * const agent = new Agent({ provider: anthropic(), model: "claude-sonnet-5-5", tools: [add], mcps: [fs] });
 * const handle = agent.send("What is 2 + 3?");
 * for await (const event of handle) if (event.type === "text-delta") process.stdout.write(event.text);
 * const { text, usage } = await handle.final;
 * ```
 */
export class Agent {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system?: string;
  readonly maxSteps: number;
  readonly toolConcurrency: number;
  readonly #config: AgentConfig;
  readonly #registry = new ToolRegistry();
  #history: Message[];
  #queue: Promise<unknown> = Promise.resolve();
  readonly #warned = new WeakSet<object>();
  readonly #guard: ExfiltrationGuard;
  /** Which calls never ran, and which read private data, for the exfiltration guard. */
  readonly #ledger: CallLedger = { notRun: new Set(), readPrivate: new Set() };
  #closed = false;

  constructor(config: AgentConfig) {
    if (!config || typeof config.provider?.stream !== "function") {
      throw new JunctionError("invalid-argument", "new Agent(): `provider` must be a ModelProvider.");
    }
    if (typeof config.model !== "string" || config.model.length === 0) {
      throw new JunctionError("invalid-argument", "new Agent(): `model` must be a non-empty string.");
    }
    this.provider = config.provider;
    this.model = config.model;
    if (config.system !== undefined) this.system = config.system;
    this.maxSteps = positiveInteger(config.maxSteps, 10, "maxSteps");
    this.toolConcurrency = positiveInteger(config.toolConcurrency, 8, "toolConcurrency");
    this.#config = config;
    this.#guard = createExfiltrationGuard(config.exfiltrationGuard);
    this.#history = config.messages ? validateMessages(structuredClone(config.messages)) : [];
    for (const t of config.tools ?? []) this.addTool(t);
    for (const m of config.mcps ?? []) this.addMcp(m);
  }

  /** Adds a local tool. Name collisions are reported when the next run resolves its tools. */
  addTool(tool: Tool): void {
    this.#registry.addTool(tool);
  }

  /** Adds local tools. */
  addTools(tools: Tool[]): void {
    for (const t of tools) this.addTool(t);
  }

  /** Adds an MCP connection (or any `ToolSource`), optionally `{ mcp, prefix }`. It is listed on the next run. */
  addMcp(mcp: MCPEntry): void {
    this.#registry.addSource(mcp);
  }

  /** Adds several MCP connections. */
  addMcps(mcps: MCPEntry[]): void {
    for (const m of mcps) this.addMcp(m);
  }

  /**
   * Stops listening to the MCP sources' tool-list changes (each source keeps one listener per
   * Agent otherwise, for as long as the source lives). Call it when the agent is done, for
   * example after each turn where an app makes one Agent per turn. Idempotent; a run in progress
   * finishes with the tools it has; a later `send()` fails (`invalid-argument`).
   */
  close(): void {
    this.#closed = true;
    this.#registry.close();
  }

  /** The conversation so far, as plain JSON: `JSON.stringify` it to save it. */
  get messages(): Message[] {
    return structuredClone(this.#history);
  }

  /** Replaces the conversation, for example with one restored from JSON. It is checked first. */
  set messages(messages: Message[]) {
    this.#history = validateMessages(structuredClone(messages));
  }

  /**
   * Sends a user message and runs the tool loop. Returns at once; the run starts right away
   * (after any run still in progress on this agent) and MCP tools are listed as part of it.
   */
  send(input: string | ToolResultPart[], options: { signal?: AbortSignal } = {}): AgentHandle {
    const channel = new EventChannel<AgentEvent>();
    const emit = (event: AgentEvent) => {
      channel.push(event);
      if (this.#config.onEvent) {
        try {
          this.#config.onEvent(event);
        } catch {
          // An observer's failure must not change the run.
        }
      }
    };
    const final = this.#queue.then(() => this.#run(input, options.signal, emit));
    // The queue only orders runs: a failed run is reported through its own handle, and must not fail the next
    // one.
    this.#queue = final.catch(() => undefined);
    final.then(
      () => channel.close(),
      () => channel.close(),
    );
    // The handle's events report a failure too; reading only events must not leave an unhandled rejection.
    final.catch(() => undefined);
    return { final, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
  }

  async #run(
    input: string | ToolResultPart[],
    signal: AbortSignal | undefined,
    emit: (event: AgentEvent) => void,
  ): Promise<AgentResult> {
    if (this.#closed) {
      const error = new JunctionError(
        "invalid-argument",
        "send(): this Agent was closed with close(); make a new Agent (with `messages: agent.messages`) to go on.",
      );
      emit({ type: "error", error });
      throw error;
    }
    if (typeof input !== "string" && !Array.isArray(input)) {
      const error = new JunctionError(
        "invalid-argument",
        "send(): input must be a string or an array of content parts.",
      );
      emit({ type: "error", error });
      throw error;
    }
    this.#history.push({ role: "user", content: structuredClone(input) });
    let tools = new Map<string, RegisteredTool>();
    let privateDataFrom: string[] = [];
    let emitWarning: (warning: Warning) => void = () => undefined;
    const executeTool = createAgentToolExecutor({
      tools: () => tools,
      ...(this.#config.approval ? { approval: toApprovalFunction(this.#config.approval) } : {}),
      guard: this.#guard,
      privateDataFrom: () => privateDataFrom,
      ledger: this.#ledger,
      warnOnce: (key, warning) => {
        if (this.#warned.has(key)) return;
        this.#warned.add(key);
        emitWarning(warning);
      },
      warn: (warning) => emitWarning(warning),
    });
    return runLoop({
      provider: this.provider,
      model: this.model,
      ...(this.system !== undefined ? { system: this.system } : {}),
      history: this.#history,
      prepareStep: async (_step, warn) => {
        emitWarning = warn;
        tools = await this.#registry.resolve(warn);
        // What the model has seen before this step: a call's arguments can carry only that.
        privateDataFrom = privateDataReads(this.#history, tools, this.#ledger);
        return this.#registry.definitions;
      },
      executeTool,
      maxSteps: this.maxSteps,
      toolConcurrency: this.toolConcurrency,
      ...(this.#config.maxToolOutputChars !== undefined
        ? { maxToolOutputChars: this.#config.maxToolOutputChars }
        : {}),
      ...(this.#config.modelSettings ? { settings: this.#config.modelSettings } : {}),
      ...(signal ? { signal } : {}),
      ...(this.#config.tracer ? { tracer: this.#config.tracer } : {}),
      emit,
    });
  }
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY && name === "toolConcurrency") return value;
  if (!Number.isInteger(value) || value < 1) {
    throw new JunctionError(
      "invalid-argument",
      `new Agent(): \`${name}\` must be a positive integer, got ${value}.`,
    );
  }
  return value;
}
