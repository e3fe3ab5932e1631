import { Agent, type AgentEvent } from "@junction/core";
import { OutputError, type StructuredOutputMode, type ToolDefinition } from "@junction/types";
import { afterEach, beforeEach, describe, expect } from "vitest";
import { z } from "zod";
import { contractCase } from "./contract-case.ts";
import type { ScriptedReply, ScriptedTurn, VendorAdapter, VendorFake } from "./vendor-adapter.ts";

/** The answer's schema, already in every vendor's strict form (all required, objects closed). */
export const weatherAnswerSchema = {
  type: "object",
  properties: { city: { type: "string" }, temperatureC: { type: "number" } },
  required: ["city", "temperatureC"],
  additionalProperties: false,
};

/**
 * An ordinary zod schema whose keywords, but for the `type`s, are outside what the vendors'
 * structured output takes: what a provider sends is a part of it, and the answer is still
 * checked against all of it.
 */
const describedAnswer = z.object({
  n: z.number().int(),
  name: z.string().min(1).max(20),
  tags: z.array(z.string()).min(2),
  extra: z.record(z.string(), z.number()),
});

const lookupDefinition: ToolDefinition = {
  name: "lookup_weather",
  description: "Looks up the weather in a city.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
};
const lookup = { ...lookupDefinition, execute: async () => "21 °C" };

const usage = { inputTokens: 12, outputTokens: 7 };

function reply(turn: Omit<ScriptedTurn, "usage">, tools: string[]): ScriptedReply {
  return { kind: "turn", turn: { ...turn, usage }, tools };
}

/**
 * Structured output through a real Agent, the vendor's provider and SDK against its wire fake: a
 * plain answer, an answer after two tool steps (tools on every step, the format where the vendor's
 * declared mode puts it), partial objects while it streams, a repaired answer, one that stays
 * invalid, and a refusal.
 */
export function defineStructuredOutputContract(vendor: VendorAdapter): void {
  for (const model of [vendor.model, ...(vendor.structuredOutput.models ?? [])]) {
    defineForModel(vendor, model);
  }
}

