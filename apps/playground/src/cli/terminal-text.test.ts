import { describe, expect, it } from "vitest";
import { toTerminalText } from "./terminal-text.js";

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
});
