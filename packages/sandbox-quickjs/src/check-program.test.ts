import { describe, expect, it } from "vitest";
import { program } from "../test/program.js";
import { checkProgram } from "./check-program.js";

describe("checkProgram", () => {
  it("accepts a program whose function names all reach tools.<name>", () => {
    expect(() => checkProgram(program("", { functions: ["a", "b.c", "b.d.e", "a"] }))).not.toThrow();
  });

  it("refuses what the host built wrong, naming it", () => {
    expect(() => checkProgram(program("", { functions: ["b", "b.c"] }))).toThrow(
      'The function names "b" and "b.c" clash: tools.b cannot be both a function and a group of functions.',
    );
    expect(() => checkProgram(program("", { functions: ["a."] }))).toThrow('The function name "a."');
    expect(() => checkProgram(program("", { functions: [""] }))).toThrow('The function name ""');
    expect(() => checkProgram(program("", { seed: Number.NaN }))).toThrow(
      "The program's seed must be a finite number; got NaN.",
    );
    expect(() => checkProgram(program("", { clockMs: "now" as never }))).toThrow("clockMs");
    expect(() => checkProgram(program(1 as never))).toThrow("source must be a string");
  });
});
