import { describe, expect, it } from "vitest";
import { createConsoleCapture } from "./console-capture.js";

describe("createConsoleCapture", () => {
  it("keeps one line per call, with warn and error marked", () => {
    const capture = createConsoleCapture(1000);
    capture.append("log", "a");
    capture.append("info", "b");
    capture.append("warn", "c");
    capture.append("error", "d");
    expect(capture.text()).toBe("a\nb\n[warn] c\n[error] d\n");
  });

  it("keeps at most maxBytes and then says the rest was dropped", () => {
    const capture = createConsoleCapture(10);
    capture.append("log", "12345");
    capture.append("log", "€€€€");
    capture.append("log", "never kept");
    expect(capture.text()).toBe("12345\n€\n…cut: console output past 10 bytes was dropped\n");
  });

  it("keeps output that fills the cap exactly, with no note", () => {
    const capture = createConsoleCapture(6);
    capture.append("log", "12345");
    expect(capture.text()).toBe("12345\n");
  });
});
