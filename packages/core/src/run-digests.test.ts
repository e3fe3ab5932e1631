import { JunctionError, type Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, argumentsDigest, canonicalJSON, signRunState, tool, verifyRunState } from "./index.js";
import { sha256Hex, syncHmacSha256Hex, syncSha256Hex, toHex, webCryptoSha256Hex } from "./run-digests.js";
import { scriptedModel } from "./testing/index.js";

const KEY = { id: "k1", secret: "a-run-state-key-of-at-least-32-bytes!" };

/** The error `run` throws, or a failure when it throws none. */
async function caught(run: () => unknown): Promise<JunctionError> {
  try {
    await run();
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a JunctionError");
}

describe("canonicalJSON", () => {
  it("sorts keys at every level", () => {
    expect(canonicalJSON({ b: 1, a: { d: [2, { f: 3, e: 4 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":4,"f":3}]},"b":1}',
    );
  });

  it.each([
    { value: { amount: Number.NaN }, path: "$.amount", shown: "NaN", written: "null" },
    { value: { list: [1, Number.POSITIVE_INFINITY] }, path: "$.list[1]", shown: "Infinity", written: "null" },
    {
      value: { nested: { "odd key": [{ value: Number.NEGATIVE_INFINITY }] } },
      path: '$.nested["odd key"][0].value',
      shown: "-Infinity",
      written: "null",
    },
    { value: { zero: -0 }, path: "$.zero", shown: "-0", written: "0" },
    { value: -0, path: "$", shown: "-0", written: "0" },
  ])("refuses $value instead of folding it, naming $path", async ({ value, path, shown, written }) => {
    const error = await caught(() => canonicalJSON(value));
    expect(error.code).toBe("invalid-argument");
    expect(error.message).toContain(
      `The value at ${path} is ${shown}, which JSON cannot represent (it would be written as ${written})`,
    );
    // The digest path refuses it too.
    expect((await caught(() => argumentsDigest(value))).code).toBe("invalid-argument");
  });

  it("writes keys already in order, out of order and index-like alike, at every level", () => {
    expect(canonicalJSON({ a: 1, b: { c: [{ d: 2, e: 3 }] } })).toBe('{"a":1,"b":{"c":[{"d":2,"e":3}]}}');
    expect(canonicalJSON({ b: { e: 3, d: 2 }, a: 1 })).toBe('{"a":1,"b":{"d":2,"e":3}}');
    // Index-like keys come first in any object, in numeric order, however they were sorted.
    expect(canonicalJSON({ b: 1, 10: 2, a: 3, 2: 4 })).toBe('{"2":4,"10":2,"a":3,"b":1}');
    expect(canonicalJSON({ 1: "x", 10: "y" })).toBe('{"1":"x","10":"y"}');
  });

  it("keeps 0, finite numbers and dates as JSON writes them", () => {
    expect(canonicalJSON({ a: 0, b: -1.5, c: 1e21, d: new Date(0) })).toBe(
      '{"a":0,"b":-1.5,"c":1e+21,"d":"1970-01-01T00:00:00.000Z"}',
    );
  });
});

describe("sha256Hex", () => {
  it("hashes synchronously on Node, the same as WebCrypto, for every kind of text", async () => {
    const hash = syncSha256Hex();
    expect(hash).toBeTypeOf("function");
    // The SHA-256 of "abc" (FIPS 180-2's example).
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (const text of ["", "abc", "naïve – 東京 🚀", "a lone surrogate \ud800 here", "x".repeat(100_000)]) {
      expect(hash!(text)).toBe(await webCryptoSha256Hex(text));
      expect(await sha256Hex(text)).toBe(await webCryptoSha256Hex(text));
    }
  });
});

describe("syncHmacSha256Hex", () => {
  it("signs synchronously on Node, the same as WebCrypto, so a state signed in a browser verifies here", async () => {
    const hmac = syncHmacSha256Hex();
    expect(hmac).toBeTypeOf("function");
    // RFC 4231's test case 2: key "Jefe".
    expect(hmac!("Jefe", "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
    const secrets = [KEY.secret, new Uint8Array(40).map((_, index) => index * 7)];
    for (const secret of secrets) {
      const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
      const key = await crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]);
      for (const text of [
        "",
        "abc",
        "naïve – 東京 🚀",
        "a lone surrogate \ud800 here",
        "x".repeat(100_000),
      ]) {
        const webCrypto = toHex(
          new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text))),
        );
        expect(hmac!(secret, text)).toBe(webCrypto);
      }
    }
  });
});

describe("signed run states and unrepresentable numbers", () => {
  /** A run stopped at an approval of `transfer`, whose validated input is what `schema` makes of the model's. */
  function transferAgent(input: Record<string, unknown>, runs: unknown[]) {
    return new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "t1", name: "transfer", input }] }, { text: "done" }]),
      model: "m",
      runStateKey: KEY,
      approval: () => "ask",
      tools: [
        tool({
          name: "transfer",
          description: "Moves an amount",
          schema: z.object({ amount: z.number() }),
          execute: async (args) => {
            runs.push(args);
            return "moved";
          },
        }),
      ],
    });
  }

  it("makes a model's -0 argument 0, so it is shown, signed, resumed and run as 0", async () => {
    const runs: unknown[] = [];
    const agent = transferAgent({ amount: -0 }, runs);
    const stopped = await agent.send("move it").final;
    expect({ reason: stopped.finishReason, warnings: stopped.warnings }).toEqual({
      reason: "approval-required",
      warnings: [],
    });
    const pending = stopped.state!.pending[0]!;
    expect(Object.is((pending.input as { amount: number }).amount, 0)).toBe(true);
    expect(pending.argumentsDigest).toBe(await argumentsDigest({ amount: 0 }));
    const stored = JSON.parse(JSON.stringify(stopped.state));
    await verifyRunState(stored, KEY);
    const resumed = await agent.resume({ state: stored, decisions: { t1: "approve" } }).final;
    expect(resumed.text).toBe("done");
    expect(runs).toEqual([{ amount: 0 }]);
    expect(Object.is((runs[0] as { amount: number }).amount, 0)).toBe(true);
  });

  it("makes a model's -0 in a structured answer 0, so the answer can be signed (a served agent's task record)", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: '{"balance": -0, "history": [1, -0]}' }],
    });
    const agent = new Agent({
      provider,
      model: "m",
      output: z.object({ balance: z.number(), history: z.array(z.number()) }),
    });
    const result = await agent.send("What is the balance?").final;
    expect(Object.is(result.output?.balance, 0)).toBe(true);
    expect(Object.is(result.output?.history[1], 0)).toBe(true);
    expect(canonicalJSON(result.output)).toBe('{"balance":0,"history":[1,0]}');
  });

  it("refuses to sign a state holding NaN, naming where it is", async () => {
    const runs: unknown[] = [];
    const stopped = await transferAgent({ amount: 1 }, runs).send("move it").final;
    const state = stopped.state!;
    const poisoned = {
      ...state,
      pending: [{ ...state.pending[0]!, input: { amount: Number.NaN } }],
    };
    const error = await caught(() => signRunState(poisoned, KEY));
    expect(error.code).toBe("invalid-argument");
    expect(error.message).toContain("The value at $.amount is NaN");
  });
});

