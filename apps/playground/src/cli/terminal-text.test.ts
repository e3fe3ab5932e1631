import { describe, expect, it } from "vitest";
import { toTerminalText, toTerminalWord } from "./terminal-text.js";

describe("toTerminalText", () => {
  it("keeps ordinary text, tabs, newlines and non-ASCII letters", () => {
    expect(toTerminalText("a\tb\nc — Grüße, 日本 ✓")).toBe("a\tb\nc — Grüße, 日本 ✓");
  });

  it("removes colours, cursor moves and line erasing", () => {
    expect(toTerminalText("\x1b[31mred\x1b[0m \x1b[2K\x1b[1A\x1b[1;1Hover")).toBe("red over");
    expect(toTerminalText("done\r\x1b[Kfake approval")).toBe("donefake approval");
  });

  it("removes window titles and OSC 52 clipboard writes, ended by BEL or ST", () => {
    expect(toTerminalText("\x1b]0;pwned title\x07after")).toBe("after");
    expect(toTerminalText("x\x1b]52;c;Y3VybCBldmlsLnNo\x1b\\y")).toBe("xy");
    expect(toTerminalText("\x1bPdevice control\x1b\\ok")).toBe("ok");
  });

  it("removes eight-bit C1 forms, other C0 controls and DEL", () => {
    expect(toTerminalText("\x9b31mred\x9d0;title\x07!")).toBe("red!");
    expect(toTerminalText("bell\x07 back\x08space nul\x00 del\x7f vt\x0b ff\x0c")).toBe(
      "bell backspace nul del vt ff",
    );
  });

  it("removes an unterminated sequence to the end and a lone escape", () => {
    expect(toTerminalText("text\x1b]52;c;unterminated")).toBe("text");
    expect(toTerminalText("end\x1b")).toBe("end");
    expect(toTerminalText("\x1bcreset")).toBe("reset");
  });

  it("removes bidi overrides, isolates, zero-width and other invisible format characters", () => {
    // U+202E shows "txt.exe" as "exe.txt"; U+2066–U+2069 isolate; U+200B, U+2060, U+FEFF, U+00AD hide.
    expect(toTerminalText("rm \u202etxt.exe\u202c ok")).toBe("rm txt.exe ok");
    expect(toTerminalText("a\u2066b\u2069c\u200bd\u2060e\ufefff\u00adg\u061ch")).toBe("abcdefgh");
    expect(toTerminalText("line\u2028separator\u2029end")).toBe("lineseparatorend");
  });
});

describe("toTerminalWord", () => {
  it("keeps a plain word as it is", () => {
    expect(toTerminalWord("call_1")).toBe("call_1");
    expect(toTerminalWord("toolu_01A-b.c Grüße")).toBe("toolu_01A-b.c Grüße");
  });

  it("writes controls, escapes, invisible characters and the backslash as escapes, dropping nothing", () => {
    expect(toTerminalWord("call_\u001b]52;c;ZXZpbA==\u0007\r\u202ex")).toBe(
      "call_\\u{1b}]52;c;ZXZpbA==\\u{7}\\u{d}\\u{202e}x",
    );
    expect(toTerminalWord("a\tb\nc\u00a0d\u200de\u{e000}f\ud800")).toBe(
      "a\\u{9}b\\u{a}c\\u{a0}d\\u{200d}e\\u{e000}f\\u{d800}",
    );
    expect(toTerminalWord("\u009b31m\u007f")).toBe("\\u{9b}31m\\u{7f}");
  });

  it("gives different words different forms, the escape character included", () => {
    // Without escaping the backslash, the first would print as the second.
    expect(toTerminalWord("a\\u{7}")).toBe("a\\\\u{7}");
    expect(toTerminalWord("a\u0007")).toBe("a\\u{7}");
  });
});
