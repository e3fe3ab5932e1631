import { describe, expect, it } from "vitest";
import { SecretRedactor } from "./secret-redactor.js";
import {
  KEPT_MESSAGE_CHARS,
  KEPT_STDERR_CHARS,
  KEPT_TRAFFIC_MESSAGES,
  StderrRecorder,
  TrafficRecorder,
} from "./traffic-log.js";

const redactor = new SecretRedactor();
redactor.set("server", ["tok-123456"]);
const redact = (text: string) => redactor.redact(text);

describe("TrafficRecorder", () => {
  it("times each response against its request, both ways, and masks secrets", () => {
    const recorder = new TrafficRecorder(redact);
    recorder.record({ direction: "out", at: 1000, message: { jsonrpc: "2.0", id: 1, method: "tools/call" } });
    recorder.record({
      direction: "in",
      at: 1001.25,
      message: { jsonrpc: "2.0", method: "notifications/progress" },
    });
    recorder.record({
      direction: "in",
      at: 1002,
      message: { jsonrpc: "2.0", id: 7, method: "sampling/createMessage" },
    });
    recorder.record({
      direction: "in",
      at: 1012.34,
      message: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "token tok-123456" }] } },
    });
    recorder.record({
      direction: "out",
      at: 1030,
      message: { jsonrpc: "2.0", id: 7, error: { code: -1, message: "declined" } },
    });
    const { entries, dropped } = recorder.read();
    expect(dropped).toBe(0);
    expect(
      entries.map(({ seq, direction, kind, method, id, durationMs }) => ({
        seq,
        direction,
        kind,
        method,
        id,
        durationMs,
      })),
    ).toEqual([
      { seq: 1, direction: "out", kind: "request", method: "tools/call", id: 1, durationMs: undefined },
      {
        seq: 2,
        direction: "in",
        kind: "notification",
        method: "notifications/progress",
        id: undefined,
        durationMs: undefined,
      },
      {
        seq: 3,
        direction: "in",
        kind: "request",
        method: "sampling/createMessage",
        id: 7,
        durationMs: undefined,
      },
      { seq: 4, direction: "in", kind: "response", method: "tools/call", id: 1, durationMs: 12.3 },
      { seq: 5, direction: "out", kind: "error", method: "sampling/createMessage", id: 7, durationMs: 28 },
    ]);
    expect(entries[3]!.text).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"token ••••••"}]}}',
    );
    expect(recorder.read(4).entries.map((entry) => entry.seq)).toEqual([5]);
  });

  it("keeps a bounded number of messages, each cut to a bounded length", () => {
    const recorder = new TrafficRecorder(redact);
    const big = "x".repeat(KEPT_MESSAGE_CHARS * 2);
    recorder.record({ direction: "in", at: 1, message: { jsonrpc: "2.0", method: "big", params: { big } } });
    const first = recorder.read().entries[0]!;
    expect(first.truncated).toBe(true);
    expect(first.text).toHaveLength(KEPT_MESSAGE_CHARS);
    expect(first.size).toBe(JSON.stringify({ jsonrpc: "2.0", method: "big", params: { big } }).length);
    for (let index = 0; index < KEPT_TRAFFIC_MESSAGES + 10; index++)
      recorder.record({ direction: "out", at: index, message: { jsonrpc: "2.0", method: `m${index}` } });
    const { entries, dropped } = recorder.read();
    expect(entries).toHaveLength(KEPT_TRAFFIC_MESSAGES);
    expect(dropped).toBe(11);
    expect(entries.at(-1)!.method).toBe(`m${KEPT_TRAFFIC_MESSAGES + 9}`);
  });

  it("forgets pending requests when a new session starts", () => {
    const recorder = new TrafficRecorder(redact);
    recorder.record({ direction: "out", at: 0, message: { jsonrpc: "2.0", id: 3, method: "tools/call" } });
    recorder.record({ direction: "out", at: 5, message: { jsonrpc: "2.0", id: 0, method: "initialize" } });
    recorder.record({ direction: "in", at: 9, message: { jsonrpc: "2.0", id: 3, result: {} } });
    expect(recorder.read().entries.at(-1)).toMatchObject({ kind: "response", id: 3 });
    expect(recorder.read().entries.at(-1)).not.toHaveProperty("durationMs");
  });
});

describe("StderrRecorder", () => {
  it("keeps the newest characters, counts what it dropped, and masks secrets when read", () => {
    const recorder = new StderrRecorder();
    recorder.add("a".repeat(KEPT_STDERR_CHARS));
    recorder.add("using tok-123456\n");
    const log = recorder.read(redact);
    expect(log.dropped).toBe("using tok-123456\n".length);
    expect(log.text.endsWith("using ••••••\n")).toBe(true);
    expect(log.text).not.toContain("tok-123456");
  });
});
