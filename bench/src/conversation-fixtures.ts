// A long conversation in both SDKs' shapes, and a lean Chat Completions fake that answers one
// tool call and then text, whatever the conversation before it holds. Shared by the turn bench
// and its heap child process.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message } from "@junction/types";
import type { ModelMessage } from "ai";

/** Characters of every tool result in the conversation, and of the one the turn's tool returns. */
export const TOOL_RESULT_CHARS = 2048;

/** The tool the fake asks for on a turn's first request. */
export const TURN_TOOL = "lookup";

/**
 * `count` prior messages (a multiple of 4) in blocks of four (a user question, an assistant tool call, its 2 KB
 * result, the assistant's answer). Every string is its own (flat, not shared), so the heap holds
 * what a stored conversation loaded by a server does.
 */
export function conversation(count: number): { junction: Message[]; aiSDK: ModelMessage[] } {
  if (count % 4 !== 0) throw new Error(`conversation(): ${count} is not a whole number of 4-message blocks`);
  const junction: Message[] = [];
  const aiSDK: ModelMessage[] = [];
  for (let index = 0; index < count; index++) {
    const block = Math.floor(index / 4);
    const id = `call_prior_${block}`;
    switch (index % 4) {
      case 0: {
        const text = `Question ${block}: what does record ${block} say about the quarterly figures?`;
        junction.push({ role: "user", content: text });
        aiSDK.push({ role: "user", content: text });
        break;
      }
      case 1: {
        const input = { id: block, fields: ["summary", "figures"] };
        junction.push({ role: "assistant", content: [{ type: "tool-call", id, name: TURN_TOOL, input }] });
        aiSDK.push({
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: id, toolName: TURN_TOOL, input }],
        });
        break;
      }
      case 2: {
        const text = resultText(block);
        junction.push({
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: id,
              toolName: TURN_TOOL,
              output: { content: [{ type: "text", text }], isError: false },
            },
          ],
        });
        aiSDK.push({
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: id,
              toolName: TURN_TOOL,
              output: { type: "text", value: text },
            },
          ],
        });
        break;
      }
      default: {
        const text = `Record ${block} shows the quarterly figures rising; the summary names three causes and one risk.`;
        junction.push({ role: "assistant", content: [{ type: "text", text }] });
        aiSDK.push({ role: "assistant", content: [{ type: "text", text }] });
      }
    }
  }
  // A deep copy: no string or object is shared between messages or SDKs. Not through JSON.parse,
  // although a server loads a conversation that way: V8 keeps parsed objects less compactly (here
  // about 1.7× the heap), which would make the Agent's own copy look smaller than the conversation.
  return { junction: structuredClone(junction), aiSDK: structuredClone(aiSDK) };
}

/** A 2 KB tool result whose text differs from every other's. */
export function resultText(seed: number): string {
  const head = `Record ${seed}: `;
  let text = head;
  for (let line = 0; text.length < TOOL_RESULT_CHARS; line++)
    text += `row ${seed}.${line}: revenue ${(seed * 31 + line * 7) % 997}, cost ${(seed * 17 + line) % 613}; `;
  return text.slice(0, TOOL_RESULT_CHARS);
}

/** A request body about the size of the one both agents send: for the bare HTTP floor. */
export function floorBody(messages: Message[]): string {
  return JSON.stringify({ model: "bench", stream: true, messages });
}

export interface TurnFake {
  url: string;
  close(): Promise<void>;
}

/**
 * A Chat Completions endpoint on loopback that asks for one `lookup` call when the request's last
 * message is not a tool result, and answers with text when it is. It reads the whole body (as a
 * server must) but parses none of it: it finds the last `"role":"…"` in the raw text (a tool
 * result's own text is escaped inside a JSON string, so it cannot match), so the fake's own cost
 * stays flat however long the conversation, and what grows is the agents'.
 */
export async function startTurnFake(): Promise<TurnFake> {
  let calls = 0;
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString("utf8");
    const roles = [...text.slice(-(TOOL_RESULT_CHARS * 4)).matchAll(/"role":\s*"(\w+)"/g)];
    const lastRole = roles.at(-1)?.[1];
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunks =
      lastRole === "tool" ? textChunks("Record 1 shows the figures rising.") : toolCallChunks(calls++);
    for (const chunk of chunks) response.write(chunk);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const chunk = (choices: unknown[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices, ...extra })}\n\n`;

function toolCallChunks(call: number): string[] {
  return [
    chunk([
      {
        index: 0,
        delta: {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              index: 0,
              id: `call_turn_${call}`,
              type: "function",
              function: { name: TURN_TOOL, arguments: '{"id": 1, "fields": ["summary"]}' },
            },
          ],
        },
        finish_reason: null,
      },
    ]),
    chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]),
    chunk([], { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
    "data: [DONE]\n\n",
  ];
}

function textChunks(text: string): string[] {
  return [
    chunk([{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    chunk([], { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } }),
    "data: [DONE]\n\n",
  ];
}
