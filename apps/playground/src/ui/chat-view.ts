import { errorMessage } from "@junction/types";
import type {
  ChatApprovalBody,
  CodeModeBody,
  CreateConversationBody,
  EmptyBody,
  OutputSchemaBody,
  SettingsBody,
  TurnBody,
} from "../shared/api-bodies.js";
import type {
  ChatEvent,
  CodeModeChoices,
  CodeModeSetting,
  ContextSize,
  ConversationDetail,
  ConversationSummary,
  ProviderInfo,
  ToolCallRecord,
  TranscriptItem,
} from "../shared/api-types.js";
import { foldChatEvent } from "../shared/fold-chat-events.js";
import type { TraceSpan } from "../shared/trace-waterfall.js";
import { api, postStream } from "./api.js";
import { openChatApp, updateChatCard } from "./chat-app.js";
import { clear, h, jsonBlock } from "./dom.js";
import { jsonTree } from "./json-tree.js";
import { APP_MESSAGE_PREFIX, clearAfterTeardown } from "./mcp-app-frame.js";
import { type ProgramItem, programCard } from "./program-card.js";
import { renderToolResult } from "./render-content.js";
import { traceWaterfall } from "./trace-waterfall.js";

let providers: ProviderInfo[] = [];
let conversations: ConversationSummary[] = [];
let currentId: string | undefined;
let runId: string | undefined;
let root: HTMLElement;
let transcript: HTMLElement;
let providerSelect: HTMLSelectElement;
let modelInput: HTMLInputElement;
let codeModeSelect: HTMLSelectElement;
/** The `provider` choice of {@link codeModeSelect}: enabled only where the model runs programs. */
let providerModeOption: HTMLOptionElement;
/** Why `provider` cannot be chosen now (read by screen readers with the select), else empty. */
let codeModeHint: HTMLElement;
/** The conversation's code mode as the server last confirmed it: what a refused change goes back to. */
let confirmedCodeMode: CodeModeSetting = "off";
/** The provider and model the code mode choices were last asked for: answers to older asks are dropped. */
let codeModeAsk = "";
/** The code modes the toolbar's provider and model can have, as last answered. */
let codeModeChoices: CodeModeChoices | undefined;
let composer: HTMLTextAreaElement;
let sendButton: HTMLButtonElement;
let stopButton: HTMLButtonElement;
let banner: HTMLElement;
let conversationList: HTMLElement;
/** The transcript as shown: each item with its element, in order. */
let shown: { item: TranscriptItem; node: HTMLElement }[] = [];

