import { describeResourceLink, isRecord, structuredContentForModel } from "@junction/provider-utils";
import type {
  AssistantContentPart,
  Message,
  ProviderMetadata,
  ToolNameMapping,
  ToolResult,
  ToolResultPart,
  Warning,
} from "@junction/types";
import type OpenAI from "openai";
import {
  type OpenAIProgramCaller,
  type OpenAIProgramItem,
  type OpenAIProgramOutputItem,
  programItemFault,
  programOutputItemFault,
  readCaller,
} from "./openai-programmatic-tools.js";

/** One item of a Responses API `input`. */
export type OpenAIInputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;
type FunctionOutputContent = OpenAI.Responses.ResponseFunctionCallOutputItem;

/** What the Responses API needs echoed back for one assistant part, kept in `providerMetadata.openai`. */
export interface OpenAIPartMetadata {
  /** The output item id (`msg_…`, `rs_…`, `fc_…`). Parts of one reasoning item share it. */
  itemId?: string;
  /** A reasoning item's encrypted state (returned when `store` is false and it was included). */
  encryptedContent?: string;
  /** An assistant message's `phase` (`commentary`, `final_answer`), which newer models want back. */
  phase?: string;
  /**
   * True for a reasoning part holding the reasoning item's own text (its `content` of type
   * `reasoning_text`, as LM Studio and other compatible servers send it), not a summary.
   */
  reasoningText?: boolean;
  /**
   * A hosted MCP server's request for approval (an `mcp_approval_request` output item), kept on
   * an empty text part. Junction never answers it on its own.
   */
  mcpApprovalRequest?: OpenAIMCPApprovalRequest;
  /**
   * The caller's answer to `mcpApprovalRequest`, set on the same part. The next request then
   * sends the approval request and an `mcp_approval_response` item; without an answer the
   * request is left out of the next request, with a warning.
   */
  mcpApprovalResponse?: OpenAIMCPApprovalResponse;
  /**
   * OpenAI's hosted tool search: a `tool_search_call` or `tool_search_output` item exactly as
   * OpenAI sent it, kept on an empty reasoning part and sent back unchanged, so the tools it found
   * stay loaded.
   */
  toolSearchItem?: Record<string, unknown>;
  /** The namespace a function call named (a tool loaded by the tool search), sent back with it. */
  namespace?: string;
  /**
   * Programmatic Tool Calling: a `program` item (the JavaScript the model wrote, in `code`, with
   * its `id`, `call_id` and opaque `fingerprint`) exactly as OpenAI sent it, kept on an empty
   * reasoning part and sent back unchanged at its place in the turn.
   */
  programItem?: OpenAIProgramItem;
  /** A `program_output` item (what a finished program returned), kept and sent back like `programItem`. */
  programOutputItem?: OpenAIProgramOutputItem;
  /**
   * On a tool call a program made: the program that made it (`caller_id` is its `program` item's
   * `call_id`). Sent back on the `function_call` and on its `function_call_output`, so the
   * program goes on.
   */
  caller?: OpenAIProgramCaller;
}

/** A hosted MCP tool call waiting for approval, as OpenAI sent it (all of it untrusted). */
export interface OpenAIMCPApprovalRequest {
  /** The approval request id (`mcpr_…`), which the answer refers to. */
  id: string;
  /** The `server_label` of the hosted MCP tool. */
  serverLabel: string;
  /** The MCP tool the server would run. */
  name: string;
  /** The tool's arguments, as JSON text. */
  arguments: string;
}

/** The caller's decision on an {@link OpenAIMCPApprovalRequest}. */
export interface OpenAIMCPApprovalResponse {
  approve: boolean;
  /** Why, for the model (mostly for a denial). */
  reason?: string;
}

