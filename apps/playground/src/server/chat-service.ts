import { randomUUID } from "node:crypto";
import {
  Agent,
  type AgentConfig,
  type AgentEvent,
  type AgentHandle,
  annotationPolicy,
  closeRunState,
  type ResumeDecision,
  RUN_PROGRAM,
  type RunState,
  type RunStateKey,
  runStateOf,
  type SendOptions,
  verifyRunState,
} from "@junction/core";
import { quickjsSandbox } from "@junction/sandbox-quickjs";
import {
  createAbortError,
  errorMessage,
  JunctionError,
  type Message,
  type Sandbox,
  type ToolCallPart,
} from "@junction/types";
import type { ChatEvent } from "../shared/api-types.js";
import { foldChatEvent } from "../shared/fold-chat-events.js";
import type { TraceStore } from "../trace/trace-store.js";
import {
  type CodeModeSetting,
  codeModeConfig,
  isCodeModeSetting,
  providerModeRefusal,
  resumedCodeMode,
} from "./code-mode-setting.js";
import type { DataDir } from "./data-dir.js";
import { modelVisibleTools } from "./mcp-apps.js";
import {
  capDepth,
  capToolResult,
  MAXIMUM_PROGRAM_CALL_RESULT_BYTES,
  MAXIMUM_RESULT_BYTES,
} from "./output-limits.js";
import { PartialInputs } from "./partial-input.js";
import type { ProviderCatalog } from "./provider-catalog.js";
import type { PlaygroundEmbedder, ProviderInfo } from "./providers.js";
import type { ServerRegistry } from "./server-registry.js";
import type { Store, StoredConversation, TranscriptItem } from "./store.js";

/** What a chat turn streams to the page (and the CLI): the shared contract. */
export type { ChatEvent } from "../shared/api-types.js";

interface Run {
  controller: AbortController;
  emit(event: ChatEvent): void;
}

const systemPrompt = (sandbox: string) =>
  "You are the assistant of the Junction playground. You can use the tools of the connected MCP servers; " +
  `tool names start with their server's name. The filesystem server may only touch ${sandbox}. ` +
  "Be brief, and say which tools you used.";

/**
 * Ends an Agent's subscriptions once its turn is over: each turn makes a new Agent, and each
 * Agent would otherwise keep one tools-changed listener on every server for the server's life.
 */
function closeAgent(agent: Agent | undefined): void {
  try {
    agent?.close();
  } catch {
    // Closing is cleanup: a failure must not keep the conversation busy.
  }
}

/** A person's answer to one pending approval. */
export interface ApprovalAnswer {
  approve: boolean;
  /** Why a denied call was denied, for the model. @default "The user denied this call." */
  reason?: string;
  /** Aborts the continued run (the page went away). */
  signal?: AbortSignal;
}

/** One answer's hold on a pending approval, from {@link ChatService.claimApproval}. */
export interface ApprovalClaim {
  /** Continues the stopped run with this answer, emitting its events like a turn; releases the claim when the run ends. */
  answer(answer: ApprovalAnswer, emit: (event: ChatEvent) => void): Promise<void>;
}

/** Chat: provider choice, one Agent run per turn, approvals, stop, and persistence of every turn. */
export class ChatService {
  readonly #store: Store;
  readonly #registry: ServerRegistry;
  readonly #dataDir: DataDir;
  readonly #providers: ProviderCatalog;
  readonly #runs = new Map<string, Run>();
  readonly #busy = new Set<string>();
  readonly #traces: TraceStore | undefined;
  readonly #keys: RunStateKey[];
  /** Where code mode's programs run: one QuickJS sandbox for every run, made on first use. */
  #sandbox: Sandbox | undefined;