/** The chat view: conversations, provider and model, the transcript, and the composer. */
export async function mountChatView(container: HTMLElement, initialProviders: ProviderInfo[]): Promise<void> {
  root = container;
  providers = initialProviders;
  conversationList = h("nav", { class: "conversation-list", testid: "conversation-list" });
  providerSelect = h("select", { testid: "provider-select", onchange: () => onProviderChange() });
  modelInput = h("input", {
    type: "text",
    testid: "model-input",
    onchange: () => void refreshCodeModeChoices(),
  });
  modelInput.setAttribute("list", "model-options");
  providerModeOption = h("option", { value: "provider" }, "in the vendor's runtime");
  codeModeSelect = h(
    "select",
    {
      id: "code-mode-select",
      testid: "code-mode",
      title:
        "Code mode: the model may write a JavaScript program that calls the tools, run in the playground's QuickJS sandbox or, on a model that runs programs itself, by the vendor. Each call it makes is listed under the program and asks for approval as a direct call does.",
      onchange: () => {
        showCodeModeChoices();
        void setCodeMode(codeModeSelect.value as CodeModeSetting);
      },
    },
    h("option", { value: "off" }, "off"),
    h("option", { value: "sandbox" }, "in a sandbox (QuickJS)"),
    providerModeOption,
  );
  codeModeHint = h("span", { id: "code-mode-hint", class: "code-mode-hint", testid: "code-mode-hint" });
  codeModeSelect.setAttribute("aria-describedby", "code-mode-hint");
  banner = h("div", { class: "provider-banner", testid: "provider-banner" });
  transcript = h("div", { class: "transcript", testid: "transcript" });
  composer = h("textarea", {
    rows: 3,
    placeholder: "Message… (Enter to send, Shift+Enter for a new line)",
    testid: "composer",
    onkeydown: (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        void send();
      }
    },
  });
  sendButton = h("button", { class: "primary", testid: "send", onclick: () => void send() }, "Send");
  stopButton = h(
    "button",
    { class: "danger", testid: "stop", disabled: true, onclick: () => void stop() },
    "Stop",
  );
  renderProviders();
  clear(root);
  root.append(
    h(
      "aside",
      { class: "chat-sidebar" },
      h(
        "button",
        { class: "primary", testid: "new-chat", onclick: () => void newConversation() },
        "New chat",
      ),
      conversationList,
    ),
    h(
      "section",
      { class: "chat-main" },
      h(
        "div",
        { class: "chat-toolbar" },
        h("label", {}, "Provider "),
        providerSelect,
        h("label", {}, " Model "),
        modelInput,
        settingsButton(),
        outputSchemaButton(),
        h("label", { class: "code-mode-choice", for: "code-mode-select" }, "Code mode ", codeModeSelect),
        codeModeHint,
      ),
      banner,
      transcript,
      h(
        "div",
        { class: "composer" },
        composer,
        h("div", { class: "composer-actions" }, sendButton, stopButton),
      ),
    ),
  );
  await loadConversations();
  if (conversations[0]) await openConversation(conversations[0].id);
}

function renderProviders(): void {
  const previous = providerSelect.value;
  clear(providerSelect);
  for (const provider of providers)
    providerSelect.append(h("option", { value: provider.id }, provider.label));
  if (providers.some((provider) => provider.id === previous)) providerSelect.value = previous;
  const models = h("datalist", { id: "model-options" });
  for (const provider of providers)
    for (const model of provider.models) models.append(h("option", { value: model }));
  document.getElementById("model-options")?.remove();
  document.body.append(models);
  onProviderChange();
}

function onProviderChange(): void {
  const provider = providers.find((candidate) => candidate.id === providerSelect.value) ?? providers[0];
  if (!provider) return;
  if (!provider.models.includes(modelInput.value)) modelInput.value = provider.defaultModel;
  const offline = provider.id === "offline";
  banner.className = `provider-banner ${offline ? "offline" : ""}`;
  banner.textContent = offline
    ? providers.length === 1
      ? "Offline scripted model — no API key was found, so this is not an LLM: it picks a tool from your words and summarises the result. Try “show me the tiny image”, “add 2 and 3”, “list the sandbox files” or “write a file notes.txt”. Set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or an OpenAI-compatible URL for a real model."
      : "Offline scripted model — not an LLM: it picks a tool from your words and summarises the result."
    : `${provider.label}, key from ${provider.source}.`;
  void refreshCodeModeChoices();
}

/** An example a person can start from: an answer with a summary and a number. */
const exampleOutputSchema = {
  type: "object",
  properties: { summary: { type: "string" }, result: { type: "number" } },
  required: ["summary", "result"],
};

/**
 * "Output schema…": a JSON Schema editor for the current conversation (a new one is made when
 * there is none yet). With a schema set, every answer ends with a validated object, shown as a
 * collapsible tree beside the text.
 */
