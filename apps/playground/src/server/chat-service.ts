import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { Agent, type AgentEvent, annotationPolicy } from "@junction/core";
import { createAbortError, errorMessage, JunctionError, type Message } from "@junction/types";
import type { ChatEvent } from "../shared/api-types.js";
import { foldChatEvent } from "../shared/fold-chat-events.js";
import type { DataDir } from "./data-dir.js";
import { modelVisibleTools } from "./mcp-apps.js";
import { capDepth, capToolResult } from "./output-limits.js";
import { createProvider, detectProviders, type PlaygroundSettings, type ProviderInfo } from "./providers.js";
import type { ServerRegistry } from "./server-registry.js";
import type { Store, StoredConversation, TranscriptItem } from "./store.js";

/** What a chat turn streams to the page (and the CLI): the shared contract. */
export type { ChatEvent } from "../shared/api-types.js";

interface Run {
  controller: AbortController;
  approvals: Map<string, Extract<AgentEvent, { type: "tool-approval-request" }>>;
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

/** Chat: provider choice, one Agent run per turn, approvals, stop, and persistence of every turn. */
export class ChatService {
  readonly #store: Store;
  readonly #registry: ServerRegistry;
  readonly #dataDir: DataDir;
  readonly #environment: NodeJS.ProcessEnv;
  readonly #runs = new Map<string, Run>();
  readonly #busy = new Set<string>();

  constructor(options: {
    store: Store;
    registry: ServerRegistry;
    dataDir: DataDir;
    environment?: NodeJS.ProcessEnv;
  }) {
    this.#store = options.store;
    this.#registry = options.registry;
    this.#dataDir = options.dataDir;
    this.#environment = options.environment ?? process.env;
  }

  settings(): PlaygroundSettings {
    const raw = this.#store.getSetting("settings");
    return raw ? (JSON.parse(raw) as PlaygroundSettings) : {};
  }

  updateSettings(input: Record<string, unknown>): PlaygroundSettings {
    const next: PlaygroundSettings = { ...this.settings() };
    if ("openaiCompatibleBaseURL" in input) {
      const value = input.openaiCompatibleBaseURL;
      if (value === "" || value === null || value === undefined) delete next.openaiCompatibleBaseURL;
      else {
        let url: URL;
        try {
          url = new URL(String(value));
        } catch {
          throw new JunctionError("invalid-argument", `${JSON.stringify(value)} is not a URL.`);
        }
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          throw new JunctionError("invalid-argument", "The OpenAI-compatible URL must be http or https.");
        }
        next.openaiCompatibleBaseURL = url.toString().replace(/\/$/, "");
      }
    }
    if ("openaiCompatibleModel" in input) {
      const value = input.openaiCompatibleModel;
      if (typeof value === "string" && value.trim() !== "") next.openaiCompatibleModel = value.trim();
      else delete next.openaiCompatibleModel;
    }
    this.#store.setSetting("settings", JSON.stringify(next));
    return next;
  }