describe("runStateKey secrets", () => {
  it.each([
    ["a one-character string", "x", 1],
    ["31 bytes of text", "x".repeat(31), 31],
    ["16 random bytes", new Uint8Array(16), 16],
  ])("refuses %s at construction, saying the minimum and how to make one", async (_label, secret, bytes) => {
    const error = await caught(
      () => new Agent({ provider: scriptedModel([]), model: "m", runStateKey: { id: "short", secret } }),
    );
    expect(error.code).toBe("invalid-argument");
    expect(error.message).toBe(
      `\`runStateKey\` "short" has a ${bytes}-byte secret; a run-state secret must be 32 bytes or longer (as \`stateKey\` must), or its signatures can be guessed. Make one with \`node -e "console.log(crypto.randomBytes(32).toString('base64url'))"\` and keep it in your secret store.`,
    );
    // The same check wherever keys are taken: signing, verifying, and a rotation list's old keys.
    expect((await caught(() => signRunState({} as never, { id: "short", secret }))).code).toBe(
      "invalid-argument",
    );
    expect(
      (
        await caught(
          () =>
            new Agent({
              provider: scriptedModel([]),
              model: "m",
              runStateKey: [KEY, { id: "short", secret }],
            }),
        )
      ).message,
    ).toContain('"short"');
  });

  it("takes a 32-byte secret, text counted in UTF-8 bytes", () => {
    expect(
      () =>
        new Agent({
          provider: scriptedModel([]),
          model: "m",
          runStateKey: { id: "k", secret: new Uint8Array(32) },
        }),
    ).not.toThrow();
    // 11 three-byte characters: 33 bytes.
    expect(
      () =>
        new Agent({
          provider: scriptedModel([]),
          model: "m",
          runStateKey: { id: "k", secret: "€".repeat(11) },
        }),
    ).not.toThrow();
  });
});

describe("values JSON cannot carry, from tools", () => {
  it("drops a structured result holding NaN or -0 with a warning, so a signed stop still signs", async () => {
    const odd: Tool = {
      name: "odd",
      description: "Answers with numbers JSON cannot write",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true, openWorldHint: false },
      execute: async () => ({
        content: [{ type: "text", text: "odd" }],
        isError: false,
        structuredContent: { ratio: Number.NaN, zero: -0 },
      }),
    };
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "o1", name: "odd", input: {} }] },
        { toolCalls: [{ id: "t1", name: "transfer", input: { amount: 1 } }] },
      ]),
      model: "m",
      runStateKey: KEY,
      approval: (call) => (call.name === "transfer" ? "ask" : "approve"),
      tools: [
        odd,
        tool({
          name: "transfer",
          description: "Moves an amount",
          schema: z.object({ amount: z.number() }),
          execute: async () => "moved",
        }),
      ],
    });
    const stopped = await agent.send("go").final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.warnings.map((warning) => warning.code)).toEqual(["tool-output-structured-dropped"]);
    expect(stopped.warnings[0]!.message).toBe(
      'Tool "odd" returned structured content that was left out: it holds -0, which JSON cannot carry apart from 0.',
    );
    await verifyRunState(JSON.parse(JSON.stringify(stopped.state)), KEY);
  });
});