function outputSchemaButton(): HTMLElement {
  return h(
    "button",
    {
      testid: "output-schema",
      onclick: async () => {
        const conversationId = currentId ?? (await newConversation());
        const current = await api<ConversationDetail>("GET", `/api/conversations/${conversationId}`);
        const editor = h("textarea", { class: "schema-editor", testid: "output-schema-editor", rows: 12 });
        editor.value = JSON.stringify(current.outputSchema ?? exampleOutputSchema, null, 2);
        const message = h("div", { class: "form-message" });
        const close = () => {
          dialog.close();
          dialog.remove();
        };
        const save = async (schema: unknown) => {
          try {
            // What the person typed, as it is: the server checks it and says what is wrong.
            const body = { schema: schema as OutputSchemaBody["schema"] } satisfies OutputSchemaBody;
            await api("PUT", `/api/conversations/${conversationId}/output-schema`, body);
            close();
          } catch (error) {
            message.className = "form-message error";
            message.textContent = errorMessage(error);
          }
        };
        const dialog = h(
          "dialog",
          { class: "modal" },
          h("h2", {}, "Output schema"),
          h(
            "p",
            { class: "muted" },
            "A JSON Schema for an object. Every answer of this conversation then ends with an object that matches it, checked by Junction, shown beside the text. Tools stay usable on every step before it.",
          ),
          editor,
          message,
          h(
            "div",
            { class: "actions" },
            h(
              "button",
              {
                class: "primary",
                testid: "output-schema-save",
                onclick: () => {
                  let schema: unknown;
                  try {
                    schema = JSON.parse(editor.value);
                  } catch (error) {
                    message.className = "form-message error";
                    message.textContent = `Not JSON: ${errorMessage(error)}`;
                    return;
                  }
                  void save(schema);
                },
              },
              "Save",
            ),
            h("button", { testid: "output-schema-clear", onclick: () => void save(null) }, "No schema"),
            h("button", { onclick: close }, "Cancel"),
          ),
        );
        document.body.append(dialog);
        dialog.showModal();
      },
    },
    "Output schema…",
  );
}

/**
 * Code mode for the current conversation's next runs, with the provider and model the toolbar
 * shows (a new chat starts with the choice as it is). A refused change puts the choice back and
 * says why.
 */
async function setCodeMode(mode: CodeModeSetting): Promise<void> {
  const conversationId = currentId;
  if (!conversationId) return;
  try {
    const body: CodeModeBody = {
      mode,
      provider: providerSelect.value,
      ...(modelInput.value.trim() ? { model: modelInput.value.trim() } : {}),
    };
    await api("PUT", `/api/conversations/${conversationId}/code-mode`, body);
    if (currentId === conversationId) confirmedCodeMode = mode;
  } catch (error) {
    if (currentId === conversationId) {
      codeModeSelect.value = confirmedCodeMode;
      showCodeModeChoices();
    }
    transcript.append(renderItem({ kind: "notice", level: "error", text: errorMessage(error) }));
  }
}

/**
 * Offers code mode `provider` only when the toolbar's provider and model run programs; otherwise
 * the choice is disabled and the hint beside it says why (a conversation already in that mode
 * keeps it, and its turns are refused with the same reason until the model or the mode changes).
 */
async function refreshCodeModeChoices(): Promise<void> {
  const ask = `?provider=${encodeURIComponent(providerSelect.value)}&model=${encodeURIComponent(modelInput.value.trim())}`;
  codeModeAsk = ask;
  let choices: CodeModeChoices;
  try {
    choices = await api<CodeModeChoices>("GET", `/api/code-mode${ask}`);
  } catch {
    // No provider chosen yet, or the playground went away: the choices stay as they are.
    return;
  }
  if (codeModeAsk !== ask) return;
  codeModeChoices = choices;
  showCodeModeChoices();
}

/** The last answered code mode choices on the select, and the hint for the mode chosen. */
function showCodeModeChoices(): void {
  if (!codeModeChoices) return;
  const offered = codeModeChoices.modes.includes("provider");
  const why = codeModeChoices.providerUnavailable ?? "";
  providerModeOption.disabled = !offered;
  codeModeHint.textContent = !offered && codeModeSelect.value === "provider" ? why : "";
  if (offered) providerModeOption.removeAttribute("title");
  else providerModeOption.title = why;
}

