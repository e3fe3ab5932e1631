import { errorMessage } from "@junction/types";
import { type JSONRPCMessage, parseJSONRPCMessage } from "@modelcontextprotocol/server";

// One line read on stdin, as a JSON-RPC message or as the error that answers it. Pure.

/** JSON-RPC's parse error: the line is not JSON. */
export const PARSE_ERROR_CODE = -32700;
/** JSON-RPC's invalid-request error: JSON, but not a JSON-RPC message MCP accepts. */
export const INVALID_REQUEST_CODE = -32600;

/** What a line is: a message to serve, or a problem answered with a JSON-RPC error. */
export type ReadLine =
  | { message: JSONRPCMessage }
  | {
      /** The error response written back (its `id` is the line's own when it has a usable one, else `null`). */
      answer: { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string } };
      /** What was wrong, for stderr. */
      problem: string;
    };

/**
 * Reads one line (without its newline). The happy path is the SDK's own (`JSON.parse`, then
 * its JSON-RPC schema); only a line that fails it is looked at further, to say what is wrong.
 */
export function readLine(line: string): ReadLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return refused(PARSE_ERROR_CODE, null, `the line is not JSON (${errorMessage(error)}): ${preview(line)}`);
  }
  try {
    return { message: parseJSONRPCMessage(value) };
  } catch {
    return invalid(value, line);
  }
}

/** Why a JSON value is not a JSON-RPC message, and the error that answers it. */
function invalid(value: unknown, line: string): ReadLine {
  if (Array.isArray(value)) {
    return refused(
      INVALID_REQUEST_CODE,
      null,
      `the line is a JSON-RPC batch (an array), which MCP does not use: send one message per line: ${preview(line)}`,
    );
  }
  if (typeof value !== "object" || value === null) {
    return refused(INVALID_REQUEST_CODE, null, `the line is JSON but not an object: ${preview(line)}`);
  }
  const message = value as Record<string, unknown>;
  const id = usableId(message.id);
  if (message.jsonrpc !== "2.0") {
    return refused(
      INVALID_REQUEST_CODE,
      id,
      `the message's "jsonrpc" is ${JSON.stringify(message.jsonrpc) ?? "missing"}, not "2.0": ${preview(line)}`,
    );
  }
  if ("method" in message && typeof message.method !== "string") {
    return refused(
      INVALID_REQUEST_CODE,
      id,
      `the message's "method" is ${typeof message.method}, not a string: ${preview(line)}`,
    );
  }
  if ("id" in message && id === null && message.id !== null) {
    return refused(
      INVALID_REQUEST_CODE,
      null,
      `the message's "id" is ${JSON.stringify(message.id)}, not a string or an integer: ${preview(line)}`,
    );
  }
  return refused(
    INVALID_REQUEST_CODE,
    id,
    `the message is not a JSON-RPC request, notification or response (a request needs "method", a response "result" or "error" with its "id"): ${preview(line)}`,
  );
}

function refused(code: number, id: string | number | null, problem: string): ReadLine {
  const message = code === PARSE_ERROR_CODE ? "Parse error" : "Invalid Request";
  return { answer: { jsonrpc: "2.0", id, error: { code, message: `${message}: ${problem}` } }, problem };
}

/** A JSON-RPC id the error can be sent to: a string or an integer. */
function usableId(id: unknown): string | number | null {
  if (typeof id === "string") return id;
  if (typeof id === "number" && Number.isInteger(id)) return id;
  return null;
}

/** The line as shown in an error: at most 200 characters. */
function preview(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}… (${line.length} characters)` : line;
}
