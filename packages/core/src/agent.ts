import {
  JunctionError,
  type Message,
  type ModelProvider,
  type Tool,
  type ToolResultPart,
  type Warning,
} from "@junction/types";
import type { AgentEvent, AgentHandle } from "./agent-events.js";
import { createAgentToolRunner } from "./agent-tool-runner.js";
import { type ApprovalPolicy, toApprovalFunction } from "./approval.js";
import { type CodeMode, type CodeModeOptions, codeModeOf, offerProgram } from "./code-mode/code-mode.js";
import { SEARCH_TOOLS } from "./core-tool.js";
import type { Durability } from "./durability.js";
import {
  type CallLedger,
  createExfiltrationGuard,
  type ExfiltrationGuard,
  type ExfiltrationGuardOptions,
  PrivateDataReads,
} from "./exfiltration-guard.js";
import { mutableMessages, ownMessages } from "./message-copy.js";
import { validateMessages } from "./message-validation.js";
import type { ResumeClaims } from "./resume-claims.js";
import { AGENT_RESUME } from "./run-resume.js";
import { closeRunState, type Resume, type RunState } from "./run-state.js";
import { keyList, type RunStateKey, type RunStateKeys } from "./run-state-signature.js";
import type { ModelSettings, StepTools } from "./run-types.js";
import { type RunSpec, type RunTools, startRun } from "./start-run.js";
import type { OutputSchema } from "./structured-output.js";
import { capabilitiesOf, contextWindowOf } from "./token-estimate.js";
import type { ToolLimits } from "./tool-list-limits.js";
import type { MCPEntry, RegisteredTool } from "./tool-registry.js";
import { ToolRegistry } from "./tool-registry.js";
import { DeferredTools, type ToolSearchOptions, type ToolSourceInfo } from "./tool-search.js";
import type { Tracer } from "./tracing.js";