function settingsButton(): HTMLElement {
  return h(
    "button",
    {
      testid: "settings",
      onclick: () => {
        const url = h("input", {
          type: "text",
          placeholder: "http://127.0.0.1:11434/v1",
          testid: "compatible-url",
        });
        const model = h("input", { type: "text", placeholder: "llama3.2" });
        const message = h("div", { class: "form-message" });
        const dialog = h(
          "dialog",
          { class: "modal" },
          h("h2", {}, "OpenAI-compatible endpoint"),
          h(
            "p",
            { class: "muted" },
            "Any Chat Completions endpoint: Ollama, vLLM, LM Studio, llama.cpp server… Leave empty to remove.",
          ),
          h("label", {}, "Base URL (with /v1)"),
          url,
          h("label", {}, "Model"),
          model,
          message,
          h(
            "div",
            { class: "actions" },
            h(
              "button",
              {
                class: "primary",
                onclick: async () => {
                  try {
                    await api("POST", "/api/settings", {
                      openaiCompatibleBaseURL: url.value.trim(),
                      openaiCompatibleModel: model.value.trim(),
                    } satisfies SettingsBody);
                    providers = (await api<{ providers: ProviderInfo[] }>("GET", "/api/state")).providers;
                    renderProviders();
                    dialog.close();
                    dialog.remove();
                  } catch (error) {
                    message.className = "form-message error";
                    message.textContent = errorMessage(error);
                  }
                },
              },
              "Save",
            ),
            h(
              "button",
              {
                onclick: () => {
                  dialog.close();
                  dialog.remove();
                },
              },
              "Cancel",
            ),
          ),
        );
        document.body.append(dialog);
        dialog.showModal();
      },
    },
    "Endpoint…",
  );
}

async function loadConversations(): Promise<void> {
  conversations = await api<ConversationSummary[]>("GET", "/api/conversations");
  clear(conversationList);
  for (const conversation of conversations) {
    conversationList.append(
      h(
        "div",
        { class: `conversation-item ${conversation.id === currentId ? "selected" : ""}` },
        h(
          "button",
          {
            class: "conversation-title",
            testid: "conversation-item",
            onclick: () => void openConversation(conversation.id),
          },
          conversation.title,
        ),
        h(
          "button",
          {
            class: "icon",
            title: "Delete",
            onclick: async () => {
              await api("DELETE", `/api/conversations/${conversation.id}`);
              if (currentId === conversation.id) {
                currentId = undefined;
                clearAfterTeardown(transcript, leftConversation);
              }
              await loadConversations();
            },
          },
          "×",
        ),
      ),
    );
  }
}

/** Why the apps of a conversation the person leaves are closed (after their teardown). */
const leftConversation = "This app was closed: its conversation is no longer shown.";

async function openConversation(id: string): Promise<void> {
  const conversation = await api<ConversationDetail>("GET", `/api/conversations/${id}`);
  currentId = id;
  if (providers.some((provider) => provider.id === conversation.provider)) {
    providerSelect.value = conversation.provider;
    onProviderChange();
    modelInput.value = conversation.model;
  }
  codeModeSelect.value = conversation.codeMode;
  confirmedCodeMode = conversation.codeMode;
  showCodeModeChoices();
  void refreshCodeModeChoices();
  clearAfterTeardown(transcript, leftConversation);
  shown = [];
  showTranscript(conversation.transcript);
  await loadConversations();
  scrollDown();
}

async function newConversation(): Promise<string> {
  const conversation = await api<ConversationSummary>("POST", "/api/conversations", {
    provider: providerSelect.value,
    model: modelInput.value,
    codeMode: codeModeSelect.value as CodeModeSetting,
  } satisfies CreateConversationBody);
  currentId = conversation.id;
  clearAfterTeardown(transcript, leftConversation);
  shown = [];
  await loadConversations();
  composer.focus();
  return conversation.id;
}

