import type { PendingToolCall } from "@junction/core";
import type { ToolResult } from "@junction/types";
import {
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  type McpServer,
  type RegisteredTool,
  type RequestStateCodec,
  type ServerContext,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import type { AgentRunInput, AgentRunner } from "./agent-run.js";
import { approvalNeeded } from "./agent-tool.js";
import { approvalElicitation, approvalKey, decisionsFrom } from "./approval-input.js";
import type { ApprovalRounds, SealedApprovalRound } from "./approval-rounds.js";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import { clientCapabilitiesOf, type PassThroughRelay } from "./pass-through.js";
import { runWithPassThrough } from "./pass-through-call.js";
import type { ServedToolDefinition } from "./serve-tool.js";
import type { Era } from "./served-types.js";

/**
 * Registers an agent tool for plain `tools/call` (no task): the run goes on while progress
 * notifications go out, and a call that needs a person's approval is asked the client's way: an
 * elicitation within the call on 2025-11-25 sessions, an `input_required` result on 2026-07-28
 * (the stopped run sealed in `requestState`, encrypted, the answers in the retry's
 * `inputResponses`; a round is answered once). A client without elicitation gets an `isError`
 * result naming what it lacks.
 */
export function registerServedAgentTool(
  server: McpServer,
  runner: AgentRunner,
  parts: {
    definition: ServedToolDefinition;
    era: Era;
    codec: RequestStateCodec;
    rounds: ApprovalRounds;
    /** Whether the server's operator answers approvals (`tasks.approver`): the caller is never asked. */
    operator: boolean;
    schema: StandardSchemaWithJSON;
    relay: PassThroughRelay | undefined;
  },
): RegisteredTool {
  const { definition, era, codec, rounds } = parts;
  return server.registerTool(
    definition.name,
    {
      ...(definition.title === undefined ? {} : { title: definition.title }),
      description: definition.description,
      inputSchema: parts.schema,
      ...(definition.annotations ? { annotations: definition.annotations } : {}),
    },
    async (args: unknown, context: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
      const leg = async (input: AgentRunInput | undefined): Promise<CallToolResult | InputRequiredResult> => {
        const step = await runWithPassThrough({
          relay: parts.relay,
          server,
          context,
          era,
          tool: runner.name,
          codec,
          // Not called for the retry of a call parked by the pass-through (it goes on instead).
          start: (work) => runner.run(input ?? runner.parse(args), work),
        });
        if (step.kind === "input") return step.result;
        const outcome = step.value;
        if (outcome.kind === "answer") return toCallToolResult(outcome.result);
        const { state, pending } = outcome;
        if (parts.operator) {
          return toCallToolResult(
            approvalNeeded(
              runner.name,
              pending.map((call) => call.name),
              "this server's operator answers its approvals, never the caller, and a plain call cannot wait for them: call the tool as a task",
            ),
          );
        }
        if (clientCapabilitiesOf(server, context)?.elicitation === undefined) {
          return toCallToolResult(lacking(runner.name, pending, era));
        }
        // Written once, in the 2026-07-28 form: on a 2025-11-25 session the SDK's own shim asks
        // the client each elicitation within the call and calls this handler again with the
        // answers and the round, as a 2026 client's retry does.
        const inputRequests: Record<string, { method: "elicitation/create"; params: unknown }> = {};
        for (const item of pending) {
          inputRequests[approvalKey(item)] = {
            method: "elicitation/create",
            params: approvalElicitation(runner.name, item),
          };
        }
        const sealed = await rounds.seal(runner.name, { state, pending });
        const requestState = await codec.mint(sealed, context);
        return inputRequired({ inputRequests: inputRequests as never, requestState });
      };
      try {
        const round = context.mcpReq.requestState<SealedApprovalRound>();
        if (round && round.kind === "junction.agent-approval" && round.tool === runner.name) {
          const { state, pending } = await rounds.open(round);
          const decisions = decisionsFrom(pending, context.mcpReq.inputResponses ?? {});
          // The first retry of the round takes it; a duplicate gets its outcome, never a second run.
          return await rounds.once(round.round, () => leg({ state, decisions }));
        }
        return await leg(undefined);
      } catch (error) {
        if (context.mcpReq.signal.aborted) throw error;
        return toolErrorResult(definition.name, error);
      }
    },
  );
}

function lacking(name: string, pending: PendingToolCall[], era: Era): ToolResult {
  return approvalNeeded(
    name,
    pending.map((call) => call.name),
    era === "modern"
      ? "this client declared no elicitation capability, so the server cannot ask it (input_required)"
      : "this client declared no elicitation capability at initialize, so the server cannot ask it",
  );
}
