// A worker process for resume-once.test.ts: resumes each stored state it is sent, with the
// decisions it is sent, sharing resume claims with the other worker through a folder. The
// approved tool appends its call to the effects file, so the test counts how often it ran.
import { appendFileSync } from "node:fs";
import { Agent, annotationPolicy } from "@junction/core";
import { fileResumeClaims } from "@junction/core/node";
import { scriptedModel } from "@junction/core/testing";

const claims = fileResumeClaims(process.argv[2]);
process.on("message", async ({ id, state, decisions, effects }) => {
  const agent = new Agent({
    provider: scriptedModel([{ text: "done" }]),
    model: "m",
    tools: [
      {
        name: "write_file",
        description: "Writes a file",
        inputSchema: { type: "object", properties: { path: { type: "string" } } },
        execute: async ({ path }) => {
          appendFileSync(effects, `${id} ${path}\n`);
          return "written";
        },
      },
    ],
    approval: annotationPolicy(),
    resumeClaims: claims,
  });
  try {
    const result = await agent.resume({ state, decisions }).final;
    process.send({ id, outcome: result.finishReason });
  } catch (error) {
    process.send({ id, outcome: error.code ?? String(error) });
  }
});
process.send({ ready: true });
