import { Agent, annotationPolicy, type RunState } from "@junction/core";
import type { Tool } from "@junction/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScriptedTurn, VendorAdapter, VendorFake } from "./vendor-adapter.ts";

function recordingTool(
  runs: string[],
  { name, description, defer }: { name: string; description: string; defer: boolean },
): Tool {
  return {
    name,
    description,
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
    ...(defer ? { defer: true } : { alwaysLoad: true, annotations: { readOnlyHint: true } }),
    execute: async (input: { city?: string }) => {
      runs.push(name);
      return `${name}: sunny in ${input.city ?? "nowhere"}`;
    },
  };
}

/** One loaded tool and four deferred ones, fresh for each Agent. */
function tools(runs: string[]): Tool[] {
  return [
    recordingTool(runs, { name: "clock", description: "Tells the current time.", defer: false }),
    recordingTool(runs, {
      name: "get_forecast",
      description: "Gets the weather forecast for a city.",
      defer: true,
    }),
    recordingTool(runs, { name: "send_email", description: "Sends an email to a recipient.", defer: true }),
    recordingTool(runs, {
      name: "create_issue",
      description: "Creates an issue in a repository.",
      defer: true,
    }),
    recordingTool(runs, { name: "list_files", description: "Lists the files in a directory.", defer: true }),
  ];
}

const searchTurn: ScriptedTurn = {
  responseId: "resp_search",
  toolCalls: [
    {
      id: "call_search_1",
      name: "search_tools",
      input: { query: "weather forecast" },
      argumentPieces: ['{"query":', '"weather forecast"}'],
    },
  ],
  finish: "tool-calls",
  usage: { inputTokens: 30, outputTokens: 10 },
};

const forecastTurn: ScriptedTurn = {
  responseId: "resp_forecast",
  toolCalls: [
    {
      id: "call_forecast_1",
      name: "get_forecast",
      input: { city: "Paris" },
      argumentPieces: ['{"city":', '"Paris"}'],
    },
  ],
  finish: "tool-calls",
  usage: { inputTokens: 40, outputTokens: 10 },
};

const answerTurn: ScriptedTurn = {
  responseId: "resp_answer",
  text: ["Sunny in Paris."],
  finish: "stop",
  usage: { inputTokens: 50, outputTokens: 5 },
};

/**
 * Deferred tools and the client-side tool search through the vendor's real SDK and wire: an Agent
 * offers the loaded tool and `search_tools`; the model searches, the found tool is declared on the
 * next request, its call waits for approval, and a new Agent resumed from the JSON state declares
 * it again and runs it.
 */
export function defineToolSearchContract(vendor: VendorAdapter): void {
  describe(`${vendor.name}: deferred tools and tool search`, () => {
    let fake: VendorFake;
    beforeEach(async () => {
      fake = await vendor.startFake();
    });
    afterEach(async () => {
      await fake.close();
    });

    it("searches, loads and calls a deferred tool, and keeps it loaded after a resume", async () => {
      const runs: string[] = [];
      const agentWith = (runsOf: string[]) =>
        new Agent({
          provider: vendor.createProvider({ baseURL: fake.url, maxRetries: 0 }),
          model: vendor.model,
          tools: tools(runsOf),
          approval: annotationPolicy(),
          // Junction's own search on every vendor; Anthropic's native one has its own wire test.
          toolSearch: { native: false },
        });
      fake.enqueue(
        { kind: "turn", turn: searchTurn, tools: ["clock", "search_tools"] },
        { kind: "turn", turn: forecastTurn, tools: ["clock", "get_forecast", "search_tools"] },
      );
      const stopped = await agentWith(runs).send("Weather in Paris?").final;
      expect(stopped.finishReason).toBe("approval-required");
      expect(stopped.pending?.map((call) => call.name)).toEqual(["get_forecast"]);
      const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
      expect(state.loadedTools).toEqual(["get_forecast"]);

      fake.enqueue({ kind: "turn", turn: answerTurn, tools: ["clock", "get_forecast", "search_tools"] });
      const pendingId = stopped.pending![0]!.id;
      const resumed = await agentWith(runs).resume({ state, decisions: { [pendingId]: "approve" } }).final;
      expect(resumed.text).toBe("Sunny in Paris.");
      expect(runs).toEqual(["get_forecast"]);

      const declared = fake.requests.map((request) => vendor.toolNames(request.body));
      expect(declared).toEqual([
        ["clock", "search_tools"],
        ["clock", "get_forecast", "search_tools"],
        ["clock", "get_forecast", "search_tools"],
      ]);
    });
  });
}