/**
 * Converts neutral messages to Responses API input items. Pure.
 *
 * - User text, images (data URLs) and PDFs (`input_file`) are sent natively; audio cannot be
 *   sent in a Responses API message and becomes a warning with a text note in its place.
 * - Assistant text, reasoning (with its item id and encrypted content, from
 *   `providerMetadata[providerName]`), function calls (with their namespace) and the hosted tool
 *   search's `tool_search_call` / `tool_search_output` items are echoed back. Reasoning from
 *   another provider has nothing OpenAI can take, and becomes a warning.
 * - A hosted MCP approval request in the last assistant message goes back with the caller's
 *   answer (`mcpApprovalResponse`) as `mcp_approval_request` + `mcp_approval_response` items; an
 *   unanswered one is left out with a warning. Approvals in older messages are not sent again:
 *   OpenAI acted on them when they were, and sending them again could run the tool again.
 * - Programmatic Tool Calling
 *   (https://developers.openai.com/api/docs/guides/tools-programmatic-tool-calling.md): `program`
 *   and `program_output` items go back unchanged where they were in the turn (the SDK's `Program`:
 *   "Opaque program replay fingerprint that must be round-tripped"); a call a program made goes
 *   back with its `caller`, and so does its `function_call_output` (`FunctionCallOutput.caller`),
 *   so the program goes on with the result: the order openai/openai-agents-js replays
 *   (`packages/agents-core/test/run.test.ts`, "continues Programmatic Tool Calling through nested
 *   calls and program output": the program, its calls, their outputs with the caller).
 *   `programs` holds the code of each program the history holds, by its `call_id`: a later call
 *   may name one as its caller, and its tool-call part then carries that code.
 * - Tool results: a plain string stays a string; a `ToolResult` becomes an array of
 *   `input_text`, `input_image` and `input_file` items.
 */
export function convertToOpenAIMessages(options: {
  messages: Message[];
  toolNames: ToolNameMapping;
  /** Key of this provider's entry in `providerMetadata`. @default "openai" */
  providerName?: string;
}): { input: OpenAIInputItem[]; warnings: Warning[]; programs: Map<string, string> } {
  const providerName = options.providerName ?? "openai";
  const input: OpenAIInputItem[] = [];
  const warnings: Warning[] = [];
  // Who made each call (by call id), for its output: the calls come before their results.
  const callers = new Map<string, OpenAIProgramCaller>();
  const programs = new Map<string, string>();
  const lastAssistant = options.messages.findLastIndex((message) => message.role === "assistant");

  for (const [index, message] of options.messages.entries()) {
    switch (message.role) {
      case "user": {
        if (typeof message.content === "string") {
          input.push({ role: "user", content: message.content });
          break;
        }
        const content: InputContent[] = [];
        for (const part of message.content) {
          const converted = convertContentPart(
            part,
            { where: `message ${index}`, context: "user" },
            warnings,
          );
          if (converted) content.push(converted as InputContent);
        }
        input.push({ role: "user", content });
        break;
      }
      case "assistant":
        input.push(
          ...convertAssistant(message.content, {
            index,
            providerName,
            toolNames: options.toolNames,
            // Approvals answer the latest turn only: OpenAI acted on older ones when they were sent.
            latest: index === lastAssistant,
            warnings,
            callers,
            programs,
          }),
        );
        break;
      case "tool":
        for (const part of message.content) {
          const caller = callers.get(part.toolCallId);
          input.push({
            type: "function_call_output",
            call_id: part.toolCallId,
            output: convertToolOutput(part.output, `tool result ${part.toolCallId}`, warnings),
            ...(caller ? { caller } : {}),
          });
        }
        break;
      default: {
        const unknown: never = message;
        warnings.push({
          code: "message-unsupported",
          message: `Message ${index} has an unknown role ${JSON.stringify((unknown as { role?: unknown }).role)}; not sent.`,
        });
      }
    }
  }
  return { input, warnings, programs };
}