  constructor(options: {
    store: Store;
    registry: ServerRegistry;
    dataDir: DataDir;
    /** Where each run's trace goes, for the page's waterfall. */
    traces?: TraceStore;
    /** The providers a turn may use (its settings, keys and what each model can do). */
    providers: ProviderCatalog;
    /**
     * The keys that sign every run state the playground stores and verify every one it resumes
     * (the data folder's `run-state-key.json`): the first signs, any verifies.
     */
    runStateKeys: RunStateKey[];
  }) {
    if (options.runStateKeys.length === 0) {
      throw new JunctionError("invalid-argument", "The chat service needs at least one run-state key.");
    }
    this.#keys = options.runStateKeys;
    this.#traces = options.traces;
    this.#store = options.store;
    this.#registry = options.registry;
    this.#dataDir = options.dataDir;
    this.#providers = options.providers;
  }

  /**
   * A new conversation with the provider and model asked for (the first available provider and
   * its default model otherwise) and a code mode (`off` by default). Code mode `provider` on a
   * model that does not run programs is refused (`invalid-argument`), saying what to choose.
   */
  async createConversation(input: Record<string, unknown>): Promise<StoredConversation> {
    const providers = this.#providers.providers();
    const provider = providers.find((candidate) => candidate.id === input.provider) ?? providers[0]!;
    const model = typeof input.model === "string" && input.model ? input.model : provider.defaultModel;
    const codeMode = input.codeMode === undefined ? "off" : input.codeMode;
    if (!isCodeModeSetting(codeMode)) {
      throw new JunctionError(
        "invalid-argument",
        `codeMode must be "off", "sandbox" or "provider", not ${JSON.stringify(codeMode)}.`,
      );
    }
    if (codeMode === "provider") await this.#providers.checkProviderMode(provider.id, model);
    return this.#store.createConversation({
      title: "New conversation",
      provider: provider.id,
      model,
      codeMode,
    });
  }

  /**
   * Sets the code mode of the conversation's next runs: `off`; `sandbox`, where the model may write
   * a program (core's `run_program`) that calls the tools, run in a QuickJS sandbox; or `provider`,
   * where the vendor runs the model's programs in its own runtime. Each call a program makes is
   * decided by the same approval policy. `provider` and `model` (the ones the next turn uses) are
   * kept as the conversation's when given, and `provider` mode is checked against them: a model
   * that does not run programs is refused (`invalid-argument`), saying what to choose instead. A
   * stopped run resumes in the mode it ran in whatever this says, so its answer can still finish it.
   */
  async setCodeMode(
    conversationId: string,
    choice: { mode: CodeModeSetting; provider?: string; model?: string },
  ): Promise<StoredConversation> {
    const conversation = this.#store.getConversation(conversationId);
    if (!conversation)
      throw new JunctionError("invalid-argument", `No conversation with id ${conversationId}.`);
    const target = { provider: conversation.provider, model: conversation.model };
    if (choice.provider !== undefined || choice.model !== undefined) {
      const provider = this.#providers.available(choice.provider ?? conversation.provider);
      target.provider = provider.id;
      target.model =
        choice.model?.trim() ||
        (provider.id === conversation.provider ? conversation.model : provider.defaultModel);
    }
    if (choice.mode === "provider") await this.#providers.checkProviderMode(target.provider, target.model);
    // Read again once checked, so what a turn saved meanwhile is kept.
    const current = this.#store.getConversation(conversationId) ?? conversation;
    Object.assign(current, target, { codeMode: choice.mode });
    this.#store.saveConversation(current);
    return current;
  }

  /**
   * Sets (or, with `null`, clears) the JSON Schema every answer of the conversation must match:
   * each turn then ends with a validated object beside the text. The schema must be a JSON
   * object whose `type` is `"object"` (what core's `output` takes); anything else is refused
   * with what is wrong.
   */
  setOutputSchema(conversationId: string, schema: unknown): StoredConversation {
    const conversation = this.#store.getConversation(conversationId);
    if (!conversation)
      throw new JunctionError("invalid-argument", `No conversation with id ${conversationId}.`);
    if (schema !== null) {
      if (typeof schema !== "object" || Array.isArray(schema)) {
        throw new JunctionError(
          "invalid-argument",
          "The output schema must be a JSON object (a JSON Schema), or null to clear it.",
        );
      }
      if ((schema as { type?: unknown }).type !== "object") {
        throw new JunctionError(
          "invalid-argument",
          'The output schema must describe an object: give it "type": "object" and its "properties".',
        );
      }
      if (JSON.stringify(schema).length > 100_000) {
        throw new JunctionError("invalid-argument", "The output schema is larger than 100,000 characters.");
      }
    }
    conversation.outputSchema = schema as Record<string, unknown> | null;
    this.#store.saveConversation(conversation);
    return conversation;
  }

  /**
   * Runs one turn of a conversation: the user's text through an Agent with every connected
   * server, approvals asked of the person, the transcript saved as it grows. Every event goes to
   * `emit` (the page's stream, the CLI's printer); a turn that cannot start is one `error` event.
   * The turn ends when `request.signal` aborts or {@link ChatService.stop} is called.
   */
  async runTurn(
    conversationId: string,
    request: TurnRequest,
    emit: (event: ChatEvent) => void,
  ): Promise<void> {
    const turn = await this.#prepare(conversationId, request);
    if (typeof turn === "string") {
      emit({ type: "error", message: turn, aborted: false });
      return;
    }
    const { conversation, text } = turn;
    if (conversation.transcript.length === 0)
      conversation.title = text.length > 60 ? `${text.slice(0, 57)}…` : text;
    await this.#run({
      ...turn,
      // A stopped run is closed below: the turn runs in the conversation's mode as it is now.
      codeMode: conversation.codeMode,
      emit,
      signal: request.signal,
      begin: async (publish) => {
        // A run that stopped for approvals nobody gave (or whose model request failed after some
        // calls had run): the conversation goes on without it, keeping the calls that finished.
        const stopped = conversation.runState;
        if (stopped) {
          conversation.runState = null;
          conversation.runStateCodeMode = null;
          const refusal = await this.#refusalOf(stopped);
          if (refusal) {
            // Nothing of a state that fails its signature reaches the model: the conversation
            // goes on from the messages saved before that run.
            publish({ type: "warning", code: "run-state-refused", message: `${refusal} It was dropped.` });
          } else {
            conversation.messages = closeRunState(stopped, "the user went on without answering");
          }
          for (const call of stopped.pending)
            publish({ type: "approval-answered", id: call.id, approved: false });
          // A program whose call was left waiting never finishes: the model is told it was denied.
          for (const programId of new Set(
            stopped.pending.flatMap((call) => (call.parent ? [call.parent.id] : [])),
          ))
            publish({ type: "approval-answered", id: programId, approved: false });
        }
        conversation.transcript.push({ kind: "user", text });
      },
      start: (agent, options) => agent.send(text, options),
      // Keep what the person said and what the model wrote so far for the next turn.
      failed: (previous) => {
        conversation.messages = partialTurn(conversation.transcript, { previous, text });
      },
    });
  }

  /**
   * Answers one pending approval of the conversation's stopped run and continues the run from its
   * stored state (it survives a restart of the playground): the call runs (or is denied), and the
   * model goes on. Another call still waiting stops the run again. Emits the continued run's
   * events like a turn. Throws (`invalid-argument`) when no such call waits or the conversation
   * is busy, as {@link ChatService.claimApproval} does.
   */
  async answerApproval(
    conversationId: string,
    answer: ApprovalAnswer & { callId: string },
    emit: (event: ChatEvent) => void,
  ): Promise<void> {
    const claim = await this.claimApproval(conversationId, answer.callId);
    await claim.answer(answer, emit);
  }

  /**
   * Claims call `callId`'s pending approval for one answer, then checks the stored run's
   * signature. The claim is taken before anything is awaited, so of answers that arrive together
   * (a double click, two tabs, a retried request) exactly one holds it and every other is refused
   * as the conversation being busy. Throws `invalid-argument` (no such call, the conversation is
   * busy, or its provider is gone) or `run-state-invalid` (the stored run was changed, or was not
   * signed by this playground), holding nothing then. The claim's `answer` must be called: it
   * continues the run and releases the conversation when the run ends.
   */
  async claimApproval(conversationId: string, callId: string): Promise<ApprovalClaim> {
    const { conversation, state } = this.#waitingCall(conversationId, callId);
    const provider = this.#providers.find(conversation.provider);
    if (!provider) {
      throw new JunctionError(
        "invalid-argument",
        `The provider ${conversation.provider} of this conversation is not available (no key or URL set).`,
      );
    }
    this.#busy.add(conversationId);
    try {
      await this.#verified(state);
    } catch (error) {
      this.#busy.delete(conversationId);
      throw error;
    }
    return {
      answer: (answer, emit) => {
        const decision: ResumeDecision = answer.approve
          ? "approve"
          : { deny: answer.reason ?? "The user denied this call." };
        // #run takes the conversation as busy (it is, by this claim) and releases it when it ends.
        return this.#run({
          conversation,
          provider,
          model: conversation.model,
          // The runtime the stopped run ran in, so a program's waiting call finishes where it began.
          codeMode: resumedCodeMode(conversation),
          emit,
          signal: answer.signal,
          begin: async (publish) => {
            publish({ type: "approval-answered", id: callId, approved: answer.approve });
          },
          start: (agent, options) => agent.resume({ state, decisions: { [callId]: decision } }, options),
          // The failed run's state is stored (see #run): a call still waiting can be answered
          // again, and a call that ran is never run again.
          failed: () => undefined,
        });
      },
    };
  }

  /**
   * The calls the conversation's stopped run waits for, once its signature is checked: what the
   * CLI asks about. A stored run that fails the check is a `run-state-invalid` error.
   */
  async pendingApprovals(conversationId: string): Promise<RunState["pending"]> {
    const state = this.#store.getConversation(conversationId)?.runState;
    if (!state || state.pending.length === 0) return [];
    await this.#verified(state);
    return state.pending;
  }

  /** Why the playground's keys refuse a stored run state, or undefined when they accept it. */
  async #refusalOf(state: RunState): Promise<string | undefined> {
    try {
      await verifyRunState(state, this.#keys);
      return undefined;
    } catch (error) {
      return `The run stored for this conversation was refused: ${errorMessage(error)}`;
    }
  }

  /** Throws `run-state-invalid` when the playground's keys refuse the stored run state. */
  async #verified(state: RunState): Promise<void> {
    const refusal = await this.#refusalOf(state);
    if (refusal) {
      throw new JunctionError(
        "run-state-invalid",
        `${refusal} Nothing was run. Send a new message to go on without that run.`,
      );
    }
  }

  /** The sync half of {@link claimApproval}: the call waits, and the conversation is free. */
  #waitingCall(
    conversationId: string,
    callId: string,
  ): { conversation: StoredConversation; state: RunState } {
    const conversation = this.#store.getConversation(conversationId);
    const state = conversation?.runState;
    if (!conversation || !state?.pending.some((call) => call.id === callId)) {
      throw new JunctionError(
        "invalid-argument",
        `No approval is pending for call ${callId} of conversation ${conversationId}.`,
      );
    }
    if (this.#busy.has(conversationId)) {
      throw new JunctionError(
        "invalid-argument",
        "This conversation is already running a turn; stop it first.",
      );
    }
    return { conversation, state };
  }

  /**
   * Runs the Agent once for a conversation (a turn or a resumed run), publishing what it does and
   * saving the transcript as it grows; a run that stops for approvals keeps its state.
   */
  async #run(turn: {
    conversation: StoredConversation;
    provider: ProviderInfo;
    model: string;
    /** Where the run's programs run, if the model may write them. */
    codeMode: CodeModeSetting;
    emit: (event: ChatEvent) => void;
    signal: AbortSignal | undefined;
    begin(publish: (event: ChatEvent) => void): Promise<void>;
    start(agent: Agent, options: SendOptions): AgentHandle;
    failed(previous: Message[]): void;
  }): Promise<void> {
    const { conversation, provider, model, emit } = turn;
    const conversationId = conversation.id;
    this.#busy.add(conversationId);
    const runId = randomUUID();
    // Every event the page sees is folded into the stored transcript by the same pure function
    // the page uses, so what is saved is what was shown.
    const publish = (event: ChatEvent): void => {
      conversation.transcript = foldChatEvent(conversation.transcript, event);
      emit(event);
    };
    const controller = new AbortController();
    const signal = turn.signal ? AbortSignal.any([controller.signal, turn.signal]) : controller.signal;
    const run: Run = { controller, emit: publish };
    this.#runs.set(runId, run);
    conversation.provider = provider.id;
    conversation.model = model;
    let previous = conversation.messages;
    try {
      await turn.begin(publish);
      previous = conversation.messages;
      this.#saveSafely(conversation, emit);
      publish({ type: "run-start", runId, provider: provider.id, model });
    } catch (error) {
      // Even a failure before the run starts must not leave the conversation busy.
      this.#runs.delete(runId);
      this.#busy.delete(conversationId);
      throw error;
    }
    try {
      await this.#runAgent({
        conversation,
        provider,
        model,
        codeMode: turn.codeMode,
        run,
        signal,
        start: turn.start,
      });
    } catch (error) {
      const aborted = signal.aborted;
      turn.failed(previous);
      // A run that fails gives the state to go on from: a resumed run's own state was spent when
      // it began, so the stored one would be refused as resumed already.
      const next = runStateOf(error);
      if (next) {
        conversation.runState = next;
        conversation.runStateCodeMode = turn.codeMode;
      }
      publish({
        type: "error",
        message: aborted ? "Stopped." : `The run failed: ${errorMessage(error)}`,
        aborted,
      });
      // The stored state says which calls can still be answered (the one the run stopped with, or
      // the one recorded as its calls finished): their cards come back, and only theirs.
      for (const call of conversation.runState?.pending ?? []) {
        publish({
          type: "approval-request",
          id: call.id,
          name: call.name,
          server: serverInTranscript(conversation.transcript, call.id),
          input: call.input,
          // With its program (code mode), so the card shows the source beside the call again.
          item: call,
        });
      }
    } finally {
      // Release the conversation first: whatever failed above, the next turn must be able to run.
      this.#runs.delete(runId);
      this.#busy.delete(conversationId);
      this.#saveSafely(conversation, emit);
    }
  }

  /**
   * What a turn needs, or why it cannot run (a conversation in code mode `provider` with a model
   * that does not run programs among the reasons). Nothing is awaited after the busy check, so
   * of two turns that arrive together one runs and the other is refused.
   */
  async #prepare(
    conversationId: string,
    request: TurnRequest,
  ): Promise<
    string | { conversation: StoredConversation; provider: ProviderInfo; model: string; text: string }
  > {
    const asked = this.#store.getConversation(conversationId);
    if (!asked) return `No conversation with id ${conversationId}.`;
    const text = typeof request.text === "string" ? request.text.trim() : "";
    if (!text) return "Type a message first.";
    const providerId = typeof request.provider === "string" ? request.provider : asked.provider;
    const provider = this.#providers.find(providerId);
    if (!provider) return `The provider ${providerId} is not available (no key or URL set).`;
    const model =
      typeof request.model === "string" && request.model.trim()
        ? request.model.trim()
        : provider.defaultModel;
    if (asked.codeMode === "provider" && !(await this.#providers.runsPrograms(provider.id, model))) {
      return providerModeRefusal({
        provider: provider.id,
        model,
        choices: '"sandbox" or "off" for this conversation\'s code mode',
      });
    }
    // Read again after the check: a turn that ended meanwhile saved it.
    const conversation = this.#store.getConversation(conversationId);
    if (!conversation) return `No conversation with id ${conversationId}.`;
    if (this.#busy.has(conversationId)) return "This conversation is already running a turn; stop it first.";
    return { conversation, provider, model, text };
  }

  /**
   * An Agent for one call of the playground's MCP endpoint (`ask_playground`): the first
   * available provider and its default model, every connected server, the same approval policy
   * as chat (a call that needs approval stops the run, and the MCP server reports it), no
   * history.
   */
  async createServedAgent(): Promise<Agent> {
    const provider = this.#providers.providers()[0]!;
    return new Agent(
      await this.#agentConfig({
        provider,
        model: provider.defaultModel,
        servers: this.#registry.connected(),
      }),
    );
  }

  /**
   * The one Agent config of the playground, for a chat run and for a served call alike: the
   * provider and model, the system prompt, every connected server's tools the model may see, the
   * annotation approval policy with approvals that stop the run at once, the trace, ten steps. A
   * chat run adds its conversation (history, output schema, signed run states), code mode when
   * the conversation has it on and, where a key for one is set, the tool search's embedder.
   */
  async #agentConfig(options: {
    provider: ProviderInfo;
    model: string;
    servers: ReturnType<ServerRegistry["connected"]>;
    /** The conversation a chat run continues; a served call has none (no history). */
    conversation?: StoredConversation;
    embedder?: PlaygroundEmbedder;
    /** Where the model's programs run, if it may write them (core's code mode). @default "off" */
    codeMode?: CodeModeSetting;
  }): Promise<AgentConfig> {
    const { conversation, embedder } = options;
    return {
      provider: await this.#providers.create(options.provider.id),
      model: options.model,
      system: systemPrompt(this.#dataDir.sandbox),
      // Tools only an MCP App may call (`_meta.ui.visibility: ["app"]`) are not offered to the model.
      // A server marked "load tools only when searched" is deferred behind core's tool search.
      mcps: options.servers.map((server) => ({
        mcp: modelVisibleTools(server.mcp),
        prefix: server.name,
        ...(server.deferTools ? { defer: true } : {}),
      })),
      ...(embedder
        ? { toolSearch: { embed: embedder.embed, embedCache: this.#store.embeddingCache(embedder.model) } }
        : {}),
      approval: annotationPolicy(),
      approvalTimeoutMs: 0,
      // Each call a program makes is decided by the same policy, and one that asks stops the run.
      ...codeModeConfig(options.codeMode ?? "off", () => this.#programSandbox()),
      ...(conversation?.outputSchema ? { output: conversation.outputSchema } : {}),
      ...(this.#traces ? { tracer: this.#traces.telemetry.tracer } : {}),
      maxSteps: 10,
      ...(conversation
        ? {
            messages: conversation.messages,
            // Every state this playground stores is signed; one changed in the store is refused.
            runStateKey: this.#keys,
          }
        : {}),
    };
  }

  /**
   * Runs the Agent, publishing what it does; keeps the new history when it finishes, and the
   * run's state when it stops for approvals. Approvals never wait in this process: a call that
   * needs one stops the run at once, so the question survives a restart, and the answer resumes it.
   */
  async #runAgent(turn: {
    conversation: StoredConversation;
    provider: ProviderInfo;
    model: string;
    codeMode: CodeModeSetting;
    run: Run;
    signal: AbortSignal;
    start(agent: Agent, options: SendOptions): AgentHandle;
  }): Promise<void> {
    const { conversation, run } = turn;
    const servers = this.#registry.connected();
    const serverOf = (toolName: string): string | null =>
      servers.find((server) => toolName.startsWith(`${server.name}_`))?.name ?? null;
    let agent: Agent | undefined;
    try {
      // Core's tool search ranks with the vendor's embeddings where a key for one is set; each
      // tool's vector is kept in the store, so it is embedded once per model, not once per turn.
      const embedder = await this.#providers.embedder();
      agent = new Agent(
        await this.#agentConfig({
          provider: turn.provider,
          model: turn.model,
          servers,
          conversation,
          ...(embedder ? { embedder } : {}),
          codeMode: turn.codeMode,
        }),
      );
      // Core gives every call an id no earlier call of the conversation has (a model that repeats
      // `call_1` gets `call_1_2` and a warning), so the page, the approvals and the transcript key
      // calls by core's id as it is.
      const handle = turn.start(agent, {
        signal: turn.signal,
        // Recorded as each call finishes, before the run goes on: a failed model request or a
        // crash afterwards leaves a state in which that call is finished, never pending again.
        onRunState: (state) => {
          conversation.runState = state;
          conversation.runStateCodeMode = turn.codeMode;
          if (!this.#saveSafely(conversation, run.emit)) {
            // Going on unrecorded would let a failure later run a finished call again.
            throw new JunctionError(
              "invalid-argument",
              "The run stopped: its progress could not be saved in the playground's database.",
            );
          }
        },
      });
      const partialInputs = new PartialInputs();
      for await (const event of handle) {
        const shown = chatEventOf(event, { serverOf, partialInputs });
        if (shown) run.emit(shown);
        if (event.type === "tool-result") this.#saveSafely(conversation, run.emit);
      }
      const result = await handle.final;
      conversation.messages = result.messages;
      conversation.runState = result.state ?? null;
      conversation.runStateCodeMode = result.state ? turn.codeMode : null;
      // The run span ends before final settles, so its trace is the newest kept.
      const traceId = this.#traces?.runs().at(-1);
      if (traceId) run.emit({ type: "trace", traceId });
      run.emit({ type: "finish", reason: result.finishReason, text: result.text });
    } finally {
      closeAgent(agent);
    }
  }

  /**
   * Saves a conversation; one too deep to serialise (a hostile result) is saved depth-capped,
   * and a save that still fails is a warning (and `false`), never a turn that cannot end.
   */
  #saveSafely(conversation: StoredConversation, emit: (event: ChatEvent) => void): boolean {
    try {
      this.#store.saveConversation(conversation);
      return true;
    } catch {
      // Retried below with every value depth-capped.
    }
    try {
      conversation.messages = capDepth(conversation.messages).value as Message[];
      conversation.transcript = capDepth(conversation.transcript).value as TranscriptItem[];
      this.#store.saveConversation(conversation);
      return true;
    } catch (error) {
      emit({
        type: "warning",
        code: "save-failed",
        message: `The conversation could not be saved: ${errorMessage(error)}`,
      });
      return false;
    }
  }

  /** The sandbox code mode's programs run in, made the first time a run needs it. */
  #programSandbox(): Sandbox {
    // One sandbox keeps its warm engine between runs; each run still gets a fresh QuickJS context,
    // on a worker thread, so that no program the model writes can hold the server's event loop.
    this.#sandbox ??= quickjsSandbox({ thread: "worker" });
    return this.#sandbox;
  }

  /** Stops a run: the model stream and every tool call in flight are cancelled. */
  stop(runId: string): void {
    const run = this.#runs.get(runId);
    if (!run) throw new JunctionError("invalid-argument", `No run ${runId} is in progress.`);
    run.controller.abort(createAbortError("Stopped by the user."));
  }

  /** Stops every run, for shutdown. */
  stopAll(): void {
    for (const run of this.#runs.values())
      run.controller.abort(createAbortError("The playground is closing."));
  }
}

