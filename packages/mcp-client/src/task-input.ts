import { errorMessage } from "@junction/types";
import type { Client } from "@modelcontextprotocol/client";
import { ProtocolErrorCode, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { sdkClientInternals } from "./sdk-internals.js";

/** What each input request a server may embed asks for, and which part of the config answers it. */
const INPUT_KINDS: Record<string, { kind: string; answeredBy: string; capability: string }> = {
  "elicitation/create": {
    kind: "elicitation",
    answeredBy: "handlers.elicitation",
    capability: "elicitation",
  },
  "sampling/createMessage": { kind: "sampling", answeredBy: "handlers.sampling", capability: "sampling" },
  "roots/list": { kind: "roots", answeredBy: "roots", capability: "roots" },
};

/** One round of a task's input: the requests to answer and how the answers go back. */
export interface TaskInputRound {
  taskId: string;
  /** The new entries of the task's `inputRequests`, by key. */
  inputRequests: Record<string, unknown>;
  /** The task's latest `requestState`, echoed with the answers. */
  requestState?: string;
  /** Aborted when the call is given up: the answers are then not sent. */
  signal: AbortSignal;
  /** Sends `tasks/update` with these params (`taskId`, `inputResponses`, `requestState`). */
  update: (params: Record<string, unknown>) => Promise<unknown>;
}

/**
 * Answers the input requests of an `input_required` task (SEP-2663) on the path that answers an
 * `input_required` result of an ordinary request (MRTR, SEP-2322): the SDK client's driver
 * dispatches each entry to the registered handler, then its "retry" is our `tasks/update` with
 * the collected `inputResponses`. Resolves once the server acknowledged them. Rejects as the MRTR
 * driver does (an `SdkError` for a request with no handler or a malformed one, else the
 * handler's or `tasks/update`'s error); {@link taskInputFailure} turns that into the call's error.
 */
export async function answerTaskInput(client: Client, round: TaskInputRound): Promise<void> {
  const resolveInputRequired = sdkClientInternals(client).resolveInputRequired;
  if (!resolveInputRequired) {
    throw new SdkError(
      SdkErrorCode.CapabilityNotSupported,
      "this version of @modelcontextprotocol/client has no multi-round-trip driver to answer input requests with",
    );
  }
  const params = { taskId: round.taskId };
  await resolveInputRequired(
    {
      kind: "input_required",
      inputRequests: round.inputRequests,
      ...(round.requestState === undefined ? {} : { requestState: round.requestState }),
    },
    {
      request: { method: "tasks/update", params },
      options: { signal: round.signal },
      flowStartedAt: Date.now(),
      // The driver's retry carries the original params, the answers and the echoed state: on a
      // task that is the whole of a tasks/update.
      retry: (retryParams) => round.update(retryParams),
    },
  );
}

/** `elicitation (elicitation/create, input request "confirm")`, for each entry. */
export function describeInputRequests(inputRequests: Record<string, unknown>): string {
  return Object.entries(inputRequests)
    .map(([key, entry]) => {
      const method = methodOf(entry);
      const kind = method === undefined ? undefined : INPUT_KINDS[method]?.kind;
      return `${kind ?? "input"} (${method ?? "no method"}, input request "${key}")`;
    })
    .join(" and ");
}

/**
 * The JSON-RPC error the `tools/call` of a task gets when its input could not be answered. The
 * task has been cancelled (`tasks/cancel`) by then: without the answer it cannot go on. A request
 * for a feature this connection has no handler for is `MissingRequiredClientCapability` (-32021,
 * with the missing capability in `data`), which `callTool` rejects with as
 * `mcp-capability-missing`; any other failure is the task's failure (an error result).
 */
export function taskInputFailure(
  error: unknown,
  tool: string,
  inputRequests: Record<string, unknown>,
): { code: number; message: string; data?: unknown } {
  const asked = describeInputRequests(inputRequests);
  const reason = errorMessage(error);
  if (error instanceof SdkError && error.code === SdkErrorCode.CapabilityNotSupported) {
    const method = (error.data as { method?: unknown } | undefined)?.method;
    const missing = typeof method === "string" ? INPUT_KINDS[method] : undefined;
    if (missing) {
      return {
        code: ProtocolErrorCode.MissingRequiredClientCapability,
        message: `the task of tool "${tool}" asked for ${asked}, and this connection has no ${missing.answeredBy} to answer it; the task was cancelled (tasks/cancel)`,
        data: { requiredCapabilities: { [missing.capability]: {} } },
      };
    }
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
    return {
      code: -32603,
      message: `the task of tool "${tool}" sent an invalid input request; the task was cancelled (tasks/cancel): ${reason}`,
    };
  }
  return {
    code: -32603,
    message: `answering the task of tool "${tool}", which asked for ${asked}, failed; the task was cancelled (tasks/cancel): ${reason}`,
  };
}

function methodOf(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const method = (entry as { method?: unknown }).method;
  return typeof method === "string" ? method : undefined;
}
