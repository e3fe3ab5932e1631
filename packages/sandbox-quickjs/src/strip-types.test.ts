import { describe, expect, it } from "vitest";
import { mayHoldTypeArguments, stripTypes } from "./strip-types.js";

describe("stripTypes", () => {
  it("takes the types out and leaves the rest, lines and all", async () => {
    const source = "const a: number = 1;\ninterface I { x: string }\nreturn a as number;";
    const stripped = await stripTypes(source);
    expect(stripped).toEqual({ kind: "stripped", code: "const a = 1;\n\nreturn a ;" });
  });

  it("keeps modern JavaScript as written (no rewriting for old engines)", async () => {
    const source = "a ??= b?.c; class K { #p = 1; static { } }";
    expect(await stripTypes(source)).toEqual({ kind: "stripped", code: source });
  });

  it("keeps an import, for the engine to refuse", async () => {
    expect(await stripTypes("import x from 'y';")).toEqual({ kind: "stripped", code: "import x from 'y';" });
  });

  it("answers a source it cannot read with its message, line and column", async () => {
    expect(await stripTypes("let x = ;")).toEqual({ kind: "unreadable", message: "Unexpected token (1:9)" });
  });
});

describe("mayHoldTypeArguments", () => {
  it.each([
    "return f<T>(x);",
    "return a.b<T, U>(x);",
    "return new Map<string, number>();",
    "return f<Array<T>>(x);",
    "return tag<T>`x`;",
    "return f<T> /* a comment */ (x);",
    "const g = a<b>\nc;",
    "return f<() => void>(x);",
    "if (a < b) return c > (d);",
  ])("says %j may hold type arguments", (source) => {
    expect(mayHoldTypeArguments(source)).toBe(true);
  });

  it.each([
    "return 1;",
    "const r = await tools.fs.read({ path: 'a' }); return r.length;",
    "for (let i = 0; i < 10; i++) await tools.x({ i });",
    "return items.filter((item) => item.n < 5).map((item) => ({ n: item.n }));",
    "return a > b ? a : b;",
    "return x >= (y);",
  ])("says %j holds none", (source) => {
    expect(mayHoldTypeArguments(source)).toBe(false);
  });
});