/** One turn as asked: the person's text, the provider and model (optional), and a signal that stops it. */
export interface TurnRequest {
  text?: unknown;
  /** A provider id; the conversation's own by default. */
  provider?: unknown;
  /** A model name; the provider's default model by default. */
  model?: unknown;
  /** Aborts the turn (the page went away, Ctrl-C in the CLI). */
  signal?: AbortSignal;
}

/** The server a call's card names, from the transcript (a call a program made included). */
function serverInTranscript(transcript: readonly TranscriptItem[], callId: string): string | null {
  for (let index = transcript.length - 1; index >= 0; index--) {
    const item = transcript[index]!;
    if (item.kind !== "tool") continue;
    if (item.id === callId) return item.server;
    const nested = item.program?.calls.find((call) => call.id === callId);
    if (nested) return nested.server;
  }
  return null;
}

/** A program call's source for its card (`{ code }` as the model wrote it), or nothing when it has none. */
/** The vendor-run program a call came from, named as an approval item names it, when its source is known. */
function vendorProgramOf(call: Pick<ToolCallPart, "program">): { name?: string; program?: string } {
  const { program } = call;
  return program?.source === undefined ? {} : { name: program.runtime, program: program.source };
}

function programOf(input: unknown): { program?: string } {
  const code = typeof input === "object" && input !== null ? (input as { code?: unknown }).code : undefined;
  return typeof code === "string" ? { program: code } : {};
}

