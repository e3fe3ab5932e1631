import { describe, expect, it } from "vitest";
import { TaskStatusSignals } from "./task-status-signals.js";

describe("TaskStatusSignals", () => {
  it("a change told while the task's poll waits ends the wait at once; another task's does not", async () => {
    const signals = new TaskStatusSignals();
    const controller = new AbortController();
    const events: string[] = [];
    const waiting = signals.wait("t1", 60_000, controller.signal).then(() => events.push("t1 woke"));
    signals.changed("t2");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toEqual([]);
    signals.changed("t1");
    await waiting;
    expect(events).toEqual(["t1 woke"]);
    // t2 was told while nobody waited: its next wait ends at once, the one after does not.
    await signals.wait("t2", 60_000, controller.signal);
    const later = signals.wait("t2", 60_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(later).rejects.toThrow("stop");
  });

  it("a forgotten task's change does not cut its next wait short", async () => {
    const signals = new TaskStatusSignals();
    signals.changed("t1");
    signals.forget("t1");
    const started = Date.now();
    await signals.wait("t1", 50, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
