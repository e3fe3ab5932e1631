// Small durable functions that pin the port's semantics on each engine, written once against
// the port. Never imported by shipped code.
import type { Durability } from "@junction/core";
import { errorMessage, JunctionError } from "@junction/types";

/** Scenario name → function of the port; `bodies` collects each step body that ran. */
export function portScenarios(bodies: string[]): Record<string, (durability: Durability) => Promise<string>> {
  return {
    timeout: async (durability) => {
      const value = await durability.waitForSignal("never", { timeoutMs: 200 });
      return `timed out: ${value === undefined}`;
    },
    "null value": async (durability) => {
      // A step first, so that a signal sent right after the start arrives before the wait.
      await durability.step(
        "slow",
        () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 300)),
      );
      const value = await durability.waitForSignal("nothing", { timeoutMs: 10_000 });
      return `value: ${JSON.stringify(value)}`;
    },
    "failing step": async (durability) => {
      try {
        await durability.step("fails", async () => {
          bodies.push("fails");
          throw new JunctionError("tool-execution-failed", "the tool broke");
        });
        return "no error";
      } catch (error) {
        const { code, metadata } = error as { code?: unknown; metadata?: Record<string, string> };
        return `caught: ${errorMessage(error)} (code ${code}, metadata.code ${metadata?.code})`;
      }
    },
    // The run loop runs a step's tool calls concurrently, and may wait for several approvals.
    parallel: async (durability) => {
      const delayed = (key: string, milliseconds: number) =>
        durability.step(key, async () => {
          await new Promise((resolve) => setTimeout(resolve, milliseconds));
          bodies.push(key);
          return key;
        });
      const results = await Promise.all([
        delayed("tool:1:a", 150),
        delayed("tool:1:b", 10),
        delayed("tool:1:c", 80),
      ]);
      const decisions = await Promise.all([
        durability.waitForSignal<string>("approval:a", { timeoutMs: 10_000 }),
        durability.waitForSignal<string>("approval:b", { timeoutMs: 10_000 }),
      ]);
      return `${results.join(",")} ${decisions.join(",")}`;
    },
    keys: async (durability) => {
      const first = await durability.step("model:1", async () => {
        bodies.push("model:1");
        return { text: "hello" };
      });
      return `${first.text} ${durability.runId}`;
    },
  };
}
