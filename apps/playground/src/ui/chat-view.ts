import { api, postStream } from "./api.js";
import { clear, h, jsonBlock } from "./dom.js";
import { appendChatApp, rememberToolCard } from "./mcp-app-frame.js";
import { renderToolResult } from "./render-content.js";

interface ProviderInfo {
  id: string;
  label: string;
  source: string;
  defaultModel: string;
  models: string[];
}
interface ConversationSummary {
  id: string;
  title: string;
  provider: string;
  model: string;
}
type TranscriptItem =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | {
      kind: "tool";
      id: string;
      name: string;
      server: string | null;
      input: unknown;
      status: string;
      result?: unknown;
      durationMs?: number;
      truncated?: string;
    }
  | { kind: "notice"; level: string; text: string };

let providers: ProviderInfo[] = [];
let conversations: ConversationSummary[] = [];
let currentId: string | undefined;
let runId: string | undefined;
let root: HTMLElement;
let transcript: HTMLElement;
let providerSelect: HTMLSelectElement;
let modelInput: HTMLInputElement;
let composer: HTMLTextAreaElement;
let sendButton: HTMLButtonElement;
let stopButton: HTMLButtonElement;
let banner: HTMLElement;
let conversationList: HTMLElement;
const toolCards = new Map<string, HTMLElement>();

