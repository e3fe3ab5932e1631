import { JunctionError, type SandboxProgram } from "@junction/types";

/**
 * Throws `invalid-argument` for a program the host built wrong: a source that is not a string, a
 * clock or seed that is not a finite number, or function names that cannot all be reached under
 * `tools` (an empty name or dotted part, or one name that is both a function and a group, like
 * `github` beside `github.create_issue`). The same name twice is one function.
 */
export function checkProgram(program: SandboxProgram): void {
  if (typeof program !== "object" || program === null) {
    throw new JunctionError(
      "invalid-argument",
      "A sandbox program must be an object with source, functions and call.",
    );
  }
  if (typeof program.source !== "string") {
    throw new JunctionError(
      "invalid-argument",
      "The program's source must be a string of JavaScript or TypeScript.",
    );
  }
  if (typeof program.call !== "function") {
    throw new JunctionError(
      "invalid-argument",
      "The program's call must be a function that answers tool calls.",
    );
  }
  for (const field of ["clockMs", "seed"] as const) {
    if (typeof program[field] !== "number" || !Number.isFinite(program[field])) {
      throw new JunctionError(
        "invalid-argument",
        `The program's ${field} must be a finite number; got ${String(program[field])}.`,
      );
    }
  }
  if (!Array.isArray(program.functions)) {
    throw new JunctionError("invalid-argument", "The program's functions must be an array of names.");
  }
  const names = new Set<string>();
  for (const name of program.functions) {
    if (typeof name !== "string" || name.split(".").some((part) => part === "")) {
      throw new JunctionError(
        "invalid-argument",
        `The function name ${JSON.stringify(name)} cannot be reached as tools.<name>: use non-empty parts separated by single dots.`,
      );
    }
    names.add(name);
  }
  for (const name of names) {
    const parts = name.split(".");
    for (let length = 1; length < parts.length; length++) {
      const group = parts.slice(0, length).join(".");
      if (names.has(group)) {
        throw new JunctionError(
          "invalid-argument",
          `The function names "${group}" and "${name}" clash: tools.${group} cannot be both a function and a group of functions.`,
        );
      }
    }
  }
}
