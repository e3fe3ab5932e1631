import { connect } from "node:http2";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BedrockFake,
  bedrockError,
  bedrockEvent,
  bedrockException,
  decodeBedrockFrame,
  encodeBedrockFrame,
  startBedrockFake,
} from "./bedrock-event-stream.ts";

let fake: BedrockFake | undefined;
afterEach(async () => fake?.close());

/** One HTTP/2 POST, as the AWS SDK's handler makes it; the raw answer. */
async function post(url: string, path: string, body: string) {
  const session = connect(url);
  try {
    return await new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>(
      (resolve, reject) => {
        const stream = session.request({
          ":method": "POST",
          ":path": path,
          "content-type": "application/json",
        });
        let headers: Record<string, unknown> = {};
        const parts: Buffer[] = [];
        stream.on("response", (h) => {
          headers = h;
        });
        stream.on("data", (part: Buffer) => parts.push(part));
        stream.on("end", () =>
          resolve({ status: Number(headers[":status"]), headers, bytes: Buffer.concat(parts) }),
        );
        stream.on("error", reject);
        stream.end(body);
      },
    );
  } finally {
    session.close();
  }
}

describe("Bedrock event-stream fake", () => {
  it("encodes frames with the SDK codec, with the headers Bedrock sends", () => {
    const bytes = encodeBedrockFrame(bedrockEvent("messageStop", { stopReason: "end_turn" }));
    // Prelude: total length (4 bytes), headers length (4 bytes), prelude CRC (4 bytes).
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)).toBe(bytes.byteLength);
    expect(decodeBedrockFrame(bytes)).toEqual({
      kind: "event",
      type: "messageStop",
      payload: { stopReason: "end_turn" },
    });
    expect(
      decodeBedrockFrame(encodeBedrockFrame(bedrockException("throttlingException", { message: "slow" }))),
    ).toEqual({ kind: "exception", type: "throttlingException", payload: { message: "slow" } });
    // A flipped payload byte breaks the message CRC.
    bytes[bytes.byteLength - 6]! ^= 0xff;
    expect(() => decodeBedrockFrame(bytes)).toThrow();
  });

  it("streams queued frames over HTTP/2, answers errors with x-amzn-ErrorType, and records requests", async () => {
    fake = await startBedrockFake();
    const frames = [
      bedrockEvent("messageStart", { role: "assistant" }),
      bedrockEvent("messageStop", { stopReason: "end_turn" }),
    ];
    fake.enqueue({ frames }, bedrockError(429, "ThrottlingException", "Too many requests"));

    const first = await post(fake.url, "/model/m1/converse-stream", '{"messages":[]}');
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("application/vnd.amazon.eventstream");
    expect(first.headers["x-amzn-requestid"]).toBe("fake-request-1");
    const encoded = frames.map((frame) => Buffer.from(encodeBedrockFrame(frame)));
    expect(first.bytes).toEqual(Buffer.concat(encoded));

    const second = await post(fake.url, "/model/m1/converse-stream", "{}");
    expect(second.status).toBe(429);
    expect(second.headers["x-amzn-errortype"]).toBe(
      "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/",
    );
    expect(JSON.parse(second.bytes.toString())).toEqual({ message: "Too many requests" });

    const third = await post(fake.url, "/model/m1/converse-stream", "{}");
    expect(third.status).toBe(500);
    expect(fake.requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ["POST", "/model/m1/converse-stream", { messages: [] }],
      ["POST", "/model/m1/converse-stream", {}],
      ["POST", "/model/m1/converse-stream", {}],
    ]);
  });
});