/** The chat view: conversations, provider and model, the transcript, and the composer. */
export async function mountChatView(container: HTMLElement, initialProviders: ProviderInfo[]): Promise<void> {
  root = container;
  providers = initialProviders;
  conversationList = h("nav", { class: "conversation-list", testid: "conversation-list" });
  providerSelect = h("select", { testid: "provider-select", onchange: () => onProviderChange() });
  modelInput = h("input", { type: "text", testid: "model-input" });
  modelInput.setAttribute("list", "model-options");
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
                    });
                    providers = (await api<{ providers: ProviderInfo[] }>("GET", "/api/state")).providers;
                    renderProviders();
                    dialog.close();
                    dialog.remove();
                  } catch (error) {
                    message.className = "form-message error";
                    message.textContent = (error as Error).message;
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
                clear(transcript);
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

async function openConversation(id: string): Promise<void> {
  const conversation = await api<ConversationSummary & { transcript: TranscriptItem[] }>(
    "GET",
    `/api/conversations/${id}`,
  );
  currentId = id;
  if (providers.some((provider) => provider.id === conversation.provider)) {
    providerSelect.value = conversation.provider;
    onProviderChange();
    modelInput.value = conversation.model;
  }
  clear(transcript);
  toolCards.clear();
  for (const item of conversation.transcript) transcript.append(renderItem(item));
  await loadConversations();
  scrollDown();
}

async function newConversation(): Promise<string> {
  const conversation = await api<ConversationSummary>("POST", "/api/conversations", {
    provider: providerSelect.value,
    model: modelInput.value,
  });
  currentId = conversation.id;
  clear(transcript);
  toolCards.clear();
  await loadConversations();
  composer.focus();
  return conversation.id;
}

function renderItem(item: TranscriptItem): HTMLElement {
  switch (item.kind) {
    case "user":
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
    case "tool": {
      const card = toolCard(item.id, item.name, item.server, item.input);
      setToolStatus(card, item.status, item.result, item.durationMs, item.truncated);
      return card;
    }
    case "notice":
      return h("div", { class: `notice ${item.level}`, testid: "notice" }, item.text);
    default: {
      const unknown: never = item;
      return h("div", { class: "notice warning" }, `Unknown transcript item: ${JSON.stringify(unknown)}`);
    }
  }
}

function toolCard(id: string, name: string, server: string | null, input: unknown): HTMLElement {
  const card = h(
    "div",
    { class: "tool-card", testid: "tool-card" },
    h(
      "div",
      { class: "tool-card-header" },
      h("span", { class: "tool-name", testid: "tool-card-name" }, name),
      server ? h("span", { class: "badge" }, `server: ${server}`) : null,
      h("span", { class: "tool-status", testid: "tool-card-status" }, "running…"),
    ),
    h("details", { class: "tool-input" }, h("summary", {}, "arguments"), jsonBlock(input)),
    h("div", { class: "tool-card-body" }),
  );
  card.dataset.callId = id;
  toolCards.set(id, card);
  rememberToolCard(card, server, name, input);
  return card;
}

function setToolStatus(
  card: HTMLElement,
  status: string,
  result?: unknown,
  durationMs?: number,
  truncated?: string,
): void {
  const label = card.querySelector(".tool-status")!;
  label.textContent =
    status === "done"
      ? `done in ${durationMs ?? "?"} ms`
      : status === "awaiting-approval"
        ? "waiting for approval"
        : status;
  card.dataset.status = status;
  const body = card.querySelector(".tool-card-body")!;
  if (result !== undefined) {
    body.replaceChildren(renderToolResult(result, undefined, truncated));
    if (status === "done") void appendChatApp(card, body as HTMLElement, result);
  }
}

function scrollDown(): void {
  transcript.scrollTop = transcript.scrollHeight;
}

async function send(): Promise<void> {
  const text = composer.value.trim();
  if (!text || runId) return;
  const conversationId = currentId ?? (await newConversation());
  composer.value = "";
  transcript.append(renderItem({ kind: "user", text }));
  let assistant: HTMLElement | undefined;
  sendButton.disabled = true;
  stopButton.disabled = false;
  try {
    await postStream(
      `/api/conversations/${conversationId}/messages`,
      { text, provider: providerSelect.value, model: modelInput.value },
      (event) => {
        switch (event.type) {
          case "run-start":
            runId = event.runId;
            // Call ids are unique within a run only.
            toolCards.clear();
            break;
          case "text-delta":
            if (!assistant) {
              assistant = renderItem({ kind: "assistant", text: "" });
              transcript.append(assistant);
            }
            assistant.querySelector(".text")!.append(String(event.text));
            break;
          case "tool-call":
            assistant = undefined;
            if (!toolCards.has(event.id))
              transcript.append(toolCard(event.id, event.name, event.server, event.input));
            break;
          case "approval-request": {
            const card = toolCards.get(event.id) ?? toolCard(event.id, event.name, event.server, event.input);
            if (!card.isConnected) transcript.append(card);
            setToolStatus(card, "awaiting-approval");
            // The arguments asked about are the request's own: what runs if approved.
            card
              .querySelector(".tool-input")
              ?.replaceWith(
                h("details", { class: "tool-input" }, h("summary", {}, "arguments"), jsonBlock(event.input)),
              );
            const answer = async (approve: boolean) => {
              for (const button of prompt.querySelectorAll("button")) button.disabled = true;
              try {
                await api("POST", `/api/runs/${runId}/approvals/${encodeURIComponent(event.id)}`, {
                  approve,
                });
              } catch (error) {
                prompt.append(h("div", { class: "form-message error" }, (error as Error).message));
              }
            };
            const prompt = h(
              "div",
              { class: "approval", testid: "approval" },
              h("span", {}, `Allow ${event.name} to run with these arguments?`),
              jsonBlock(event.input, "approval-arguments"),
              h(
                "button",
                { class: "primary", testid: "approve", onclick: () => void answer(true) },
                "Approve",
              ),
              h("button", { class: "danger", testid: "deny", onclick: () => void answer(false) }, "Deny"),
            );
            card.querySelector(".tool-card-body")!.replaceChildren(prompt);
            break;
          }
          case "approval-answered": {
            const card = toolCards.get(event.id);
            if (card) {
              setToolStatus(card, event.approved ? "running…" : "denied");
              card.querySelector(".approval")?.remove();
            }
            break;
          }
          case "tool-result": {
            assistant = undefined;
            const card = toolCards.get(event.id);
            if (card)
              setToolStatus(
                card,
                card.dataset.status === "denied" ? "denied" : "done",
                event.result,
                event.durationMs,
                event.truncated,
              );
            break;
          }
          case "warning":
            transcript.append(renderItem({ kind: "notice", level: "warning", text: event.message }));
            break;
          case "error":
            for (const card of toolCards.values()) {
              const status = card.dataset.status;
              if (status === undefined || status === "running…" || status === "awaiting-approval") {
                setToolStatus(card, event.aborted ? "stopped" : "denied");
                card.querySelector(".approval")?.remove();
              }
            }
            transcript.append(
              renderItem({ kind: "notice", level: event.aborted ? "info" : "error", text: event.message }),
            );
            break;
          case "finish":
            break;
          default:
            transcript.append(
              renderItem({
                kind: "notice",
                level: "warning",
                text: `Unknown event ${JSON.stringify(event)}`,
              }),
            );
        }
        scrollDown();
      },
    );
  } catch (error) {
    transcript.append(renderItem({ kind: "notice", level: "error", text: (error as Error).message }));
  } finally {
    runId = undefined;
    sendButton.disabled = false;
    stopButton.disabled = true;
    await loadConversations();
  }
}

async function stop(): Promise<void> {
  if (!runId) return;
  stopButton.disabled = true;
  try {
    await api("POST", `/api/runs/${runId}/stop`, {});
  } catch (error) {
    transcript.append(renderItem({ kind: "notice", level: "error", text: (error as Error).message }));
  }
}
