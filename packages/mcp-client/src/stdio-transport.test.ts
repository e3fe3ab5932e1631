import { afterEach, describe, expect, it, vi } from "vitest";
import { StdioProcessTransport } from "./stdio-transport.js";

/** The test scripts write notifications whose params carry a number `n` (and a `big` string). */
type Notification = { method: string; params: { n: number; big?: string } };

const open: StdioProcessTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
});

/** Starts a transport on a Node script that writes `writes` to stdout, one after another, 20 ms apart. */
function transportWriting(writes: string[], maxLineChars?: number) {
  return transportRunning(`const writes = ${JSON.stringify(writes)};`, maxLineChars);
}

/** Starts a transport on a Node script whose `setup` defines the `writes` it makes. */
async function transportRunning(setup: string, maxLineChars?: number) {
  const script = `${setup}
    (async () => {
      for (const text of writes) {
        await new Promise((resolve) => process.stdout.write(text, resolve));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      setInterval(() => {}, 1000);
    })();`;
  const transport = new StdioProcessTransport({
    command: process.execPath,
    args: ["-e", script],
    maxLineChars,
  });
  open.push(transport);
  const messages: Notification[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => messages.push(message as unknown as Notification);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  return { transport, messages, errors };
}

const note = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { n, ...extra } });

describe("StdioProcessTransport line splitting", () => {
  it("joins a message written in pieces, accepts CRLF and skips blank lines silently", async () => {
    const whole = note(1);
    const { messages, errors } = await transportWriting([
      whole.slice(0, 10),
      whole.slice(10, 30),
      `${whole.slice(30)}\r\n`,
      "\n   \r\n",
      `${note(2)}\n${note(3)}\n`,
    ]);
    await vi.waitFor(() => expect(messages).toHaveLength(3));
    expect(messages.map((message) => message.params.n)).toEqual([1, 2, 3]);
    expect(errors).toEqual([]);
  });

  it("receives a message of several megabytes that the pipe delivers in many chunks", async () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const { messages, errors } = await transportRunning(`
      const note = (n, extra) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { n, ...extra } });
      const writes = [note(1, { big: "x".repeat(${big.length}) }) + "\\n", note(2) + "\\n"];`);
    await vi.waitFor(() => expect(messages).toHaveLength(2));
    expect(messages[0]?.params.big).toBe(big);
    expect(errors).toEqual([]);
  });

  it("drops a line longer than maxLineChars, says so once, and reads the next message", async () => {
    const { transport, messages, errors } = await transportWriting(
      ["y".repeat(600), "y".repeat(600), `${"y".repeat(600)}\n${note(7)}\n`],
      1000,
    );
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    expect(messages[0]?.params.n).toBe(7);
    expect(errors.map((error) => error.message)).toEqual([
      "server wrote a line longer than 1000 characters; it was dropped",
    ]);
    expect(transport.garbageLines).toBe(1);
  });

  it("holds a line that ends in the chunk that takes it past maxLineChars to the limit too", async () => {
    // The second write ends the overlong line: on a loaded machine the last two writes of the
    // test above can arrive as one chunk like this, which was reported as "not JSON-RPC".
    const { transport, messages, errors } = await transportWriting(
      ["y".repeat(600), `${"y".repeat(1200)}\n${note(8)}\n`],
      1000,
    );
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    expect(messages[0]?.params.n).toBe(8);
    expect(errors.map((error) => error.message)).toEqual([
      "server wrote a line longer than 1000 characters; it was dropped",
    ]);
    expect(transport.garbageLines).toBe(1);
  });

  it("reports JSON that is not a JSON-RPC message as garbage, with a preview", async () => {
    const { messages, errors } = await transportWriting([
      "[1, 2, 3]\r\n",
      '{"jsonrpc":"2.0","neither":"request nor response"}\n',
      `${note(1)}\n`,
    ]);
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    expect(errors.map((error) => error.message)).toEqual([
      "ignored a stdout line that is not JSON-RPC: [1, 2, 3]",
      'ignored a stdout line that is not JSON-RPC: {"jsonrpc":"2.0","neither":"request nor response"}',
    ]);
  });
});