/** Everything an Agent is made of; `Output` is the type of its structured answer, from `output`. */
export interface AgentConfig<Output = unknown> {
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
   * Characters of text a tool result may carry as the conversation keeps it (a safety floor);
   * beyond it the text is cut, with a note and a warning. What the model sees of a result is
   * smaller: a share of its context window (`TOOL_RESULT_WINDOW_SHARE`), head and tail, with the
   * rest readable through the `read_tool_result` tool Junction adds.
   * @default 10000000
   */
  maxToolOutputChars?: number;
  /**
   * Bounds on the tools offered to the model per request (count, and each tool's name,
   * description and schema size). What goes over is cut or left out, with a `warning` naming
   * the tool and the limit, once per tool per Agent.
   * @default `{ maxTools: 256, maxNameChars: 256, maxDescriptionChars: 10000, maxSchemaChars: 100000 }`
   */
  toolLimits?: ToolLimits;
  /**
   * Deferred tools and the tool search, for every provider: tools marked `defer` (per tool, or per
   * MCP source in `mcps`), and in the automatic mode every tool not marked `alwaysLoad` once the
   * definitions would take more than a share of the model's context window, are sent only after the
   * model finds them with `search_tools` (BM25 over names, titles, descriptions and parameter
   * names), which Junction adds while any tool is deferred. Found tools stay loaded for the
   * following steps and runs, and in a stopped run's state. The trade-off: a search costs a round
   * trip before a deferred tool's first use; every request saves the deferred definitions' tokens.
   * @default `{ mode: "auto", maxDefinitionShare: 0.1, maxResults: 5 }`
   */
  toolSearch?: ToolSearchOptions;
  /** A conversation to continue, for example one saved from `agent.messages`. */
  messages?: Message[];
  /** Sent with every model request: max tokens, temperature, tool choice, vendor options. */
  modelSettings?: ModelSettings;
  /** Called with every event of every run, in order (for logging and UIs that do not iterate handles). */
  onEvent?: (event: AgentEvent) => void;
  /**
   * How long a run waits in this process for the answer to a `tool-approval-request` before it
   * ends with the finish reason `approval-required`, its pending calls in `result.pending` and
   * the whole run in `result.state` (continue it with `resume()`, here or in another process).
   * Omitted: it waits as long as someone reads the run's events (iterates the handle, or
   * `onEvent` is set) and ends at once when nobody does, so `await agent.send(…).final` never
   * hangs on a question nobody can see.
   */
  approvalTimeoutMs?: number;
  /** Receives spans for runs, model calls and tool calls; shaped so an OpenTelemetry tracer fits behind it. */
  tracer?: Tracer;
  /**
   * Every run ends with a structured answer matching this schema (a zod schema, or a JSON Schema
   * with an object root): `final.output` holds it, parsed and validated, and a streamed run sends
   * `output-delta` events with the partial object. Tools stay usable on every step before the
   * answer. How the format reaches the vendor follows the provider's `structuredOutput`
   * capability. A `send()` can set its own.
   * @example `output: z.object({ city: z.string(), temperatureC: z.number() })`
   */
  output?: OutputSchema<Output>;
  /**
   * The application secret that signs every run state this Agent stops with (`final.state`) and
   * verifies every state it resumes: one `{ id, secret }`, or a list for rotation (the first
   * signs, any verifies). Set, `resume()` refuses (`run-state-invalid`) a state that is unsigned,
   * signed with an unknown key, or changed after it was signed, so a stored state cannot bring a
   * forged result or conversation into the run. Unset, a state is not verified; a resume still
   * decides every unfinished call again, so no call runs that the policy or a person did not
   * allow, but a finished call's result and the conversation in the state are taken as stored.
   * @example `runStateKey: { id: "2025-06", secret: process.env.RUN_STATE_SECRET! }`
   */
  runStateKey?: RunStateKeys;
  /**
   * Turns the model gets to fix an answer that does not match `output` (the validation errors go
   * back to it); after them the run rejects with an `OutputError` (`output-invalid`) carrying the raw text.
   * @default 1
   */
  outputRepairTurns?: number;
  /**
   * Code mode: the model may also write a short program that calls tools as functions in a
   * sandbox (`run_program`), or in its vendor's runtime (`sandbox: "provider"`), so fan-out work
   * takes one step and only the program's answer enters the conversation. Every call inside a
   * program is gated, journaled and reported like a direct one; hybrid per tool (`tools`), off
   * below `minTools` callable tools. See {@link CodeModeOptions}.
   * @example `codeMode: { sandbox: quickjsSandbox() }`
   */
  codeMode?: CodeModeOptions;
  /**
   * Where `resume()` claims a stopped state, so each state resumes once and its approved calls
   * run once, however many times (or in however many processes) it is resumed: a second resume
   * of the same state is refused with `run-state-resumed`. Share one store between every process
   * that may resume the same states (`fileResumeClaims(dir)` from `@junction/core/node`, or your
   * own with an atomic insert).
   * @default this process's memory
   */
  resumeClaims?: ResumeClaims;
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
export class Agent<Output = unknown> {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system?: string;
  readonly maxSteps: number;
  readonly toolConcurrency: number;
  readonly #config: AgentConfig<Output>;
  readonly #registry: ToolRegistry;
  #history: Message[];
  #queue: Promise<unknown> = Promise.resolve();
  /** Runs started (queued or going) whose `final` has not settled. */
  #running = 0;
  readonly #warned = new WeakSet<object>();
  readonly #guard: ExfiltrationGuard;
  /** Which calls never ran, and which read private data, for the exfiltration guard. */
  readonly #ledger: CallLedger = { notRun: new Set(), readPrivate: new Set() };
  #closed = false;
  /** The run that stopped for approvals, until it is resumed or the conversation moves on. */
  #stopped: RunState | undefined;
  /** Deferred tools and those the model found. */
  readonly #deferred: DeferredTools;
  /** The keys that sign and verify run states (`runStateKey`). */
  readonly #keys: RunStateKey[];
  #warnedUnverified = false;
  /** What cut and oversized parts of this conversation were reported against: a new one per conversation. */
  #reportKey: object = {};
  readonly #codeMode: CodeMode | undefined;