function convertAssistant(
  parts: AssistantContentPart[],
  context: {
    index: number;
    providerName: string;
    toolNames: ToolNameMapping;
    /** True for the conversation's last assistant message, the only one whose approvals are sent. */
    latest: boolean;
    warnings: Warning[];
    /** Filled: the caller of each call a program made, by call id. */
    callers: Map<string, OpenAIProgramCaller>;
    /** Filled: the code of each program item, by its `call_id`. */
    programs: Map<string, string>;
  },
): OpenAIInputItem[] {
  const { index, providerName, toolNames, warnings } = context;
  const items: OpenAIInputItem[] = [];
  let reasoning: OpenAI.Responses.ResponseReasoningItem | undefined;
  let message: { itemId?: string; phase?: string; texts: string[] } | undefined;

  const flushMessage = () => {
    if (!message) return;
    const text = message.texts.join("");
    if (message.itemId) {
      const item: OpenAI.Responses.ResponseOutputMessage = {
        type: "message",
        role: "assistant",
        id: message.itemId,
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      };
      if (message.phase) item.phase = message.phase as OpenAI.Responses.ResponseOutputMessage["phase"];
      items.push(item);
    } else {
      items.push({ role: "assistant", content: text });
    }
    message = undefined;
  };

  for (const part of parts) {
    const metadata = metadataOf(part.providerMetadata, providerName);
    const kept = metadata.toolSearchItem ?? metadata.programItem ?? metadata.programOutputItem;
    if (kept) {
      flushMessage();
      reasoning = undefined;
      if (metadata.programItem) context.programs.set(metadata.programItem.call_id, metadata.programItem.code);
      items.push(kept as unknown as OpenAIInputItem);
      continue;
    }
    if (metadata.mcpApprovalRequest) {
      flushMessage();
      reasoning = undefined;
      if (context.latest)
        items.push(
          ...approvalItems(
            { request: metadata.mcpApprovalRequest, response: metadata.mcpApprovalResponse },
            index,
            warnings,
          ),
        );
      continue;
    }
    switch (part.type) {
      case "text": {
        if (message && message.itemId !== metadata.itemId) flushMessage();
        reasoning = undefined;
        message ??= { itemId: metadata.itemId, phase: metadata.phase, texts: [] };
        message.texts.push(part.text);
        break;
      }
      case "reasoning": {
        flushMessage();
        if (!metadata.itemId) {
          warnings.push({
            code: "reasoning-not-sent",
            message: `Message ${index}: reasoning without OpenAI item metadata (from another provider) cannot be sent to OpenAI; left out.`,
          });
          break;
        }
        if (reasoning?.id !== metadata.itemId) {
          reasoning = { type: "reasoning", id: metadata.itemId, summary: [] };
          items.push(reasoning);
        }
        if (metadata.reasoningText) {
          reasoning.content ??= [];
          reasoning.content.push({ type: "reasoning_text", text: part.text });
        } else if (part.text) reasoning.summary.push({ type: "summary_text", text: part.text });
        if (metadata.encryptedContent) reasoning.encrypted_content = metadata.encryptedContent;
        break;
      }
      case "tool-call": {
        flushMessage();
        reasoning = undefined;
        const item: OpenAI.Responses.ResponseFunctionToolCall = {
          type: "function_call",
          call_id: part.id,
          name: toolNames.toVendor(part.name),
          arguments: part.input === undefined ? "{}" : JSON.stringify(part.input),
        };
        if (metadata.itemId) item.id = metadata.itemId;
        if (metadata.namespace) item.namespace = metadata.namespace;
        if (metadata.caller) {
          item.caller = metadata.caller;
          context.callers.set(part.id, metadata.caller);
        }
        items.push(item);
        break;
      }
      default: {
        const unknown: never = part;
        warnings.push({
          code: "content-unsupported",
          message: `Message ${index}: assistant part of unknown type ${JSON.stringify((unknown as { type?: unknown }).type)}; not sent.`,
        });
      }
    }
  }
  flushMessage();
  return items;
}

/** The approval request echoed with the caller's answer; an unanswered request is left out. */
function approvalItems(
  {
    request,
    response,
  }: { request: OpenAIMCPApprovalRequest; response: OpenAIMCPApprovalResponse | undefined },
  index: number,
  warnings: Warning[],
): OpenAIInputItem[] {
  if (!response) {
    warnings.push({
      code: "mcp-approval-unanswered",
      message: `Message ${index}: the hosted MCP approval request ${request.id} ("${request.name}" on "${request.serverLabel}") has no answer (providerMetadata.openai.mcpApprovalResponse), so it is left out and the tool does not run.`,
    });
    return [];
  }
  return [
    {
      type: "mcp_approval_request",
      id: request.id,
      server_label: request.serverLabel,
      name: request.name,
      arguments: request.arguments,
    },
    {
      type: "mcp_approval_response",
      approval_request_id: request.id,
      approve: response.approve,
      ...(response.reason !== undefined ? { reason: response.reason } : {}),
    },
  ];
}

