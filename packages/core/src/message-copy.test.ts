import type { Message } from "@junction/types";
import { describe, expect, it } from "vitest";
import { mutableMessages, ownMessages } from "./message-copy.js";

const withInput = (input: unknown): Message => ({
  role: "assistant",
  content: [{ type: "tool-call", id: "c1", name: "t", input }],
});

describe("ownMessages", () => {
  it("copies deeply and freezes every level; the original stays unfrozen", () => {
    const original = withInput({ nested: { list: [1, { deep: true }] } });
    const [owned] = ownMessages([original]);
    expect(owned).toEqual(original);
    expect(owned).not.toBe(original);
    const input = (owned!.content[0] as { input: { nested: { list: unknown[] } } }).input;
    expect(Object.isFrozen(owned)).toBe(true);
    expect(Object.isFrozen(owned!.content)).toBe(true);
    expect(Object.isFrozen(input.nested.list)).toBe(true);
    expect(Object.isFrozen(input.nested.list[1])).toBe(true);
    expect(Object.isFrozen(original)).toBe(false);
    expect(Object.isFrozen((original.content[0] as { input: object }).input)).toBe(false);
  });

  it("keeps a `__proto__` key from JSON as data, never as the copy's prototype", () => {
    const original = withInput(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'));
    const [owned] = ownMessages([original]);
    const input = (owned!.content[0] as { input: Record<string, unknown> }).input;
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect((input as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(input)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(input)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it("copies what is not plain data with structuredClone, as before, and refuses a function as it did", () => {
    const when = new Date(0);
    const [owned] = ownMessages([withInput({ when, bytes: new Uint8Array([1, 2]) })]);
    const input = (owned!.content[0] as { input: { when: Date; bytes: Uint8Array } }).input;
    expect(input.when).toEqual(when);
    expect(input.when).not.toBe(when);
    expect([...input.bytes]).toEqual([1, 2]);
    expect(() => ownMessages([withInput({ run: () => 1 })])).toThrow(/could not be cloned/);
  });

  it("leaves anything but an array for validation to name", () => {
    expect(ownMessages(undefined)).toBeUndefined();
    expect(ownMessages("nope" as unknown as Message[])).toBe("nope");
  });
});

describe("mutableMessages", () => {
  it("gives unfrozen copies of frozen messages", () => {
    const owned = ownMessages([withInput({ a: 1 })]);
    const [copy] = mutableMessages(owned);
    expect(copy).toEqual(owned[0]);
    expect(Object.isFrozen(copy)).toBe(false);
    (copy!.content[0] as { input: { a: number } }).input.a = 2;
    expect((owned[0]!.content[0] as { input: { a: number } }).input.a).toBe(1);
  });
});