function renderItem(item: TranscriptItem): HTMLElement {
  switch (item.kind) {
    case "user":
      if (item.text.startsWith(APP_MESSAGE_PREFIX))
        return h(
          "div",
          { class: "message app", testid: "message-app" },
          h("div", { class: "label" }, "an MCP App (sent with your consent; the app's words, not yours)"),
          h("div", { class: "text" }, item.text.slice(APP_MESSAGE_PREFIX.length)),
        );
      return h(
        "div",
        { class: "message user", testid: "message-user" },
        h("div", { class: "label" }, "you"),
        h("div", { class: "text" }, item.text),
      );
    case "assistant":
      return h(
        "div",
        { class: "message assistant", testid: "message-assistant" },
        h("div", { class: "label" }, "assistant"),
        h("div", { class: "text" }, item.text),
      );
    case "tool":
      return renderToolCard(item);
    case "notice":
      return h("div", { class: `notice ${item.level}`, testid: "notice" }, item.text);
    case "context":
      return contextBar(item.size);
    case "trace":
      return traceToggle(item.traceId);
    case "output":
      return h(
        "div",
        { class: "message output", testid: "message-output" },
        h("div", { class: "label" }, "structured answer"),
        jsonTree(item.value),
      );
    default: {
      const unknown: never = item;
      return h("div", { class: "notice warning" }, `Unknown transcript item: ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Shows a transcript: items the fold left as they were keep their element, changed ones are
 * rendered again, new ones appended (the fold only appends or replaces).
 */
function showTranscript(items: readonly TranscriptItem[]): void {
  items.forEach((item, index) => {
    if (shown[index]?.item !== item) showItem(index, item);
  });
}

/**
 * Shows `item` at `index`: a new element, except that a card that may hold an app keeps its
 * element (its app's iframe would lose its document if the card were replaced).
 */
function showItem(index: number, item: TranscriptItem): void {
  const current = shown[index];
  const node = renderItem(item);
  if (current && item.kind === "tool" && !item.program && updateChatCard(current.node, node, item)) {
    shown[index] = { item, node: current.node };
    return;
  }
  if (current) current.node.replaceWith(node);
  else transcript.append(node);
  if (item.kind === "tool" && !item.program) openChatApp(node, item, sendFromApp);
  shown[index] = { item, node };
}

function statusLabel(item: Extract<TranscriptItem, { kind: "tool" }>): string {
  switch (item.status) {
    case "done":
      return `done in ${item.durationMs ?? "?"} ms`;
    case "awaiting-approval":
      return "waiting for approval";
    case "running":
      return item.inputStreaming ? "the model is writing the arguments…" : "running…";
    case "denied":
    case "stopped":
      return item.status;
    default: {
      const unknown: never = item.status;
      return String(unknown);
    }
  }
}

function progressLine(
  progress: NonNullable<Extract<TranscriptItem, { kind: "tool" }>["progress"]>,
): HTMLElement {
  const bar = h("progress", { testid: "tool-card-progress-bar" });
  if (progress.total !== undefined && progress.total > 0) {
    bar.max = progress.total;
    bar.value = Math.min(progress.progress, progress.total);
  }
  const count =
    progress.total === undefined ? `${progress.progress}` : `${progress.progress} / ${progress.total}`;
  return h(
    "div",
    { class: "tool-progress", testid: "tool-card-progress" },
    bar,
    // The server's message, as text.
    h("span", {}, ` progress ${count}${progress.message ? ` — ${progress.message}` : ""}`),
  );
}

/**
 * The buttons that answer a waiting call, with the call's tool and arguments (and why it is asked,
 * when the exfiltration guard asks). `beside`, for a call a program made, is shown next to the
 * arguments: the program's source and which of its calls this is.
 */
function approvalPrompt(item: ToolCallRecord, beside?: HTMLElement): HTMLElement {
  // The run stopped for this answer; the answer continues it (here, or after a restart).
  const answer = async (approve: boolean) => {
    for (const button of prompt.querySelectorAll("button")) button.disabled = true;
    const conversationId = currentId;
    if (!conversationId) return;
    try {
      await streamRun(`/api/conversations/${conversationId}/approvals/${encodeURIComponent(item.id)}`, {
        approve,
      } satisfies ChatApprovalBody);
    } catch (error) {
      // Refused: the call already ran or was answered (in another tab, say), or the stored run was
      // changed. The conversation is shown as stored, so a card whose call ran is gone, with why.
      try {
        if (currentId === conversationId) await openConversation(conversationId);
      } catch {
        // The notice below still says what went wrong.
      }
      transcript.append(renderItem({ kind: "notice", level: "error", text: errorMessage(error) }));
      scrollDown();
    }
  };
  const question = h("span", {}, `Allow ${item.name} to run with these arguments?`);
  const reason = item.reason
    ? h("div", { class: "approval-reason", testid: "approval-reason" }, item.reason)
    : null;
  const buttons = [
    h("button", { class: "primary", testid: "approve", onclick: () => void answer(true) }, "Approve"),
    h("button", { class: "danger", testid: "deny", onclick: () => void answer(false) }, "Deny"),
  ];
  const prompt = beside
    ? h(
        "div",
        { class: "approval with-program", testid: "approval" },
        question,
        reason,
        h(
          "div",
          { class: "approval-columns" },
          h(
            "div",
            { class: "approval-call" },
            h("div", { class: "label" }, item.name),
            jsonBlock(item.input, "approval-arguments"),
          ),
          beside,
        ),
        h("div", { class: "actions" }, ...buttons),
      )
    : h(
        "div",
        { class: "approval", testid: "approval" },
        question,
        reason,
        jsonBlock(item.input, "approval-arguments"),
        ...buttons,
      );
  return prompt;
}

function renderToolCard(item: Extract<TranscriptItem, { kind: "tool" }>): HTMLElement {
  if (item.program) return programCard(item as ProgramItem, { answerable: !runId, approval: approvalPrompt });
  const body = h("div", { class: "tool-card-body" });
  const card = h(
    "div",
    { class: "tool-card", testid: "tool-card" },
    h(
      "div",
      { class: "tool-card-header" },
      h("span", { class: "tool-name", testid: "tool-card-name" }, item.name),
      item.server ? h("span", { class: "badge" }, `server: ${item.server}`) : null,
      h("span", { class: "tool-status", testid: "tool-card-status" }, statusLabel(item)),
    ),
    // The arguments shown are the ones that run (an approval request's own).
    h("details", { class: "tool-input" }, h("summary", {}, "arguments"), jsonBlock(item.input)),
    body,
  );
  card.dataset.callId = item.id;
  card.dataset.status = item.status;
  if (item.status === "running" && item.progress) body.append(progressLine(item.progress));
  if (item.status === "awaiting-approval" && !runId) body.append(approvalPrompt(item));
  if (item.result !== undefined)
    body.replaceChildren(renderToolResult(item.result, undefined, item.truncated));
  return card;
}

function scrollDown(): void {
  transcript.scrollTop = transcript.scrollHeight;
}

async function send(): Promise<void> {
  const text = composer.value.trim();
  if (!text || runId) return;
  composer.value = "";
  await sendText(text);
}

/**
 * A chat app's `ui/message`, which the person agreed to send: a turn of its own, marked as the
 * app's words (the model is told so, and the page shows it as the app's, never as the person's).
 */
async function sendFromApp(text: string): Promise<void> {
  if (sendButton.disabled || !currentId)
    throw new Error("The chat is busy with a run (or has no conversation); the app's message was not sent.");
  await sendText(`${APP_MESSAGE_PREFIX}${text}`);
}

async function sendText(text: string): Promise<void> {
  const conversationId = currentId ?? (await newConversation());
  showTranscript([...shown.map((entry) => entry.item), { kind: "user", text }]);
  scrollDown();
  try {
    await streamRun(`/api/conversations/${conversationId}/messages`, {
      text,
      provider: providerSelect.value,
      model: modelInput.value,
    } satisfies TurnBody);
  } catch (error) {
    transcript.append(renderItem({ kind: "notice", level: "error", text: errorMessage(error) }));
  }
}

/** Tokens as a person reads them: 950, 12.4k, 1.2M. */
function tokens(count: number): string {
  if (count < 1000) return String(Math.round(count));
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** How full the model's window was on the turn's last request: tools / history / results / free. */
function contextBar(size: ContextSize): HTMLElement {
  const used = size.tools + size.history + size.toolResults;
  const free = Math.max(0, size.contextWindow - used);
  const parts = [
    { key: "tools", label: "tools", value: size.tools },
    { key: "history", label: "history", value: size.history },
    { key: "results", label: "results", value: size.toolResults },
    { key: "free", label: "free", value: free },
  ];
  const whole = Math.max(size.contextWindow, used);
  return h(
    "div",
    { class: "context-bar", testid: "context-bar", title: "Estimated by Junction's token estimator" },
    h(
      "div",
      { class: "context-track" },
      ...parts.map((part) => {
        const segment = h("span", { class: `context-segment ${part.key}`, testid: `context-${part.key}` });
        segment.style.width = `${((part.value / whole) * 100).toFixed(2)}%`;
        return segment;
      }),
    ),
    h(
      "div",
      { class: "context-legend muted", testid: "context-legend" },
      `${parts.map((part) => `${part.label} ${tokens(part.value)}`).join(" · ")} of ${tokens(size.contextWindow)} tokens`,
    ),
  );
}

/** A run's trace as a waterfall (run → model calls → tool calls → MCP requests), fetched when opened. */
function traceToggle(id: string): HTMLElement {
  const body = h("div", { class: "trace-body" });
  const toggle = h(
    "details",
    { class: "trace", testid: "trace" },
    h("summary", {}, "Trace of this run"),
    body,
  );
  toggle.addEventListener("toggle", () => {
    if (!(toggle as HTMLDetailsElement).open || body.childElementCount > 0) return;
    void api<TraceSpan[]>("GET", `/api/traces/${encodeURIComponent(id)}`).then(
      (spans) => body.append(traceWaterfall(spans)),
      (error) => body.append(h("div", { class: "form-message error" }, errorMessage(error))),
    );
  });
  return toggle;
}

/** Streams one run (a turn, or a stopped run continued by an answer) into the transcript. */
async function streamRun(url: string, body: TurnBody | ChatApprovalBody): Promise<void> {
  let items: TranscriptItem[] = shown.map((entry) => entry.item);
  sendButton.disabled = true;
  stopButton.disabled = false;
  try {
    await postStream<ChatEvent>(url, body, (event) => {
      if (event.type === "run-start") runId = event.runId;
      // The same fold the server stores the transcript with.
      items = foldChatEvent(items, event);
      showTranscript(items);
      scrollDown();
    });
  } finally {
    runId = undefined;
    sendButton.disabled = false;
    stopButton.disabled = true;
    // Cards left waiting for an answer get their buttons now that no run is in progress.
    shown.forEach(({ item }, index) => {
      if (item.kind !== "tool") return;
      const waiting =
        item.status === "awaiting-approval" ||
        (item.program?.calls.some((call) => call.status === "awaiting-approval") ?? false);
      if (waiting) showItem(index, item);
    });
    await loadConversations();
  }
}

async function stop(): Promise<void> {
  if (!runId) return;
  stopButton.disabled = true;
  try {
    await api("POST", `/api/runs/${runId}/stop`, {} satisfies EmptyBody);
  } catch (error) {
    transcript.append(renderItem({ kind: "notice", level: "error", text: errorMessage(error) }));
  }
}
