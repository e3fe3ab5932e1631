import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { taskSupportOf, withTaskSupport } from "./task-support.js";

// How a served tool declares its task support: one way (`withTaskSupport`) for tool()s and
// agent tools, checked when the server is made.

const echo = tool({
  name: "echo",
  description: "Echoes",
  schema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});

describe("withTaskSupport", () => {
  it("declares a copy: the tool given keeps its own support, and still runs", async () => {
    const required = withTaskSupport(echo, "required");
    expect(taskSupportOf(required)).toBe("required");
    expect(taskSupportOf(echo)).toBe("forbidden");
    expect(await required.execute({ text: "hi" })).toBe("hi");
  });

  it("agent tools are optional unless declared otherwise", () => {
    const agent = new Agent({ provider: scriptedModel([{ text: "ok" }]), model: "scripted" });
    const asked = agentTool(agent, { name: "ask", description: "Asks" });
    expect(taskSupportOf(asked)).toBe("optional");
    expect(taskSupportOf(withTaskSupport(asked, "forbidden"))).toBe("forbidden");
  });

  it("refuses a support that is not one of the spec's three, naming it", () => {
    expect(() => withTaskSupport(echo, "always" as never)).toThrow(
      'withTaskSupport(): the task support of "echo" must be "required", "optional" or "forbidden", not "always".',
    );
  });

  it("a server serving no tasks refuses a tool declared to run as one", () => {
    expect(() =>
      createMCPServer({ name: "s", version: "1.0.0", tools: [withTaskSupport(echo, "optional")] }),
    ).toThrow(
      'createMCPServer(): the tool "echo" is declared to run as a task (withTaskSupport), but the server serves no tasks: set `tasks` (`tasks: {}` keeps them in memory).',
    );
    expect(() =>
      createMCPServer({ name: "s", version: "1.0.0", tools: [withTaskSupport(echo, "forbidden")] }),
    ).not.toThrow();
  });
});
