import { createServer, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { portScenarios } from "@junction/durable-engines/port-scenarios";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import { createEndpointHandler } from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restateWorkflow } from "./restate-workflow.js";
import { sendSignal } from "./send-signal.js";

// The port's semantics in one process, against a real Restate server. The crash and restart
// scenarios are the engine contract's (test/restate.contract.test.ts).

let server: RestateServer;
let endpoint: Http2Server;

const bodies: string[] = [];
const scenarios = portScenarios(bodies);

const scenario = restateWorkflow("port-scenario", (durability, name: string) => scenarios[name]!(durability));
type Scenario = { run: (ctx: unknown, name: string) => Promise<string> };

let ingress: clients.Ingress;
const run = async (runId: string, name: string) => {
  const client = ingress.workflowClient<Scenario>({ name: "port-scenario" }, runId);
  await client.workflowSubmit(name);
  return client.workflowAttach();
};

beforeAll(async () => {
  server = await startRestateServer();
  ingress = clients.connect({ url: server.ingressUrl });
  endpoint = createServer(createEndpointHandler({ services: [scenario] }));
  // Port 0: the kernel's pick, bound at once (a port looked up first could be taken meanwhile).
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  await server.register(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);
});
afterAll(async () => {
  // The server first: the connections it keeps to the endpoint close with it.
  await server?.stop();
  if (endpoint) await new Promise((resolve) => endpoint.close(resolve));
});

describe("restateDurability", () => {
  it("answers undefined when the signal does not come in time", async () => {
    expect(await run("port-timeout", "timeout")).toBe("timed out: true");
  });

  it("delivers a signal sent before the run started, and a null value as null (not as a timeout)", async () => {
    await sendSignal({
      ingress,
      workflow: "port-scenario",
      runId: "port-null",
      name: "nothing",
      value: null,
    });
    expect(await run("port-null", "null value")).toBe("value: null");
  });

  it("journals a failing step's error instead of retrying it: the body runs once, the run sees the message and the code", async () => {
    bodies.length = 0;
    expect(await run("port-failing", "failing step")).toBe(
      "caught: the tool broke (code 500, metadata.code tool-execution-failed)",
    );
    expect(bodies).toEqual(["fails"]);
  });

  it("uses the workflow key as the run id; submitting the same key again is the same run", async () => {
    bodies.length = 0;
    expect(await run("port-keys", "keys")).toBe("hello port-keys");
    expect(await run("port-keys", "keys")).toBe("hello port-keys");
    expect(bodies).toEqual(["model:1"]);
  });

  it("runs concurrent steps and concurrent waits, as the run loop's parallel tool calls and approvals do", async () => {
    bodies.length = 0;
    const client = ingress.workflowClient<Scenario>({ name: "port-scenario" }, "port-parallel");
    await client.workflowSubmit("parallel");
    const signal = { ingress, workflow: "port-scenario", runId: "port-parallel" };
    await sendSignal({ ...signal, name: "approval:b", value: "yes b" });
    await sendSignal({ ...signal, name: "approval:a", value: "yes a" });
    expect(await client.workflowAttach()).toBe("tool:1:a,tool:1:b,tool:1:c yes a,yes b");
    expect(bodies).toEqual(["tool:1:b", "tool:1:c", "tool:1:a"]);
  });

  it("makes a repeated send with the same idempotency key one send", async () => {
    const signal = {
      ingress,
      workflow: "port-scenario",
      runId: "port-twice",
      name: "nothing",
      value: 7,
      until: "resolved" as const,
    };
    await sendSignal({ ...signal, idempotencyKey: "twice-1" });
    await sendSignal({ ...signal, idempotencyKey: "twice-1" });
    await expect(sendSignal(signal)).rejects.toThrow("promise was already completed");
    expect(await run("port-twice", "null value")).toBe("value: 7");
  });

  it("takes no signal named as the run's own promises: a signal named junction.… is refused", async () => {
    await expect(
      sendSignal({
        ingress,
        workflow: "port-scenario",
        runId: "reserved",
        name: "junction.asked:1",
        value: true,
        until: "resolved",
      }),
    ).rejects.toThrow(/must be a string that does not begin with/);
  });
});
