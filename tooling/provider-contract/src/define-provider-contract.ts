import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { afterEach, beforeEach, describe, expect } from "vitest";
import { collect, coreUsage, neutralEvents } from "./collect-events.ts";
import { contractCase } from "./contract-case.ts";
import { defineFailureContract } from "./contract-failures.ts";
import { defineProgrammaticCallsContract } from "./contract-programmatic-calls.ts";
import {
  forecastTool,
  lengthTurn,
  parallelTurn,
  png,
  reasoningHeavyUsageTurn,
  reasoningTurn,
  textTurn,
  timeTool,
  toolCallTurn,
  toolResultImageRequest,
  usageTurn,
  userRequest,
  weatherTool,
} from "./contract-scenarios.ts";
import { defineStructuredOutputContract } from "./contract-structured-output.ts";
import { defineToolSearchContract } from "./contract-tool-search.ts";
import { expectedEvents, expectedUsage } from "./expected-events.ts";
import type { ScriptedTurn, VendorAdapter, VendorFake } from "./vendor-adapter.ts";

/**
 * Defines the contract every Junction model provider meets, as vitest tests, for one vendor: the
 * provider built through its public factory, its vendor's real SDK talking to a local fake of the
 * vendor's API. Call it once from a test file per vendor.
 *
 * @example
 * ```ts
 * import { defineProviderContract } from "./define-provider-contract.ts";
 * import { anthropicVendor } from "./vendors/anthropic.ts";
 *
 * defineProviderContract(anthropicVendor);
 * ```
 */
export function defineProviderContract(vendor: VendorAdapter): void {
  describe(`${vendor.name} provider contract`, () => {
    defineStreamingContract(vendor);
    defineFailureContract(vendor);
    defineStructuredOutputContract(vendor);
    defineToolSearchContract(vendor);
    defineProgrammaticCallsContract(vendor);
  });
}

/** What `provider` says it carries for `model`: its per-model answer where it has one. */
function capabilitiesFor(provider: ModelProvider, model: string): ProviderCapabilities {
  return provider.capabilitiesFor?.(model) ?? provider.capabilities;
}

