import { afterEach, describe, expect, it } from "vitest";
import { startWireFake, type WireFake } from "./index.js";

let fake: WireFake | undefined;
afterEach(async () => fake?.close());

describe("startWireFake", () => {
  it("records requests and replays chunks in order", async () => {
    fake = await startWireFake();
    fake.enqueue(
      { chunks: ["event: a\ndata: 1\n\n", "event: b\ndata: 2\n\n"] },
      { status: 429, json: { e: 1 } },
    );
    const first = await fetch(`${fake.url}/v1/messages`, { method: "POST", body: JSON.stringify({ x: 1 }) });
    expect(await first.text()).toBe("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n");
    const second = await fetch(`${fake.url}/v1/messages`, { method: "POST", body: "not json" });
    expect(second.status).toBe(429);
    expect(fake.requests.map((r) => [r.path, r.body, r.text])).toEqual([
      ["/v1/messages", { x: 1 }, '{"x":1}'],
      ["/v1/messages", undefined, "not json"],
    ]);
  });

  it("answers 500 naming the request once the queue is empty", async () => {
    fake = await startWireFake();
    const response = await fetch(`${fake.url}/nothing`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "wire-fake: no reply queued for GET /nothing" });
  });
});