  constructor(config: AgentConfig<Output>) {
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
    // Not the caller's array: the Agent keeps its own copy of the conversation, and only that.
    const { messages, ...settings } = config;
    this.#config = settings;
    this.#registry = new ToolRegistry(config.toolLimits);
    this.#deferred = new DeferredTools(config.toolSearch);
    this.#guard = createExfiltrationGuard(config.exfiltrationGuard);
    this.#keys = keyList(config.runStateKey);
    this.#codeMode =
      config.codeMode !== undefined
        ? codeModeOf(config.codeMode, {
            provider: this.provider.name,
            model: this.model,
            runsPrograms: capabilitiesOf(this.provider, this.model).programmaticToolCalling === true,
          })
        : undefined;
    this.#history = messages ? validateMessages(ownMessages(messages)) : [];
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

  /**
   * The conversation so far, as plain JSON: `JSON.stringify` it to save it. A copy of its own
   * each time, which the caller may change. During a run, the conversation the run started from
   * (with the message sent); once the run ends, however it ends, the run's whole conversation:
   * what it committed before an abort or a failure too.
   */
  get messages(): Message[] {
    return mutableMessages(this.#history);
  }

  /**
   * Replaces the conversation, for example with one restored from JSON. It is checked first, and
   * copied: changing `messages` afterwards does not change the Agent's. Only between runs: while a
   * `send()` or `resume()` is queued or going (its `final` has not settled) it throws
   * `agent-busy`, since the run goes on with the conversation it started from and would replace
   * yours when it ends. Await the run's `final` (or abort it) first; `final` settles before your
   * `await` returns, so the next line may set it.
   */
  set messages(messages: Message[]) {
    if (this.#running > 0) {
      throw new JunctionError(
        "agent-busy",
        "agent.messages cannot be replaced while a run of this Agent is going (a send() or resume() whose `final` has not settled): " +
          "await its `final` first, or abort it with the `signal` you gave it.",
      );
    }
    this.#history = validateMessages(ownMessages(messages));
    this.#reportKey = {};
  }

  /**
   * Sends a user message and runs the tool loop. Returns at once; the run starts right away
   * (after any run still in progress on this agent) and MCP tools are listed as part of it. A
   * run that stopped for approvals and was not resumed is closed first: its pending calls are
   * denied ("the user went on without answering"), its finished calls keep their results.
   */
  send<O = Output>(input: string | ToolResultPart[], options: SendOptions<O> = {}): AgentHandle<O> {
    return this.#start(options as SendOptions, () => {
      this.#checkOpen("send");
      if (typeof input !== "string" && !Array.isArray(input)) {
        throw new JunctionError(
          "invalid-argument",
          "send(): input must be a string or an array of content parts.",
        );
      }
      if (this.#stopped) {
        this.#history = ownMessages(closeRunState(this.#stopped, "the user went on without answering"));
        this.#stopped = undefined;
      }
      // Junction's own, like the rest of the history: the run's conversation is made of it.
      this.#history.push(...ownMessages<Message[]>([{ role: "user", content: input }]));
      return {};
    }) as AgentHandle<O>;
  }