function defineStreamingContract(vendor: VendorAdapter): void {
  const contract = contractCase(vendor);
  let fake: VendorFake;
  beforeEach(async () => {
    fake = await vendor.startFake();
  });
  afterEach(async () => {
    await fake.close();
  });
  const provider = () => vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });

  /** Streams `turn` for a request with `tools` and checks the exact neutral events. */
  async function expectTurn(turn: ScriptedTurn, tools = userRequest(vendor.model).tools) {
    fake.enqueue({ kind: "turn", turn, tools: (tools ?? []).map((tool) => tool.name) });
    const { events, error } = await collect(provider().stream({ ...userRequest(vendor.model), tools }));
    expect(error).toBeUndefined();
    const neutral = neutralEvents(events);
    expect(neutral.events).toEqual(expectedEvents(turn, vendor.wire));
    expect(fake.requests).toHaveLength(1);
    return neutral;
  }

  contract("text", "streams text as deltas, then one finish with the whole text", async () => {
    await expectTurn(textTurn);
  });

  if (
    capabilitiesFor(vendor.createProvider({ baseURL: "http://127.0.0.1:9", maxRetries: 0 }), vendor.model)
      .reasoning
  ) {
    contract("reasoning", "streams reasoning before the text and keeps it in the turn", async () => {
      await expectTurn(reasoningTurn);
    });
  }

  contract(
    "tool-call",
    "streams one tool call: the vendor's name mapped back, arguments parsed",
    async () => {
      const { ids } = await expectTurn(toolCallTurn, [forecastTool]);
      const [vendorName] = vendor.toolNames(fake.requests[0]?.body);
      expect(vendorName).toMatch(vendor.wire.toolNamePattern);
      expect(vendorName).not.toBe(forecastTool.name);
      expect(ids).toHaveLength(1);
      expect(ids[0]).not.toBe("");
      if (vendor.wire.toolCallIds === "wire") expect(ids).toEqual(["call_forecast_1"]);
    },
  );

  contract(
    "parallel-tool-calls",
    "streams two tool calls of one step in order, with distinct ids",
    async () => {
      const { ids } = await expectTurn(parallelTurn, [weatherTool, timeTool]);
      expect(new Set(ids).size).toBe(2);
      expect(ids.every((id) => id !== "")).toBe(true);
      if (vendor.wire.toolCallIds === "wire") expect(ids).toEqual(["call_paris", "call_oslo"]);
    },
  );

  for (const model of [vendor.model, ...(vendor.imageModels ?? [])]) {
    const title = `carries a tool result's image natively or degrades it with a warning, as its capabilities for the model say${model === vendor.model ? "" : ` (${model})`}`;
    contract({ id: "tool-result-images", variant: model }, title, async () => {
      fake.enqueue({ kind: "turn", turn: textTurn });
      const stream = vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });
      const { events, error } = await collect(stream.stream(toolResultImageRequest(model)));
      expect(error).toBeUndefined();
      expect(fake.requests).toHaveLength(1);
      const images = vendor.toolResultImages(fake.requests[0]?.body);
      const degraded = events.filter(
        (event) => event.type === "warning" && event.warning.code.startsWith("tool-result-"),
      );
      const image = { mimeType: "image/png", data: png };
      if (capabilitiesFor(stream, model).toolResultImages) {
        expect(images).toEqual({ native: [image], elsewhere: [] });
        expect(degraded).toEqual([]);
      } else {
        expect(images).toEqual({ native: [], elsewhere: [image] });
        expect(degraded).toHaveLength(1);
      }
    });
  }

  contract("usage", "reports input and output tokens, reasoning tokens within output tokens", async () => {
    fake.enqueue({ kind: "turn", turn: usageTurn });
    const { events, error } = await collect(provider().stream(userRequest(vendor.model)));
    expect(error).toBeUndefined();
    const finish = events.at(-1);
    if (finish?.type !== "finish") return expect.unreachable("the stream ended without a finish event");
    expect(coreUsage(finish.usage)).toEqual(expectedUsage(usageTurn, vendor.wire));
    expect(finish.usage.reasoningTokens ?? 0).toBeLessThanOrEqual(finish.usage.outputTokens);
  });

  for (const variant of vendor.usageVariants ?? []) {
    contract(
      { id: "usage-variants", variant: variant.shape },
      `keeps reasoning tokens within output tokens (${variant.label})`,
      async () => {
        const turn: ScriptedTurn = {
          ...reasoningHeavyUsageTurn,
          usage: { ...reasoningHeavyUsageTurn.usage, shape: variant.shape },
        };
        fake.enqueue({ kind: "turn", turn });
        const { events, error } = await collect(provider().stream(userRequest(vendor.model)));
        expect(error).toBeUndefined();
        const finish = events.at(-1);
        if (finish?.type !== "finish") return expect.unreachable("the stream ended without a finish event");
        expect(finish.usage.inputTokens).toBe(reasoningHeavyUsageTurn.usage.inputTokens);
        expect(finish.usage.reasoningTokens).toBeDefined();
        expect(finish.usage.reasoningTokens!).toBeLessThanOrEqual(finish.usage.outputTokens);
      },
    );
  }

  contract("finish-stop", "maps the vendor's end of turn to finish reason stop", async () => {
    fake.enqueue({ kind: "turn", turn: textTurn });
    const { events } = await collect(provider().stream(userRequest(vendor.model)));
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
  });

  contract("finish-tool-calls", "maps the vendor's tool-use stop to finish reason tool-calls", async () => {
    fake.enqueue({ kind: "turn", turn: parallelTurn, tools: [weatherTool.name, timeTool.name] });
    const { events } = await collect(
      provider().stream({ ...userRequest(vendor.model), tools: [weatherTool, timeTool] }),
    );
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls" });
  });

  contract(
    "finish-length",
    "maps the vendor's output limit to finish reason length, keeping the text",
    async () => {
      await expectTurn(lengthTurn);
    },
  );
}
