import { describe, expect, it } from "vitest";
import { AppCallFeed, feedView } from "./app-call-feed.js";

/** A view's notifications, and a scheduler the test runs by hand (no timers). */
function harness(feed: AppCallFeed) {
  const sent: [string, Record<string, unknown>][] = [];
  const queued: (() => void)[] = [];
  const view = feedView({
    feed,
    notify: (method, params) => sent.push([method, params]),
    schedule: (send) => {
      queued.push(send);
      return () => queued.splice(queued.indexOf(send), 1);
    },
  });
  const runScheduled = () => {
    for (const send of queued.splice(0)) send();
  };
  return { sent, queued, view, runScheduled, methods: () => sent.map(([method]) => method) };
}

describe("feedView", () => {
  it("sends nothing before initialized, then the latest partial, coalesced, then the input, then the result", () => {
    const feed = new AppCallFeed();
    const { sent, queued, view, runScheduled, methods } = harness(feed);
    feed.partial({ note: "P" });
    feed.partial({ note: "Pa" });
    expect(sent).toEqual([]);
    view.initialized();
    expect(sent).toEqual([["ui/notifications/tool-input-partial", { arguments: { note: "Pa" } }]]);
    // A burst is one notification: the latest, once the scheduled send runs.
    feed.partial({ note: "Par" });
    feed.partial({ note: "Pari" });
    expect(queued).toHaveLength(1);
    runScheduled();
    expect(sent.at(-1)).toEqual(["ui/notifications/tool-input-partial", { arguments: { note: "Pari" } }]);
    // The complete input goes at once, and drops a partial still waiting; a late piece is ignored.
    feed.partial({ note: "Paris" });
    feed.input({ note: "Paris", size: 2 });
    feed.partial({ note: "late" });
    expect(queued).toHaveLength(0);
    feed.end({ result: { content: [{ type: "text", text: "shown" }] } });
    // An outcome already ended is not taken back by a second one.
    feed.end({ cancelled: "late" });
    expect(sent.slice(2)).toEqual([
      ["ui/notifications/tool-input", { arguments: { note: "Paris", size: 2 } }],
      ["ui/notifications/tool-result", { content: [{ type: "text", text: "shown" }] }],
    ]);
    expect(methods()).toHaveLength(4);
  });

  it("sends the input then the result to a view initialized after the call ended, and no partial", () => {
    const feed = AppCallFeed.of({ note: "x" }, { result: { content: [] } });
    const { view, methods } = harness(feed);
    return Promise.resolve().then(() => {
      feed.partial({ note: "ignored" });
      view.initialized();
      view.initialized();
      expect(methods()).toEqual(["ui/notifications/tool-input", "ui/notifications/tool-result"]);
    });
  });

  it("sends tool-cancelled without an input when the call ended while its arguments streamed", () => {
    const feed = new AppCallFeed();
    const { sent, view } = harness(feed);
    view.initialized();
    feed.partial({ note: "P" });
    feed.end({ cancelled: "The run was stopped before the call ended." });
    feed.input({ note: "late" });
    expect(sent).toEqual([
      ["ui/notifications/tool-cancelled", { reason: "The run was stopped before the call ended." }],
    ]);
  });

  it("sends nothing more once closed", () => {
    const feed = new AppCallFeed();
    const { sent, queued, view } = harness(feed);
    view.initialized();
    feed.partial({ note: "P" });
    view.close();
    expect(queued).toHaveLength(0);
    feed.input({ note: "P" });
    expect(sent).toEqual([]);
  });
});