  /**
   * Continues a run that stopped with `approval-required`: `resume.state` is its `state` (as
   * `final.state` gave it, or parsed back from JSON), `resume.decisions` a decision per pending
   * call id (the same {@link Resume} value `stream({ resume })` takes). Works in any process,
   * with a new Agent made with the same tools and MCP servers. Finished calls are not run again
   * and the model is not asked again for the step it answered. Fails closed: a call whose tool is
   * gone, changed or comes from another server now, or whose arguments were edited, is denied
   * with a reason the model sees. Every call of the stopped step without a finished result is
   * decided again by the policy (and the exfiltration guard): a stored verdict is never taken as
   * given, and a call that needs a person runs only if it was pending and is decided here. A
   * pending call without a decision stops the run again (`approval-required`) unless it is
   * answered in process. A malformed state, or one of an unknown version, is refused
   * (`run-state-invalid`) naming what is wrong; so is, with `runStateKey`, a state that is
   * unsigned or changed since it was signed. The former form `resume(state, decisions)` is
   * refused (`invalid-argument`) with the form to write instead.
   *
   * @example
   * ```ts
   * const first = await agent.send("Tidy my notes").final;
   * if (first.finishReason === "approval-required") {
   *   await db.save(JSON.stringify(first.state));
   *   // later, anywhere:
   *   const state = JSON.parse(await db.load());
   *   const { text } = await agent.resume({ state, decisions: { [state.pending[0].id]: "approve" } }).final;
   * }
   * ```
   */
  resume(resume: Resume, options: SendOptions<Output> = {}): AgentHandle<Output> {
    return this.#start(options, () => {
      this.#checkOpen("resume");
      return { resume: { value: resume, caller: AGENT_RESUME } };
    }) as AgentHandle<Output>;
  }

  /**
   * Queues a run of this Agent: after the run in progress, `begin` does what the method does to
   * the Agent (and may throw: the run fails), then the run's spec is built from the Agent as it is.
   */
  #start(options: SendOptions<unknown>, begin: () => Pick<RunSpec, "resume">): AgentHandle {
    const { handle, conversation } = startRun(() => this.#spec(options, begin()), {
      after: this.#queue,
      ...(this.#config.onEvent ? { onEvent: this.#config.onEvent } : {}),
    });
    // The run's conversation, however it ended, is the Agent's from then on (before `final` settles).
    conversation.then((messages) => {
      if (messages) this.#history = messages;
    });
    this.#running++;
    const ended = () => {
      this.#running--;
      this.#deferred.endRun();
    };
    // The queue only orders runs: a failed run is reported through its own handle, and must not
    // fail the next one. Nor does it keep the last result (and its messages) alive, nor the run.
    // Registered before the caller can await `final`, so the Agent is free again when their
    // `await` returns.
    this.#queue = handle.final.then(ended, ended);
    return handle;
  }

  #checkOpen(method: string): void {
    if (!this.#closed) return;
    throw new JunctionError(
      "invalid-argument",
      `${method}(): this Agent was closed with close(); make a new Agent (with \`messages: agent.messages\`) to go on.`,
    );
  }

  /** One run of this Agent as a spec: its conversation, its tools, its policy, its limits, its hooks. */
  #spec(options: SendOptions<unknown>, run: Pick<RunSpec, "resume">): RunSpec {
    const config = this.#config;
    if (run.resume) this.#reportKey = {};
    // One per run: its steps see the same conversation, longer by each step's messages.
    const privateData = new PrivateDataReads(this.#ledger);
    const tools: RunTools<RegisteredTool> = {
      prepareStep: (_step, step) => this.#prepareStep(step, privateData),
      runner: createAgentToolRunner({
        ...(config.approval ? { approval: toApprovalFunction(config.approval) } : {}),
        guard: this.#guard,
        ledger: this.#ledger,
        warnOnce: (key, warning, warn) => {
          if (this.#warned.has(key)) return;
          this.#warned.add(key);
          warn(warning);
        },
        onDeferredCall: (name) => this.#deferred.called(name),
      }),
      maxTools: this.#registry.maxTools,
    };
    return {
      provider: this.provider,
      model: this.model,
      ...(this.system !== undefined ? { system: this.system } : {}),
      history: run.resume ? [] : this.#history,
      ...run,
      tools,
      limits: {
        maxSteps: this.maxSteps,
        toolConcurrency: this.toolConcurrency,
        ...(config.maxToolOutputChars !== undefined ? { maxToolOutputChars: config.maxToolOutputChars } : {}),
      },
      ...(config.modelSettings ? { settings: config.modelSettings } : {}),
      output: {
        schema: options.output ?? config.output,
        repairTurns: options.outputRepairTurns ?? config.outputRepairTurns,
      },
      ...(options.durability ? { durability: options.durability } : {}),
      keys: this.#keys,
      ...(config.resumeClaims ? { resumeClaims: config.resumeClaims } : {}),
      ...((options.approvalTimeoutMs ?? config.approvalTimeoutMs) !== undefined
        ? { approvalTimeoutMs: options.approvalTimeoutMs ?? config.approvalTimeoutMs }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(config.tracer ? { tracer: config.tracer } : {}),
      reportKey: this.#reportKey,
      hooks: {
        onResume: (state, warnings) => this.#resumed(state, warnings),
        ...(options.onRunState ? { onRunState: options.onRunState } : {}),
        describe: () => ({
          sources: this.#registry.sourceDescriptors,
          ledger: { notRun: [...this.#ledger.notRun], readPrivate: [...this.#ledger.readPrivate] },
          loadedTools: [...this.#deferred.loaded],
        }),
        onResult: (result) => {
          this.#stopped = result.state;
        },
      },
    };
  }

  /** A resumed state taken in: what the Agent keeps of it, and the warnings about it to report. */
  #resumed(state: RunState, warnings: Warning[]): Warning[] {
    this.#stopped = undefined;
    for (const id of state.ledger.notRun) this.#ledger.notRun.add(id);
    for (const id of state.ledger.readPrivate) this.#ledger.readPrivate.add(id);
    this.#deferred.restore(state.loadedTools ?? []);
    // Said once per Agent: every resume of a signed state would say the same.
    const kept = warnings.filter(
      (warning) => warning.code !== "run-state-unverified" || !this.#warnedUnverified,
    );
    if (kept.some((warning) => warning.code === "run-state-unverified")) this.#warnedUnverified = true;
    return kept;
  }

  /** One step's tools: the registry's, those the tool search offers, and the private data the conversation holds. */
  async #prepareStep(
    step: { conversation: readonly Message[]; warn: (warning: Warning) => void },
    privateData: PrivateDataReads,
  ): Promise<StepTools<RegisteredTool>> {
    const { warn } = step;
    const resolved = await this.#registry.resolve(warn);
    const definitions = this.#deferred.offer({
      definitions: this.#registry.definitions,
      deferralOf: (name) => resolved.get(name)?.deferral ?? {},
      sourceOf: (name) => sourceInfoOf(resolved.get(name)),
      labelOf: (name) => resolved.get(name)?.source,
      maxTools: this.#registry.maxTools,
      contextWindow: contextWindowOf(this.provider, this.model),
      model: this.model,
      nativeSearch: capabilitiesOf(this.provider, this.model).nativeToolSearch === true,
      warn,
    });
    // A tool neither offered nor searchable (over maxTools with the search off) cannot be called.
    const unreachable = this.#deferred.unreachable;
    const tools =
      unreachable.size === 0 ? resolved : new Map([...resolved].filter(([name]) => !unreachable.has(name)));
    const coreTools = this.#deferred.coreTools();
    const search = coreTools.find((tool) => tool.definition.name === SEARCH_TOOLS);
    const offered = this.#codeMode
      ? offerProgram(this.#codeMode, { definitions, tools, ...(search ? { search } : {}) })
      : { definitions };
    return {
      definitions: offered.definitions,
      tools,
      // What the model has seen before this step: a call's arguments can carry only that.
      privateDataFrom: privateData.of(step.conversation, tools),
      coreTools: [...coreTools, ...(offered.program ? [offered.program] : [])],
    };
  }
}

/** Options of one `send()` or `resume()`; `Output` is the type of the structured answer. */
export interface SendOptions<Output = unknown> {
  /** Aborts the run: the model stream and every call in flight stop. */
  signal?: AbortSignal;
  /**
   * Where the run's model and tool calls are journaled and its approvals wait: a durable
   * engine's port (`@junction/dbos`, `@junction/restate`). Omitted: in memory, and a run that
   * stops for approvals returns its `state`.
   */
  durability?: Durability;
  /** This run's structured answer (see `AgentConfig.output`), instead of the Agent's. */
  output?: OutputSchema<Output>;
  /** This run's repair turns (see `AgentConfig.outputRepairTurns`). */
  outputRepairTurns?: number;
  /**
   * Records the run as it goes: called with the run's state (signed with `runStateKey`) each
   * time a tool call finishes, and the run goes on once it settles. Save it where you save a
   * stopped run's `final.state`: after a crash or a failed model request, `resume({ state: saved })`
   * continues without running a finished call again. In memory only (a durable engine's port
   * journals every call itself).
   */
  onRunState?: (state: RunState) => void | Promise<void>;
  /**
   * This run's `approvalTimeoutMs` (see `AgentConfig.approvalTimeoutMs`), instead of the Agent's:
   * `0` ends the run with `approval-required` and its `state` as soon as a call needs a person,
   * even while its events are read (what a server that asks the person elsewhere wants).
   */
  approvalTimeoutMs?: number;
}

/** What the tool search knows of a tool's source: its short name, description and instructions. */
function sourceInfoOf(registered: RegisteredTool | undefined): ToolSourceInfo | undefined {
  if (registered?.sourceName === undefined) return undefined;
  const description: unknown = registered.origin?.description;
  const instructions: unknown = registered.origin?.instructions;
  return {
    name: registered.sourceName,
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof instructions === "string" ? { instructions } : {}),
  };
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
