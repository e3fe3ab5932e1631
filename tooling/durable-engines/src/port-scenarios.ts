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
    // Each body waits until all three have started (steps run one at a time would never get
    // there), then they end in the order b, c, a, against the order they were asked for, on any
    // machine's load.
    parallel: async (durability) => {
      const endOrder = ["tool:1:b", "tool:1:c", "tool:1:a"];
      const allStarted = latch(endOrder.length);
      const ended = new Map(endOrder.map((key) => [key, latch(1)]));
      const body = (key: string) =>
        durability.step(key, async () => {
          allStarted.arrive();
          await allStarted.done;
          const previous = endOrder[endOrder.indexOf(key) - 1];
          if (previous) await ended.get(previous)!.done;
          bodies.push(key);
          ended.get(key)!.arrive();
          return key;
        });
      const results = await Promise.all([body("tool:1:a"), body("tool:1:b"), body("tool:1:c")]);
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

/** A promise that settles once `arrive()` was called `count` times. */
function latch(count: number): { arrive(): void; done: Promise<void> } {
  let open!: () => void;
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  let waiting = count;
  return {
    arrive: () => {
      waiting--;
      if (waiting === 0) open();
    },
    done,
  };
}
