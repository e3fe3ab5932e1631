import { describe, expect, it } from "vitest";
import { hostValueToJSON, parseGuestJSON, truncateUTF8, utf8ByteLength } from "./bridge-json.js";

describe("utf8ByteLength", () => {
  it("counts what TextEncoder encodes, surrogate pairs and lone surrogates included", () => {
    for (const text of ["", "ascii", "é", "€uro", "😀 two units", "a\uD800b", "\uDC00", "x\uD83D"]) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});

describe("parseGuestJSON", () => {
  it("drops __proto__, constructor and prototype keys at any depth", () => {
    const value = parseGuestJSON(
      '{"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{"polluted":2}},"prototype":1,"b":[{"__proto__":0}]}}',
    ) as Record<string, unknown>;
    expect(value).toEqual({ a: { b: [{}] } });
    expect(Object.hasOwn(value, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("drops a forbidden key written with escapes", () => {
    const value = parseGuestJSON('{"\\u005f_proto__":{"polluted":1},"a":"\\u0063onstructor"}');
    expect(value).toEqual({ a: "constructor" });
  });
});

describe("hostValueToJSON", () => {
  it("gives JSON text, undefined for undefined, and the reason for what JSON cannot hold", () => {
    expect(hostValueToJSON({ a: [1] })).toEqual({ text: '{"a":[1]}' });
    expect(hostValueToJSON(undefined)).toEqual({ text: undefined });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    // V8 and Deno say "circular", Bun (JavaScriptCore) "cyclic".
    expect(hostValueToJSON(cyclic)).toMatchObject({ error: expect.stringMatching(/circular|cyclic/) });
    expect(hostValueToJSON(1n)).toMatchObject({ error: expect.stringContaining("BigInt") });
  });
});

describe("truncateUTF8", () => {
  it("cuts to at most the bytes given, never inside a character", () => {
    expect(truncateUTF8("short", 10)).toBe("short");
    expect(truncateUTF8("abcdef", 3)).toBe("abc");
    expect(truncateUTF8("a€b", 2)).toBe("a");
    expect(truncateUTF8("a€b", 4)).toBe("a€");
    expect(truncateUTF8("😀😀", 5)).toBe("😀");
  });
});
