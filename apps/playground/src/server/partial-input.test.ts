import { describe, expect, it } from "vitest";
import { MAXIMUM_PARTIAL_INPUT_CHARACTERS, PartialInputs } from "./partial-input.js";

describe("PartialInputs", () => {
  it("sends a call's first readable text, then only once it has grown by an eighth", () => {
    const inputs = new PartialInputs();
    expect(inputs.next("c1", "{")).toEqual({});
    expect(inputs.next("c1", '{"n')).toEqual({});
    expect(inputs.next("c1", '{"note":"a')).toEqual({ note: "a" });
    const long = `{"note":"${"x".repeat(800)}`;
    expect(inputs.next("c1", long)).toEqual({ note: "x".repeat(800) });
    expect(inputs.next("c1", `${long}${"y".repeat(50)}`)).toBeUndefined();
    expect(inputs.next("c1", `${long}${"y".repeat(110)}`)).toEqual({
      note: `${"x".repeat(800)}${"y".repeat(110)}`,
    });
    // Each call on its own.
    expect(inputs.next("c2", '{"a":1,')).toEqual({ a: 1 });
  });

  it("counts how many texts a long argument streamed token by token sends: a few dozen, not one per token", () => {
    const inputs = new PartialInputs();
    let text = '{"note":"';
    let sent = 0;
    while (text.length < MAXIMUM_PARTIAL_INPUT_CHARACTERS) {
      text += "word";
      if (inputs.next("c1", text)) sent++;
    }
    expect(sent).toBeGreaterThan(10);
    expect(sent).toBeLessThan(100);
    expect(inputs.next("c1", `${text}${"z".repeat(MAXIMUM_PARTIAL_INPUT_CHARACTERS)}`)).toBeUndefined();
  });

  it("sends nothing for text that does not read as an object", () => {
    const inputs = new PartialInputs();
    expect(inputs.next("c1", "[1, 2")).toBeUndefined();
    expect(inputs.next("c1", "nonsense")).toBeUndefined();
    expect(inputs.next("c1", "}")).toBeUndefined();
    // A first text that did not read does not count as sent.
    expect(inputs.next("c1", '{"a":"b')).toEqual({ a: "b" });
  });
});