function metadataOf(metadata: ProviderMetadata | undefined, providerName: string): OpenAIPartMetadata {
  const entry = metadata?.[providerName];
  if (!entry) return {};
  const out: OpenAIPartMetadata = {};
  if (typeof entry.itemId === "string") out.itemId = entry.itemId;
  if (typeof entry.encryptedContent === "string") out.encryptedContent = entry.encryptedContent;
  if (typeof entry.phase === "string") out.phase = entry.phase;
  if (entry.reasoningText === true) out.reasoningText = true;
  if (typeof entry.namespace === "string" && entry.namespace !== "") out.namespace = entry.namespace;
  const searchItem = entry.toolSearchItem;
  if (
    isRecord(searchItem) &&
    (searchItem.type === "tool_search_call" || searchItem.type === "tool_search_output")
  )
    out.toolSearchItem = searchItem;
  const program = entry.programItem;
  if (isRecord(program) && program.type === "program" && programItemFault(program) === undefined)
    out.programItem = program as OpenAIProgramItem;
  const programOutput = entry.programOutputItem;
  if (
    isRecord(programOutput) &&
    programOutput.type === "program_output" &&
    programOutputItemFault(programOutput) === undefined
  )
    out.programOutputItem = programOutput as OpenAIProgramOutputItem;
  const { caller } = readCaller(entry.caller);
  if (caller) out.caller = caller;
  const request = entry.mcpApprovalRequest;
  if (
    isRecord(request) &&
    typeof request.id === "string" &&
    typeof request.serverLabel === "string" &&
    typeof request.name === "string" &&
    typeof request.arguments === "string"
  )
    out.mcpApprovalRequest = {
      id: request.id,
      serverLabel: request.serverLabel,
      name: request.name,
      arguments: request.arguments,
    };
  const response = entry.mcpApprovalResponse;
  // Only an explicit boolean counts as an answer: anything else is no approval.
  if (isRecord(response) && typeof response.approve === "boolean")
    out.mcpApprovalResponse = {
      approve: response.approve,
      ...(typeof response.reason === "string" ? { reason: response.reason } : {}),
    };
  return out;
}

function convertToolOutput(
  output: string | ToolResult,
  where: string,
  warnings: Warning[],
): string | FunctionOutputContent[] {
  if (typeof output === "string") return output;
  const items: FunctionOutputContent[] = [];
  // The Responses API has no error flag on a function output: say it in the output itself.
  if (output.isError) items.push({ type: "input_text", text: "The tool call failed." });
  for (const part of output.content) {
    const converted = convertContentPart(part, { where, context: "tool" }, warnings);
    if (converted) items.push(converted as FunctionOutputContent);
  }
  const structured = structuredContentForModel(output);
  if (structured !== undefined) items.push({ type: "input_text", text: JSON.stringify(structured) });
  return items.length > 0 ? items : "";
}

/** One MCP content block as `input_text`, `input_image` or `input_file`; what has no form becomes a warning and a note. */
function convertContentPart(
  part: ToolResultPart,
  { where, context }: { where: string; context: "user" | "tool" },
  warnings: Warning[],
): InputContent | FunctionOutputContent | undefined {
  switch (part.type) {
    case "text":
      return { type: "input_text", text: part.text };
    case "image":
      return image(part.mimeType, part.data, context);
    case "audio":
      warnings.push({
        code: context === "user" ? "user-audio-unsupported" : "tool-result-audio-unsupported",
        message: `${where}: OpenAI's Responses API cannot take audio (${part.mimeType}) here; replaced with a text note.`,
      });
      return {
        type: "input_text",
        text: `[audio (${part.mimeType}) omitted: not supported by this model API]`,
      };
    case "resource": {
      const { uri, mimeType, text, blob } = part.resource;
      if (text !== undefined) return { type: "input_text", text: `[resource ${uri}]\n${text}` };
      if (blob !== undefined && mimeType?.startsWith("image/")) return image(mimeType, blob, context);
      if (blob !== undefined && mimeType === "application/pdf")
        return { type: "input_file", filename: fileName(uri), file_data: `data:${mimeType};base64,${blob}` };
      warnings.push({
        code: "resource-unsupported",
        message: `${where}: resource ${uri} (${mimeType ?? "unknown type"}) has no form OpenAI accepts; replaced with a text note.`,
      });
      return { type: "input_text", text: `[resource ${uri} (${mimeType ?? "unknown type"}) omitted]` };
    }
    case "resource_link":
      return { type: "input_text", text: `[resource link: ${describeResourceLink(part)}]` };
    default: {
      const unknown: never = part;
      warnings.push({
        code: "content-unsupported",
        message: `${where}: content of unknown type ${JSON.stringify((unknown as { type?: unknown }).type)}; not sent.`,
      });
      return undefined;
    }
  }
}

function image(
  mimeType: string,
  data: string,
  context: "user" | "tool",
): InputContent | FunctionOutputContent {
  const imageUrl = `data:${mimeType};base64,${data}`;
  // Message images require `detail`; function outputs take it as optional and default to auto.
  return context === "user"
    ? { type: "input_image", image_url: imageUrl, detail: "auto" }
    : { type: "input_image", image_url: imageUrl };
}

function fileName(uri: string): string {
  const last = uri.split(/[/\\]/).filter(Boolean).pop();
  return last && !last.includes(":") ? last : "document.pdf";
}