/** The history after a failed turn: what the person said and what the model wrote so far. */
function partialTurn(
  transcript: readonly TranscriptItem[],
  turn: { previous: readonly Message[]; text: string },
): Message[] {
  const written = transcript
    .slice(transcript.findLastIndex((item) => item.kind === "user") + 1)
    .flatMap((item) => (item.kind === "assistant" ? [item.text] : []))
    .join("\n");
  const next: Message[] = [...turn.previous, { role: "user", content: turn.text }];
  if (written) next.push({ role: "assistant", content: [{ type: "text", text: written }] });
  return next;
}

/** What the page is shown of an agent event, or `undefined` for events it does not show. */
function chatEventOf(
  event: AgentEvent,
  {
    serverOf,
    partialInputs,
  }: { serverOf: (toolName: string) => string | null; partialInputs: PartialInputs },
): ChatEvent | undefined {
  switch (event.type) {
    case "text-delta":
      return { type: "text-delta", text: event.text };
    case "tool-input-delta": {
      const input = partialInputs.next(event.id, event.inputText);
      return input
        ? { type: "tool-input-delta", id: event.id, name: event.name, server: serverOf(event.name), input }
        : undefined;
    }
    case "tool-call":
      return {
        type: "tool-call",
        id: event.id,
        name: event.name,
        server: serverOf(event.name),
        input: event.input,
        ...(event.parent
          ? { parent: { id: event.parent.id, sequence: event.parent.sequence, ...vendorProgramOf(event) } }
          : {}),
        ...(event.name === RUN_PROGRAM && !event.parent ? programOf(event.input) : {}),
      };
    case "tool-approval-request":
      return {
        type: "approval-request",
        id: event.id,
        name: event.name,
        server: serverOf(event.name),
        input: event.input,
        item: event.item,
      };
    case "tool-progress":
      // Core bounds the reports: at most one per call every 100 ms, none after its result.
      return {
        type: "tool-progress",
        id: event.id,
        progress: event.progress,
        ...(event.total !== undefined ? { total: event.total } : {}),
        ...(event.message !== undefined ? { message: event.message } : {}),
      };
    case "tool-result": {
      // Room for the event's other fields and the note, so the whole event stays within the limit:
      // core keeps a result whole (up to maxToolOutputChars) and cuts only the model's view of it.
      const { result, truncated } = capToolResult(event.result, {
        maxBytes: event.parent ? MAXIMUM_PROGRAM_CALL_RESULT_BYTES : MAXIMUM_RESULT_BYTES - 16 * 1024,
      });
      return {
        type: "tool-result",
        id: event.id,
        name: event.name,
        server: serverOf(event.name),
        result,
        durationMs: Math.round(event.durationMs),
        ...(truncated ? { truncated } : {}),
        ...(event.outcome !== undefined ? { outcome: event.outcome } : {}),
        ...(event.parent ? { parent: { id: event.parent.id, sequence: event.parent.sequence } } : {}),
      };
    }
    case "warning":
      return { type: "warning", code: event.warning.code, message: event.warning.message };
    // The run's end is published from its final result; reasoning and step ends are not shown.
    case "output":
      return { type: "output", output: event.output };
    case "step-end":
      return event.request
        ? {
            type: "context",
            size: {
              tools: event.request.tools,
              history: event.request.history,
              toolResults: event.request.toolResults,
              contextWindow: event.request.contextWindow,
            },
          }
        : undefined;
    // The answer is shown once validated; reasoning and step ends are not shown. A tool search
    // is shown by its search_tools call and result (which carry the same found tools and scores).
    case "tool-search":
    case "output-delta":
    case "reasoning-delta":
    case "finish":
    case "error":
      return undefined;
    default: {
      const unknown: never = event;
      return {
        type: "warning",
        code: "unknown-event",
        message: `Unknown agent event ${JSON.stringify(unknown)}`,
      };
    }
  }
}
