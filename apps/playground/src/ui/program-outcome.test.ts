import { describe, expect, it } from "vitest";
import { readProgramOutcome } from "./program-outcome.js";

const result = (text: string, isError = false) => ({ content: [{ type: "text", text }], isError });

// The texts as core's code mode writes them (packages/core/src/code-mode/program-result.ts).
describe("readProgramOutcome", () => {
  it("reads the returned value, the console and leaves the calls section out", () => {
    expect(
      readProgramOutcome(
        result(
          'Returned: {"sum":5,"notes":["a\\n\\nb"]}\n\nConsole:\nread 3\n\nsecond paragraph\n\nCalls (2):\n1. everything_get-sum: success\n2. memory_create_entities: denied',
        ),
      ),
    ).toEqual({
      ok: true,
      headline: 'Returned: {"sum":5,"notes":["a\\n\\nb"]}',
      returned: { value: { sum: 5, notes: ["a\n\nb"] } },
      console: "read 3\n\nsecond paragraph",
    });
  });

  it("leaves out the calls section as core writes it now: a count per tool, then the calls that did not succeed", () => {
    for (const calls of [
      "Calls (21): 1 fs_list_directory, 20 fs_read_text_file, all succeeded",
      "Calls (3): 3 a; 2 did not succeed:\n2. a: denied\n3. a: error",
    ]) {
      expect(readProgramOutcome(result(`Returned: 1\n\nConsole:\nlogged\n\n${calls}`))).toEqual({
        ok: true,
        headline: "Returned: 1",
        returned: { value: 1 },
        console: "logged",
      });
    }
  });

  it("reads the console as the QuickJS sandbox writes it, each line ending with a newline", () => {
    expect(
      readProgramOutcome(
        result("Returned: 1\n\nConsole:\nfirst\n[warn] second\n\n\nCalls (1):\n1. a: success"),
      ),
    ).toEqual({ ok: true, headline: "Returned: 1", returned: { value: 1 }, console: "first\n[warn] second" });
  });

  it("keeps a program that returned nothing, or threw, as its headline", () => {
    expect(readProgramOutcome(result("The program returned nothing (undefined)."))).toEqual({
      ok: true,
      headline: "The program returned nothing (undefined).",
    });
    expect(
      readProgramOutcome(
        result(
          "The program threw TypeError: x is not a function\n\nConsole:\nstarting\n\nCalls (1):\n1. a: success\n… and 3 more (2 succeeded, 1 did not)",
          true,
        ),
      ),
    ).toEqual({
      ok: false,
      headline: "The program threw TypeError: x is not a function",
      console: "starting",
    });
  });

  it("shows a cut or hostile returned text as text, and a console that imitates the calls section as console", () => {
    expect(readProgramOutcome(result('Returned: {"cut":'))).toEqual({
      ok: true,
      headline: 'Returned: {"cut":',
    });
    expect(
      readProgramOutcome(
        result("Returned: 1\n\nConsole:\n<img src=x onerror=alert(1)>\n\nCalls (9):\nnot a call line"),
      ),
    ).toEqual({
      ok: true,
      headline: "Returned: 1",
      returned: { value: 1 },
      console: "<img src=x onerror=alert(1)>\n\nCalls (9):\nnot a call line",
    });
    expect(readProgramOutcome("nonsense")).toEqual({
      ok: false,
      headline: "The program's result is not a tool result: nonsense",
    });
  });

  it("prefers core's outcome as data: a console that imitates the sections is the console, an error message that names a limit is the error", () => {
    const structured = (structuredContent: unknown) => ({
      content: [{ type: "text", text: "ignored" }],
      isError: true,
      structuredContent,
    });
    expect(
      readProgramOutcome(
        structured({
          outcome: "returned",
          returned: { n: 1 },
          console: "Console:\n\nCalls (2):\n1. x\n",
          calls: [],
        }),
      ),
    ).toEqual({
      ok: true,
      headline: 'Returned: {"n":1}',
      returned: { value: { n: 1 } },
      console: "Console:\n\nCalls (2):\n1. x",
    });
    expect(
      readProgramOutcome(
        structured({
          outcome: "threw",
          error: { name: "Error", message: "stopped by its cpu limit" },
          console: "",
          calls: [],
        }),
      ),
    ).toEqual({
      ok: false,
      headline: "The program threw Error: stopped by its cpu limit",
    });
    expect(
      readProgramOutcome(
        structured({
          outcome: "limit",
          limit: { code: "memory", message: "over 64 MiB" },
          console: "",
          calls: [],
        }),
      ),
    ).toEqual({
      ok: false,
      headline: "The program was stopped by its memory limit: over 64 MiB",
    });
    // Not core's shape: read from the text instead.
    expect(readProgramOutcome(structured({ outcome: 7 })).headline).toBe("ignored");
  });
});