function defineForModel(vendor: VendorAdapter, model: string): void {
  describe(`structured output, ${model} (${vendor.structuredOutput.documentation})`, () => {
    const contract = contractCase(vendor);
    let fake: VendorFake;
    beforeEach(async () => {
      fake = await vendor.startFake();
    });
    afterEach(async () => {
      await fake.close();
    });
    const provider = () => vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });
    const mode = (): StructuredOutputMode => {
      const probe = vendor.createProvider({ baseURL: "http://127.0.0.1:9", maxRetries: 0 });
      return (probe.capabilitiesFor?.(model) ?? probe.capabilities).structuredOutput ?? "answer-tool";
    };
    const agent = () =>
      new Agent({ provider: provider(), model, tools: [lookup], output: weatherAnswerSchema });
    const tools = [lookup.name];
    const answerTools = mode() === "answer-tool" ? [...tools, "final_answer"] : tools;
    /** The model's answer turn in the vendor's mode: JSON text, or a call of the answer tool. */
    const answer = (responseId: string, pieces: string[]): ScriptedReply =>
      mode() === "answer-tool"
        ? reply(
            {
              responseId,
              toolCalls: [
                {
                  id: `call_${responseId}`,
                  name: "final_answer",
                  input: JSON.parse(pieces.join("")),
                  argumentPieces: pieces,
                },
              ],
              finish: "tool-calls",
            },
            answerTools,
          )
        : reply({ responseId, text: pieces, finish: "stop" }, answerTools);
    const toolStep = (responseId: string, city: string): ScriptedReply =>
      reply(
        {
          responseId,
          toolCalls: [
            {
              id: `call_${responseId}`,
              name: lookup.name,
              input: { city },
              argumentPieces: [JSON.stringify({ city })],
            },
          ],
          finish: "tool-calls",
        },
        answerTools,
      );
    const expectFormat = (body: unknown, present: boolean) => {
      const format = vendor.structuredOutput.format(body);
      if (present) expect(format).toEqual(vendor.structuredOutput.expected(weatherAnswerSchema));
      else expect(format).toBeUndefined();
    };

    contract("structured-plain", "returns the validated object the model answered with", async () => {
      fake.enqueue(answer("resp_plain", ['{"city":"Paris","temperatureC":21}']));
      const result = await agent().send("Weather in Paris?").final;
      expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
      expect(fake.requests).toHaveLength(1);
      expectFormat(fake.requests[0]!.body, mode() === "native-with-tools");
    });

    contract(
      "structured-after-tools",
      "answers after two tool steps: tools on every step, the format where the vendor's mode puts it",
      async () => {
        fake.enqueue(toolStep("resp_1", "Paris"), toolStep("resp_2", "Lyon"));
        // A vendor whose format stops tool calls answers in prose first and is then asked with the format.
        if (mode() === "final-step-only")
          fake.enqueue(reply({ responseId: "resp_prose", text: ["It is 21 °C."], finish: "stop" }, tools));
        fake.enqueue(answer("resp_answer", ['{"city":"Paris","temperatureC":21}']));
        const result = await agent().send("Weather in Paris and Lyon?").final;
        expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
        const bodies = fake.requests.map((request) => request.body);
        const formatStep = mode() === "final-step-only" ? bodies.length - 1 : -1;
        bodies.forEach((body, index) => {
          const names = vendor.toolNames(body);
          if (index === formatStep) {
            expect(names).toEqual([]);
            expectFormat(body, true);
            return;
          }
          expect(names).toEqual(answerTools);
          expectFormat(body, mode() === "native-with-tools");
        });
        expect(bodies).toHaveLength(mode() === "final-step-only" ? 4 : 3);
      },
    );

    contract("structured-streamed", "streams partial objects, then the validated one", async () => {
      fake.enqueue(answer("resp_stream", ['{"city":"Pa', 'ris","temperatureC":', "21}"]));
      const handle = agent().send("Weather?");
      const events: AgentEvent[] = [];
      for await (const event of handle) events.push(event);
      expect((await handle.final).output).toEqual({ city: "Paris", temperatureC: 21 });
      expect(events.filter((event) => event.type === "output-delta").map((event) => event.partial)).toEqual([
        { city: "Pa" },
        { city: "Paris" },
        { city: "Paris", temperatureC: 21 },
      ]);
      expect(events.filter((event) => event.type === "output")).toEqual([
        { type: "output", output: { city: "Paris", temperatureC: 21 } },
      ]);
    });

    contract("structured-repaired", "repairs an invalid answer on the second try", async () => {
      fake.enqueue(
        answer("resp_bad", ['{"city":"Paris","temperatureC":"warm"}']),
        answer("resp_good", ['{"city":"Paris","temperatureC":21}']),
      );
      const result = await agent().send("Weather?").final;
      expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
      expect(fake.requests).toHaveLength(2);
      // The second request carries the validation error back to the model, in the vendor's own message form.
      expect(JSON.stringify(fake.requests[1]!.body)).toContain(
        "temperatureC: Invalid input: expected number, received string",
      );
    });

    contract(
      "structured-invalid",
      "rejects with output-invalid and the raw text when the answer stays invalid",
      async () => {
        fake.enqueue(
          answer("resp_bad_1", ['{"city":"Paris"}']),
          answer("resp_bad_2", ['{"city":"Paris","temperatureC":"hot"}']),
        );
        const error = await agent()
          .send("Weather?")
          .final.then(
            () => undefined,
            (caught: unknown) => caught,
          );
        if (!OutputError.isInstance(error))
          return expect.unreachable(`expected an OutputError, got ${error}`);
        expect(error.code).toBe("output-invalid");
        expect(JSON.parse(error.text)).toEqual({ city: "Paris", temperatureC: "hot" });
        expect(error.issues).toEqual(["temperatureC: Invalid input: expected number, received string"]);
      },
    );

    contract(
      "structured-checked-locally",
      "still rejects, while streaming, an answer that breaks the full schema where the vendor took only a part of it: it is checked locally",
      async () => {
        const invalid = '{"n":1.5,"name":"","tags":["a"],"extra":{"x":"y"}}';
        fake.enqueue(answer("resp_bad_1", [invalid]), answer("resp_bad_2", [invalid]));
        const handle = new Agent({ provider: provider(), model, output: describedAnswer }).send(
          "Describe Ada.",
        );
        const events: AgentEvent[] = [];
        for await (const event of handle) events.push(event);
        const error = await handle.final.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (!OutputError.isInstance(error))
          return expect.unreachable(`expected an OutputError, got ${error}`);
        expect(error.code).toBe("output-invalid");
        expect(error.issues).toEqual([
          "n: Invalid input: expected int, received number",
          "name: Too small: expected string to have >=1 characters",
          "tags: Too small: expected array to have >=2 items",
          "extra.x: Invalid input: expected number, received string",
        ]);
        expect(events.filter((event) => event.type === "output")).toEqual([]);
        expect(fake.requests).toHaveLength(2);
      },
    );

    contract("structured-refusal", "rejects a refusal with output-refused, never as an answer", async () => {
      fake.enqueue(
        reply(
          { responseId: "resp_refusal", text: ["I can't help with that."], finish: "refusal" },
          answerTools,
        ),
      );
      const error = await agent()
        .send("Weather?")
        .final.then(
          () => undefined,
          (caught: unknown) => caught,
        );
      if (!OutputError.isInstance(error)) return expect.unreachable(`expected an OutputError, got ${error}`);
      expect(error.code).toBe("output-refused");
      expect(fake.requests).toHaveLength(1);
    });
  });
}
