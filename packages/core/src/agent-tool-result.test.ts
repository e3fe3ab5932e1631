import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import { agentToolResult } from "./agent-tool-result.js";
import { scriptedModel } from "./testing/scripted-model.js";

/** Draws a room: a line of text and a picture (the picture is what the tool's answer keeps). */
const draw: Tool<{ room: string }> = {
  name: "draw",
  description: "Draws a room",
  inputSchema: { type: "object", properties: { room: { type: "string" } }, required: ["room"] },
  execute: async ({ room }) => [
    { type: "text", text: `drew ${room}` },
    { type: "image", data: "cm9vbQ==", mimeType: "image/png" },
  ],
};

const drawTwice = (maxSteps?: number) =>
  new Agent({
    ...(maxSteps === undefined ? {} : { maxSteps }),
    provider: scriptedModel([
      { toolCalls: [{ id: "c1", name: "draw", input: { room: "hall" } }] },
      { toolCalls: [{ id: "c2", name: "draw", input: { room: "den" } }] },
      { text: "Both rooms are drawn." },
    ]),
    model: "scripted",
    tools: [draw],
  });

describe("agentToolResult", () => {
  it("is the answer's text, then every rich part the run's tools returned, in the order they ran", async () => {
    const result = await drawTwice().send("Draw the hall and the den").final;
    if (result.finishReason === "approval-required") throw new Error("the run should have finished");
    expect(agentToolResult(result)).toEqual({
      content: [
        { type: "text", text: "Both rooms are drawn." },
        { type: "image", data: "cm9vbQ==", mimeType: "image/png" },
        { type: "image", data: "cm9vbQ==", mimeType: "image/png" },
      ],
      isError: false,
    });
    // Parts the caller collected itself replace the steps' own.
    expect(agentToolResult(result, { parts: [] })).toEqual({
      content: [{ type: "text", text: "Both rooms are drawn." }],
      isError: false,
    });
  });

  it("says when the step limit cut the run short", async () => {
    const result = await drawTwice(1).send("Draw the hall and the den").final;
    if (result.finishReason === "approval-required") throw new Error("the run should have finished");
    expect(result.finishReason).toBe("max-steps");
    expect(agentToolResult(result)).toEqual({
      content: [
        { type: "image", data: "cm9vbQ==", mimeType: "image/png" },
        {
          type: "text",
          text: "[The agent stopped at its step limit before it finished; the answer above may be incomplete.]",
        },
      ],
      isError: false,
    });
  });
});