  providers(): ProviderInfo[] {
    return detectProviders(this.#environment, this.settings());
  }

  createConversation(input: Record<string, unknown>): StoredConversation {
    const providers = this.providers();
    const provider = providers.find((candidate) => candidate.id === input.provider) ?? providers[0]!;
    const model = typeof input.model === "string" && input.model ? input.model : provider.defaultModel;
    return this.#store.createConversation({ title: "New conversation", provider: provider.id, model });
  }

  /** Runs one turn and streams it as server-sent events on `response`. */
  async streamTurn(
    conversationId: string,
    body: Record<string, unknown>,
    response: ServerResponse,
  ): Promise<void> {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
    });
    const controller = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) controller.abort(createAbortError("The page went away."));
    });
    await this.runTurn(
      conversationId,
      body,
      (event) =>
        response.write(`data: ${this.#registry.redactText(JSON.stringify(capDepth(event).value))}\n\n`),
      controller,
    );
    response.end();
  }

  /**
   * Runs one turn of a conversation: the user's text through an Agent with every connected
   * server, approvals asked of the person, the transcript saved as it grows.
   */
  async runTurn(
    conversationId: string,
    body: Record<string, unknown>,
    emit: (event: ChatEvent) => void,
    controller = new AbortController(),
  ): Promise<void> {
    const conversation = this.#store.getConversation(conversationId);
    if (!conversation) {
      emit({ type: "error", message: `No conversation with id ${conversationId}.`, aborted: false });
      return;
    }
    const text = typeof body.text === "string" ? body.text.trim() : "";
    if (!text) {
      emit({ type: "error", message: "Type a message first.", aborted: false });
      return;
    }
    if (this.#busy.has(conversationId)) {
      emit({
        type: "error",
        message: "This conversation is already running a turn; stop it first.",
        aborted: false,
      });
      return;
    }
    const providerId = typeof body.provider === "string" ? body.provider : conversation.provider;
    const info = this.providers().find((candidate) => candidate.id === providerId);
    if (!info) {
      emit({
        type: "error",
        message: `The provider ${providerId} is not available (no key or URL set).`,
        aborted: false,
      });
      return;
    }
    const model = typeof body.model === "string" && body.model.trim() ? body.model.trim() : info.defaultModel;
    this.#busy.add(conversationId);
    const runId = randomUUID();
    // Every event the page sees is folded into the stored transcript by the same pure function
    // the page uses, so what is saved is what was shown.
    const publish = (event: ChatEvent): void => {
      conversation.transcript = foldChatEvent(conversation.transcript, event);
      emit(event);
    };
    const run: Run = { controller, approvals: new Map(), emit: publish };
    this.#runs.set(runId, run);
    conversation.provider = info.id;
    conversation.model = model;
    if (conversation.transcript.length === 0)
      conversation.title = text.length > 60 ? `${text.slice(0, 57)}…` : text;
    conversation.transcript.push({ kind: "user", text });
    try {
      this.#saveSafely(conversation, emit);
      publish({ type: "run-start", runId, provider: info.id, model });
    } catch (error) {
      // Even a failure before the run starts must not leave the conversation busy.
      this.#runs.delete(runId);
      this.#busy.delete(conversationId);
      throw error;
    }

    const servers = this.#registry.connected();
    const serverOf = (toolName: string): string | null =>
      servers.find((server) => toolName.startsWith(`${server.name}_`))?.name ?? null;
    // The model's call ids are not trusted to be unique (a model may say `call_1` at every step):
    // each call gets a key of its own for the page, the approvals and the transcript, and a
    // model id points at its latest call, the one core's approval request and result are about.
    const keys = new Map<string, string>();
    const usedKeys = new Set(
      conversation.transcript.flatMap((item) => (item.kind === "tool" ? [item.id] : [])),
    );
    const keyFor = (modelId: string): string => {
      let key = modelId;
      for (let n = 2; usedKeys.has(key); n++) key = `${modelId}~${n}`;
      usedKeys.add(key);
      return key;
    };
    const previous = conversation.messages;
    let agent: Agent | undefined;
    try {
      const provider = await createProvider(info.id, this.#environment, this.settings(), {
        sandbox: this.#dataDir.sandbox,
      });
      agent = new Agent({
        provider,
        model,
        system: systemPrompt(this.#dataDir.sandbox),
        // Tools only an MCP App may call (`_meta.ui.visibility: ["app"]`) are not offered to the model.
        mcps: servers.map((server) => ({
          mcp: modelVisibleTools(server.mcp),
          prefix: server.name,
        })),
        approval: annotationPolicy(),
        maxSteps: 10,
        messages: previous,
      });
      const handle = agent.send(text, { signal: controller.signal });
      for await (const event of handle) {
        switch (event.type) {
          case "text-delta":
            publish({ type: "text-delta", text: event.text });
            break;
          case "reasoning-delta":
          case "step-end":
            break;
          case "tool-call": {
            const key = keyFor(event.id);
            keys.set(event.id, key);
            publish({
              type: "tool-call",
              id: key,
              name: event.name,
              server: serverOf(event.name),
              input: event.input,
            });
            break;
          }
          case "tool-approval-request": {
            const key = keys.get(event.id) ?? keyFor(event.id);
            keys.set(event.id, key);
            run.approvals.set(key, event);
            publish({
              type: "approval-request",
              id: key,
              name: event.name,
              server: serverOf(event.name),
              input: event.input,
            });
            break;
          }
          case "tool-progress":
            // Core gives each call its own id and bounds the reports (at most one per call every
            // 100 ms, none after its result); the page's key for that call is the one to use.
            publish({
              type: "tool-progress",
              id: keys.get(event.id) ?? event.id,
              progress: event.progress,
              ...(event.total !== undefined ? { total: event.total } : {}),
              ...(event.message !== undefined ? { message: event.message } : {}),
            });
            break;
          case "tool-result": {
            const key = keys.get(event.id) ?? event.id;
            const { result, truncated } = capToolResult(event.result);
            publish({
              type: "tool-result",
              id: key,
              name: event.name,
              server: serverOf(event.name),
              result,
              durationMs: Math.round(event.durationMs),
              ...(truncated ? { truncated } : {}),
            });
            this.#saveSafely(conversation, emit);
            break;
          }
          case "warning":
            publish({ type: "warning", code: event.warning.code, message: event.warning.message });
            break;
          case "finish":
            break;
          case "error":
            break;
          default: {
            const unknown: never = event;
            publish({
              type: "warning",
              code: "unknown-event",
              message: `Unknown agent event ${JSON.stringify(unknown)}`,
            });
          }
        }
      }
      const result = await handle.final;
      conversation.messages = result.messages;
      publish({ type: "finish", reason: result.finishReason, text: result.text });
    } catch (error) {
      const aborted = controller.signal.aborted;
      const message = aborted ? "Stopped." : `The run failed: ${errorMessage(error)}`;
      // Keep what the person said and what the model wrote so far for the next turn.
      const partial = conversation.transcript
        .slice(conversation.transcript.findLastIndex((item) => item.kind === "user") + 1)
        .flatMap((item) => (item.kind === "assistant" ? [item.text] : []))
        .join("\n");
      const next: Message[] = [...previous, { role: "user", content: text }];
      if (partial) next.push({ role: "assistant", content: [{ type: "text", text: partial }] });
      conversation.messages = next;
      publish({ type: "error", message, aborted });
    } finally {
      // Release the conversation first: whatever failed above, the next turn must be able to run.
      this.#runs.delete(runId);
      this.#busy.delete(conversationId);
      closeAgent(agent);
      this.#saveSafely(conversation, emit);
    }
  }

  /**
   * Saves a conversation; one too deep to serialise (a hostile result) is saved depth-capped,
   * and a save that still fails is a warning, never a turn that cannot end.
   */
  #saveSafely(conversation: StoredConversation, emit: (event: ChatEvent) => void): void {
    try {
      this.#store.saveConversation(conversation);
      return;
    } catch {
      // Retried below with every value depth-capped.
    }
    try {
      conversation.messages = capDepth(conversation.messages).value as Message[];
      conversation.transcript = capDepth(conversation.transcript).value as TranscriptItem[];
      this.#store.saveConversation(conversation);
    } catch (error) {
      emit({
        type: "warning",
        code: "save-failed",
        message: `The conversation could not be saved: ${errorMessage(error)}`,
      });
    }
  }

  /** Answers an approval the run asked for. */
  answerApproval(runId: string, callId: string, approve: boolean, reason?: string): void {
    const run = this.#runs.get(runId);
    const request = run?.approvals.get(callId);
    if (!run || !request) {
      throw new JunctionError(
        "invalid-argument",
        `No approval is pending for call ${callId} of run ${runId}.`,
      );
    }
    run.approvals.delete(callId);
    if (approve) request.approve();
    else request.deny(reason ?? "The user denied this call.");
    run.emit({ type: "approval-answered", id: callId, approved: approve });
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
