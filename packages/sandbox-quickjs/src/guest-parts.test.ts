import { describe, expect, it } from "vitest";
import { program, recordingHost, TEST_CLOCK_MS } from "../test/program.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";

// What a run compiles only when the program first uses it (console, ToolError), what the host does
// for the guest (Math.random, reading a thrown value), and that none of it opens a way out.

// A generous CPU budget where CPU is not what a test is about: the machine may be busy.
const sandbox = quickjsSandbox({ limits: { cpuMs: 30_000 } });

async function returnedValue(source: string, options: Parameters<typeof program>[1] = {}) {
  const outcome = await sandbox.run(program(source, options));
  if (outcome.kind !== "returned") throw new Error(`expected a value, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe("the console, made when first read", () => {
  it("works when first used deep in nested calls, inside a tool's answer", async () => {
    const outcome = await returnedValue(
      `function deep(n) { if (n === 0) { console.log("bottom", { n }); return n; } return deep(n - 1) + 1; }
       const answer = await tools.a({}).then((value) => deep(50) + value.length);
       console.warn("after", answer);
       return answer;`,
      { functions: ["a"], call: async () => "xyz" },
    );
    expect(outcome).toEqual({ kind: "returned", value: 53, console: 'bottom {"n":0}\n[warn] after 53\n' });
  });

  it("works when first used after a caught error, and in a catch block", async () => {
    const outcome = await returnedValue(
      `try { null.x; } catch (error) { console.error(error); }
       try { throw new RangeError("again"); } catch (error) { console.log("caught", error); }
       return 1;`,
    );
    expect(outcome.console).toBe(
      "[error] TypeError: cannot read property 'x' of null\ncaught RangeError: again\n",
    );
  });

  it("is made from the built-ins as they were before the program replaced them", async () => {
    const outcome = await returnedValue(
      `const trap = () => { throw new Error("trapped"); };
       for (const key of ["get", "set", "value", "writable", "configurable", "enumerable"])
         Object.defineProperty(Object.prototype, key, Object.setPrototypeOf({ get: trap, set: trap, configurable: true }, null));
       String.prototype.slice = trap; Function.prototype.call = trap; Function.prototype.apply = trap;
       JSON.stringify = trap; JSON.parse = trap; String = trap; Error = trap; Reflect.apply = trap;
       Object.create = trap; Object.freeze = trap; Object.defineProperty = trap; Array.isArray = trap;
       console.log("text", { a: [1, 2] }, new TypeError("bad"), 7, null, undefined);
       return 1;`,
    );
    expect(outcome.console).toBe('text {"a":[1,2]} TypeError: bad 7 null undefined\n');
  });

  it("can be replaced, read as a plain value, or deleted before it is ever made", async () => {
    const replaced = await returnedValue(
      `const lines = []; console = { log: (text) => lines.push(text) }; console.log("mine"); return lines;`,
    );
    expect(replaced).toEqual({ kind: "returned", value: ["mine"], console: "" });
    const read = await returnedValue(
      `const first = console; const descriptor = Object.getOwnPropertyDescriptor(globalThis, "console");
       return [first === console, typeof descriptor.value, descriptor.writable, descriptor.enumerable, Object.isFrozen(first)];`,
    );
    expect(read.value).toEqual([true, "object", true, false, true]);
    const deleted = await returnedValue(`delete globalThis.console; return typeof console;`);
    expect(deleted.value).toBe("undefined");
  });

  it("gives the program nothing of what makes it: the getter answers the console, and no caller or host function", async () => {
    const outcome = await returnedValue(
      `const { get, set } = Object.getOwnPropertyDescriptor(globalThis, "console");
       const seen = [get() === get(), get() === console, Object.getOwnPropertyNames(get).sort().join()];
       for (const probe of [() => get.caller, () => get.arguments, () => set.caller]) {
         try { seen.push(String(probe())); } catch (error) { seen.push(error.name); }
       }
       try { get.constructor("return 1"); } catch (error) { seen.push(error.name); }
       seen.push(Object.keys(console).length, Object.getOwnPropertyNames(console).sort().join());
       return seen;`,
    );
    expect(outcome.value).toEqual([
      true,
      true,
      "length,name,prototype",
      "TypeError",
      "TypeError",
      "TypeError",
      "EvalError",
      0,
      "debug,error,info,log,warn",
    ]);
  });

  it("stops a program that makes it fail again and again at the stack limit, by the CPU or stack limit", async () => {
    const outcome = await sandbox.run(
      program(
        `function down() { try { return down(); } catch (error) { try { console.log("x"); } catch (again) {} return 0; } }
         for (;;) down();`,
        { limits: { cpuMs: 300 } },
      ),
    );
    expect(outcome.kind).toBe("limit");
  });
});

describe("ToolError, made when first read or when a call first fails", () => {
  it("is the same class whichever comes first", async () => {
    const failing = async () => {
      throw { code: "denied", message: "no" };
    };
    const readFirst = await returnedValue(
      `const Class = ToolError; try { await tools.a(); } catch (error) { return [error instanceof Class, error instanceof ToolError, error.name, error.code, error.message]; }`,
      { functions: ["a"], call: failing },
    );
    const failFirst = await returnedValue(
      `try { await tools.a(); } catch (error) { return [error instanceof ToolError, error instanceof Error, error.name, error.code, error.message, Object.keys(error)]; }`,
      { functions: ["a"], call: failing },
    );
    expect(readFirst.value).toEqual([true, true, "ToolError", "denied", "no"]);
    expect(failFirst.value).toEqual([true, true, "ToolError", "denied", "no", ["code"]]);
  });

  it("stays the sandbox's own when the program replaces the global or traps Object.prototype first", async () => {
    const outcome = await returnedValue(
      `const trap = () => { throw new Error("trapped"); };
       for (const key of ["value", "writable", "enumerable", "configurable", "get", "set"])
         Object.defineProperty(Object.prototype, key, Object.setPrototypeOf({ get: trap, set: trap, configurable: true }, null));
       globalThis.ToolError = class Fake extends Error {};
       try { await tools.a(); } catch (error) { return [error instanceof ToolError, error.name, error.code]; }`,
      { functions: ["a"], call: recordingHost(() => Promise.reject({ code: "x", message: "y" })).call },
    );
    expect(outcome.value).toEqual([false, "ToolError", "x"]);
  });

  it("is there in a program given no functions", async () => {
    const outcome = await returnedValue(
      `const error = new ToolError("code", "message"); return [error.name, error.code, error.message, error instanceof Error, Object.keys(tools)];`,
    );
    expect(outcome.value).toEqual(["ToolError", "code", "message", true, []]);
  });
});

describe("Math.random, drawn on the host", () => {
  it("gives the numbers the guest's own generator gave for a seed", async () => {
    const outcome = await returnedValue(
      "return [Math.random(), Math.random(), Math.random.name, Math.random.length];",
      {
        seed: 42,
      },
    );
    expect(outcome.value).toEqual([0.7010580966032915, 0.3602520223017406, "random", 0]);
  });

  it("cannot be used to reach the host: its constructor is blocked and it is no constructor itself", async () => {
    const outcome = await returnedValue(
      `const seen = [];
       try { Math.random.constructor("return 1"); } catch (error) { seen.push(error.name); }
       try { new Math.random(); } catch (error) { seen.push(error.name); }
       seen.push(Math.random.call({ any: 1 }) < 1, Object.getPrototypeOf(Math.random) === Function.prototype);
       return seen;`,
    );
    expect(outcome.value).toEqual(["EvalError", "TypeError", true, true]);
  });
});

describe("a thrown value, read by the host in the guest's time", () => {
  it("reads a getter, a non-string name or message, a primitive and a symbol as the guest would", async () => {
    const threw = async (source: string) => {
      const outcome = await sandbox.run(program(source));
      if (outcome.kind !== "threw") throw new Error(`expected a throw, got ${JSON.stringify(outcome)}`);
      return outcome.error;
    };
    expect(
      await threw(`throw { get name() { return "Custom"; }, get message() { return "from a getter"; } };`),
    ).toEqual({ name: "Custom", message: "from a getter" });
    expect(
      await threw(
        `throw { name: 5, message: { toString() { return "ignored"; } }, toString() { return "as text"; } };`,
      ),
    ).toEqual({
      name: "Error",
      message: "as text",
    });
    expect(await threw(`throw 42;`)).toEqual({ name: "Error", message: "42" });
    expect(await threw(`throw Symbol("odd");`)).toEqual({ name: "Error", message: "Symbol(odd)" });
    expect(await threw(`throw { name: "Named", get message() { throw new Error("no"); } };`)).toEqual({
      name: "Named",
      message: "the program threw a value that could not be read",
    });
    expect(await threw(`throw new Error("x".repeat(9000));`)).toEqual({
      name: "Error",
      message: "x".repeat(8000),
    });
  });

  it("is not fooled by a replaced Reflect.get or String", async () => {
    const outcome = await sandbox.run(
      program(`Reflect.get = () => "fake"; String = () => "fake"; throw new TypeError("real");`),
    );
    expect(outcome).toEqual({ kind: "threw", error: { name: "TypeError", message: "real" }, console: "" });
  });

  it("stops a getter that never ends at the CPU limit, and the host goes on", async () => {
    const outcome = await sandbox.run(
      program(`throw { get name() { for (;;) {} } };`, { limits: { cpuMs: 100 } }),
    );
    expect(outcome).toMatchObject({ kind: "limit", code: "cpu" });
    expect((await returnedValue("return 1;")).value).toBe(1);
  });
});

describe("Date, made when first read", () => {
  it("stands still at clockMs however it is first reached, and the real constructor stays out of reach", async () => {
    const outcome = await returnedValue(
      `const { get } = Object.getOwnPropertyDescriptor(globalThis, "Date");
       const First = get();
       const date = new First();
       const viaPrototype = Object.getPrototypeOf(date).constructor;
       return [First === Date, viaPrototype === Date, viaPrototype.now(), date.getTime(), Date.now(),
         typeof Date(), Object.getOwnPropertyDescriptor(Date, "prototype").writable, new Date(5).getTime()];`,
    );
    expect(outcome.value).toEqual([
      true,
      true,
      TEST_CLOCK_MS,
      TEST_CLOCK_MS,
      TEST_CLOCK_MS,
      "string",
      false,
      5,
    ]);
  });

  it("works when first read inside a tool's answer, after the program trapped Object.prototype", async () => {
    const outcome = await returnedValue(
      `const trap = () => { throw new Error("trapped"); };
       for (const key of ["value", "writable", "enumerable", "configurable", "get", "set"])
         Object.defineProperty(Object.prototype, key, Object.setPrototypeOf({ get: trap, set: trap, configurable: true }, null));
       return await tools.a({}).then(() => [Date.now(), new Date().toISOString(), Date.UTC(2020, 0, 1)]);`,
      { functions: ["a"] },
    );
    expect(outcome.value).toEqual([TEST_CLOCK_MS, new Date(TEST_CLOCK_MS).toISOString(), 1577836800000]);
  });

  it("can be replaced before it is ever made", async () => {
    const outcome = await returnedValue(`Date = { now: () => 3 }; return Date.now();`);
    expect(outcome.value).toBe(3);
  });
});

describe("copying out, made at its first use", () => {
  it("copies a call's argument and the return value with the built-ins as they were, when first used after the program replaced them", async () => {
    const host = recordingHost(() => "ok");
    const outcome = await returnedValue(
      `const trap = () => { throw new Error("trapped"); };
       JSON.stringify = trap; Array.isArray = trap; Reflect.apply = trap;
       const answer = await tools.a({ list: [1, "two"], __proto__: { inherited: 1 } });
       return { answer, list: [3] };`,
      { functions: ["a"], call: host.call },
    );
    expect(host.calls.map((call) => call.args)).toEqual([{ list: [1, "two"] }]);
    expect(outcome.value).toEqual({ answer: "ok", list: [3] });
  });

  it("reads a returned number, boolean or null on the host as its JSON would parse", async () => {
    const values = await Promise.all(
      ["1.5", "-0", "NaN", "Infinity", "true", "false", "null", "undefined", "'text'", "() => 1"].map(
        async (expression) => (await returnedValue(`return ${expression};`)).value,
      ),
    );
    expect(values).toEqual([1.5, 0, null, null, true, false, null, undefined, "text", undefined]);
    expect(Object.is(values[1], 0)).toBe(true);
  });
});
