import { JunctionError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { program, randomOrder, recordingHost, shuffledHost, TEST_CLOCK_MS } from "../test/program.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";

// A generous CPU budget where CPU is not what a test is about: the machine may be busy.
const sandbox = quickjsSandbox({ limits: { cpuMs: 30_000 } });

describe("a program is the body of an async function", () => {
  it("returns its value as JSON", async () => {
    const outcome = await sandbox.run(program("return { a: [1, 'two', true, null], b: { c: 1.5 } };"));
    expect(outcome).toEqual({
      kind: "returned",
      value: { a: [1, "two", true, null], b: { c: 1.5 } },
      console: "",
    });
  });

  it("returns undefined when it returns nothing", async () => {
    const outcome = await sandbox.run(program("const x = 1;"));
    expect(outcome).toEqual({ kind: "returned", value: undefined, console: "" });
  });

  it("awaits at the top level", async () => {
    const outcome = await sandbox.run(program("const x = await Promise.resolve(20); return x + (await 1);"));
    expect(outcome).toEqual({ kind: "returned", value: 21, console: "" });
  });

  it("gives JSON's view of what it returns: functions left out, toJSON applied, a Date as text", async () => {
    const outcome = await sandbox.run(
      program("return { f() {}, n: NaN, d: new Date(0), t: { toJSON() { return 'mine'; } }, u: undefined };"),
    );
    expect(outcome).toEqual({
      kind: "returned",
      value: { n: null, d: "1970-01-01T00:00:00.000Z", t: "mine" },
      console: "",
    });
  });

  it("answers a value JSON cannot hold as the program's error", async () => {
    const outcome = await sandbox.run(program("const a = {}; a.self = a; return a;"));
    expect(outcome).toMatchObject({ kind: "threw", error: { name: "TypeError" } });
    expect(outcome.kind === "threw" && outcome.error.message).toMatch(
      /^The program's return value is not JSON: /,
    );
  });

  it("strips TypeScript's types before running", async () => {
    const outcome = await sandbox.run(
      program(`
        interface Issue { number: number; title?: string }
        type Pair<T> = [T, T];
        enum Color { Red = "red", Blue = "blue" }
        const first = <T,>(pair: Pair<T>): T => pair[0];
        const issue: Issue = { number: first<number>([7, 8]) } as Issue;
        return [issue.number, Color.Blue, issue satisfies Issue ? 1 : 0];
      `),
    );
    expect(outcome).toEqual({ kind: "returned", value: [7, "blue", 1], console: "" });
  });

  it("reads type arguments as TypeScript, where JavaScript would read comparisons", async () => {
    // As JavaScript, each is valid: (id < number) > (5), and so on; as TypeScript, calls.
    const outcome = await sandbox.run(
      program(`
        function id(x) { return x; }
        const number = 0, string = 0;
        return [id<number>(5), id<string>\`t\`, id < number > (6)];
      `),
    );
    expect(outcome).toEqual({ kind: "returned", value: [5, ["t"], 6], console: "" });
  });

  it("strips a source's types only once QuickJS cannot compile it as written, and says where it cannot be read", async () => {
    const typed = await sandbox.run(program("const n: number = 2;\nreturn n * 21;"));
    expect(typed).toEqual({ kind: "returned", value: 42, console: "" });
    const broken = await sandbox.run(program("let x = ;"));
    expect(broken).toEqual({
      kind: "threw",
      error: { name: "SyntaxError", message: "Unexpected token (1:9)" },
      console: "",
    });
  });

  it("runs modern JavaScript as written", async () => {
    const outcome = await sandbox.run(
      program(`
        class Counter { #count = 0; static made = 0; static { Counter.made = 1; } add() { return ++this.#count; } }
        const counter = new Counter();
        counter.add();
        let value = null;
        value ??= counter.add();
        return [value, Counter.made, [1, 2, 3].at(-1), 10_000n.toString(), { a: { b: 1 } }?.a?.b];
      `),
    );
    expect(outcome).toEqual({ kind: "returned", value: [2, 1, 3, "10000", 1], console: "" });
  });
});

describe("errors in the guest", () => {
  it("answers an uncaught error with its name and message", async () => {
    const outcome = await sandbox.run(program('throw new RangeError("x is out of range");'));
    expect(outcome).toEqual({
      kind: "threw",
      error: { name: "RangeError", message: "x is out of range" },
      console: "",
    });
  });

  it("answers a thrown value that is not an Error", async () => {
    const outcome = await sandbox.run(program('throw "plain text";'));
    expect(outcome).toEqual({ kind: "threw", error: { name: "Error", message: "plain text" }, console: "" });
  });

  it("answers a syntax error in the source as a SyntaxError, running nothing", async () => {
    const host = recordingHost();
    const outcome = await sandbox.run(
      program("await tools.a({});\nconst = 1;", { functions: ["a"], call: host.call }),
    );
    expect(outcome).toMatchObject({ kind: "threw", error: { name: "SyntaxError" } });
    expect(outcome.kind === "threw" && outcome.error.message).toContain("(2:7)");
    expect(host.calls).toEqual([]);
  });

  it("answers a syntax error only QuickJS finds", async () => {
    const outcome = await sandbox.run(program("import fs from 'node:fs';\nreturn fs;"));
    expect(outcome).toMatchObject({ kind: "threw", error: { name: "SyntaxError" } });
  });

  it("answers a rejected promise the program awaited", async () => {
    const outcome = await sandbox.run(program("await Promise.reject(new TypeError('no'));"));
    expect(outcome).toEqual({ kind: "threw", error: { name: "TypeError", message: "no" }, console: "" });
  });
});

describe("tools", () => {
  it("calls the host with each call's name, arguments as JSON and sequence number", async () => {
    const host = recordingHost((call) => ({ got: call.args }));
    const outcome = await sandbox.run(
      program(
        `const first = await tools.search({ query: "build", limit: 5 });
         const second = await tools.github.create_issue({ title: "Broken", labels: ["ci"] });
         const third = await tools.github.issues.list();
         return [first, second, third];`,
        { functions: ["search", "github.create_issue", "github.issues.list"], call: host.call },
      ),
    );
    expect(host.calls).toEqual([
      { name: "search", args: { query: "build", limit: 5 }, sequence: 1 },
      { name: "github.create_issue", args: { title: "Broken", labels: ["ci"] }, sequence: 2 },
      { name: "github.issues.list", args: {}, sequence: 3 },
    ]);
    expect(outcome).toEqual({
      kind: "returned",
      value: [
        { got: { query: "build", limit: 5 } },
        { got: { title: "Broken", labels: ["ci"] } },
        { got: {} },
      ],
      console: "",
    });
  });

  it("has only the functions it was given", async () => {
    const outcome = await sandbox.run(
      program("return [Object.keys(tools), Object.keys(tools.github), typeof tools.other];", {
        functions: ["search", "github.create_issue", "github.list"],
      }),
    );
    expect(outcome).toMatchObject({
      kind: "returned",
      value: [["search", "github"], ["create_issue", "list"], "undefined"],
    });
  });

  it("copies arguments out as plain JSON, without __proto__, constructor or prototype keys", async () => {
    const host = recordingHost();
    const outcome = await sandbox.run(
      program(
        `await tools.save(JSON.parse('{"__proto__":{"polluted":1},"ok":1,"nested":{"constructor":{"prototype":{"polluted":2}},"prototype":3,"kept":[{"__proto__":4}]}}'));
         return "sent";`,
        { functions: ["save"], call: host.call },
      ),
    );
    expect(outcome).toMatchObject({ kind: "returned", value: "sent" });
    expect(host.calls).toHaveLength(1);
    const args = host.calls[0]!.args as Record<string, unknown>;
    expect(JSON.stringify(args)).toBe('{"ok":1,"nested":{"kept":[{}]}}');
    expect(Object.hasOwn(args, "__proto__")).toBe(false);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("copies arguments with the built-ins as they were before the program ran", async () => {
    const host = recordingHost();
    await sandbox.run(
      program(
        `JSON.stringify = () => '{"__proto__":{"polluted":1}}';
         Array.isArray = () => true;
         Object.defineProperty(Object.prototype, "toJSON", { value: undefined, configurable: true });
         await tools.save({ items: [1, 2], name: "n" });`,
        { functions: ["save"], call: host.call },
      ),
    );
    expect(host.calls.map((call) => call.args)).toEqual([{ items: [1, 2], name: "n" }]);
  });

  it("refuses an argument that is not JSON in the guest, where the program can catch it", async () => {
    const host = recordingHost();
    const outcome = await sandbox.run(
      program(
        `const caught = [];
         for (const bad of [() => 1, Symbol("s")]) {
           try { await tools.save(bad); } catch (error) { caught.push(error.name + ": " + error.message); }
         }
         try { const a = {}; a.a = a; await tools.save(a); } catch (error) { caught.push(error.name); }
         try { await tools.save({ big: 1n }); } catch (error) { caught.push(error.name); }
         return caught;`,
        { functions: ["save"], call: host.call },
      ),
    );
    expect(outcome).toMatchObject({
      kind: "returned",
      value: [
        "TypeError: tools.save: the argument must be JSON (an object, an array, a string, a number, a boolean or null)",
        "TypeError: tools.save: the argument must be JSON (an object, an array, a string, a number, a boolean or null)",
        "TypeError",
        "TypeError",
      ],
    });
    expect(host.calls).toEqual([]);
  });

  it("gives the guest a copy of each result: changing it changes nothing on the host", async () => {
    const shared = { count: 1, list: [1] };
    const outcome = await sandbox.run(
      program("const value = await tools.get(); value.count = 99; value.list.push(2); return value;", {
        functions: ["get"],
        call: async () => shared,
      }),
    );
    expect(outcome).toMatchObject({ kind: "returned", value: { count: 99, list: [1, 2] } });
    expect(shared).toEqual({ count: 1, list: [1] });
  });

  it("gives the guest a string result whole: a NUL, a lone surrogate, a pair, plain text", async () => {
    const texts = ["a\u0000b", "x\uD800y", "😀", "plain"];
    const outcome = await sandbox.run(
      program(
        "const out = [];\nfor (let i = 0; i < 4; i++) { const text = await tools.text({ i }); out.push([...text].map((c) => c.codePointAt(0))); }\nreturn out;",
        { functions: ["text"], call: async (_name, args) => texts[(args as { i: number }).i]! },
      ),
    );
    expect(outcome).toMatchObject({
      kind: "returned",
      value: texts.map((text) => [...text].map((c) => c.codePointAt(0))),
    });
  });

  it("throws a host rejection in the guest as a ToolError the program can catch and go on from", async () => {
    const outcome = await sandbox.run(
      program(
        `let seen;
         try {
           await tools.github.create_issue({ title: "x" });
         } catch (error) {
           seen = [error instanceof ToolError, error instanceof Error, error.name, error.code, error.message];
         }
         const after = await tools.search({});
         return { seen, after };`,
        {
          functions: ["github.create_issue", "search"],
          call: async (name) => {
            if (name === "github.create_issue") throw { code: "tool-denied", message: "A person said no." };
            return "still here";
          },
        },
      ),
    );
    expect(outcome).toEqual({
      kind: "returned",
      value: { seen: [true, true, "ToolError", "tool-denied", "A person said no."], after: "still here" },
      console: "",
    });
  });

  it("ends with the ToolError when the program does not catch it", async () => {
    const outcome = await sandbox.run(
      program("await tools.a({});", {
        functions: ["a"],
        call: async () => Promise.reject({ code: "tool-execution-failed", message: "The server is down." }),
      }),
    );
    expect(outcome).toEqual({
      kind: "threw",
      error: { name: "ToolError", message: "The server is down." },
      console: "",
    });
  });

  it("turns a host rejection that is not a SandboxCallError into a ToolError with its message", async () => {
    const outcome = await sandbox.run(
      program("try { await tools.a({}); } catch (error) { return [error.code, error.message]; }", {
        functions: ["a"],
        call: async () => {
          throw new Error("socket hang up");
        },
      }),
    );
    expect(outcome).toMatchObject({ kind: "returned", value: ["tool-error", "socket hang up"] });
  });

  it("throws a ToolError for a host result JSON cannot hold", async () => {
    const outcome = await sandbox.run(
      program("try { await tools.a({}); } catch (error) { return error.code; }", {
        functions: ["a"],
        call: async () => ({ big: 1n }) as never,
      }),
    );
    expect(outcome).toMatchObject({ kind: "returned", value: "result-not-json" });
  });

  it("refuses function names that cannot all be reached", async () => {
    await expect(sandbox.run(program("", { functions: ["github", "github.create_issue"] }))).rejects.toThrow(
      'The function names "github" and "github.create_issue" clash',
    );
    await expect(sandbox.run(program("", { functions: ["a..b"] }))).rejects.toThrow(JunctionError);
  });
});

describe("results are delivered in the order the calls were issued", () => {
  const tenCalls = `
    const order = [];
    const calls = [];
    for (let i = 1; i <= 10; i++) calls.push(tools.fetch({ i }).then((result) => { order.push(result.sequence); return result.sequence; }));
    const all = await Promise.all(calls);
    return { order, all };`;

  it("runs the guest's .then callbacks in issue order whatever order the host settles in", async () => {
    const outcomes = new Set<string>();
    const settleOrders = new Set<string>();
    for (let run = 0; run < 100; run++) {
      let settled: number[] = [];
      const host = shuffledHost(10, (sequences) => {
        settled = randomOrder(sequences);
        return settled;
      });
      const outcome = await sandbox.run(program(tenCalls, { functions: ["fetch"], call: host.call }));
      outcomes.add(JSON.stringify(outcome));
      settleOrders.add(settled.join(","));
    }
    const inOrder = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([...outcomes]).toEqual([
      JSON.stringify({ kind: "returned", value: { order: inOrder, all: inOrder }, console: "" }),
    ]);
    // The host really did settle in many orders.
    expect(settleOrders.size).toBeGreaterThan(50);
  });

  it("makes the same calls every time when a call's argument depends on which result came first", async () => {
    const source = `
      const first = await Promise.race([tools.slow({ n: 1 }), tools.slow({ n: 2 }), tools.slow({ n: 3 })]);
      const arrivals = [];
      await Promise.all([1, 2].map((n) => tools.slow({ n: 10 + n }).then((result) => arrivals.push(result.args.n))));
      await tools.record({ first: first.args.n, arrivals });
      return "done";`;
    const callLists = new Set<string>();
    for (let run = 0; run < 100; run++) {
      const calls: unknown[] = [];
      const three = shuffledHost(3, randomOrder);
      const two = shuffledHost(2, randomOrder);
      const outcome = await sandbox.run(
        program(source, {
          functions: ["slow", "record"],
          call: (name, args, sequence) => {
            calls.push({ name, args, sequence });
            if (name === "record") return Promise.resolve(null);
            return sequence <= 3 ? three.call(name, args, sequence) : two.call(name, args, sequence);
          },
        }),
      );
      expect(outcome).toMatchObject({ kind: "returned", value: "done" });
      callLists.add(JSON.stringify(calls));
    }
    expect([...callLists]).toHaveLength(1);
    expect(JSON.parse([...callLists][0]!).at(-1)).toEqual({
      name: "record",
      args: { first: 1, arrivals: [11, 12] },
      sequence: 6,
    });
  });
});

describe("a virtual clock and a seeded Math.random", () => {
  it("starts Date.now() and new Date() at clockMs and keeps them still, tool calls and all", async () => {
    const outcome = await sandbox.run(
      program(
        `const before = [Date.now(), new Date().getTime(), Date()];
         for (let i = 0; i < 100000; i++) {}
         await tools.wait();
         return { before, after: [Date.now(), new Date().valueOf()], epoch: new Date(0).toISOString(),
           isDate: new Date() instanceof Date, parsed: Date.parse("2020-01-01T00:00:00Z"), utc: Date.UTC(2020, 0, 1),
           sub: new (class extends Date {})().getTime() };`,
        { functions: ["wait"], call: () => new Promise((resolve) => setTimeout(() => resolve(null), 20)) },
      ),
    );
    expect(outcome).toEqual({
      kind: "returned",
      value: {
        before: [TEST_CLOCK_MS, TEST_CLOCK_MS, new Date(TEST_CLOCK_MS).toString().replace(/ \(.*\)$/, "")],
        after: [TEST_CLOCK_MS, TEST_CLOCK_MS],
        epoch: "1970-01-01T00:00:00.000Z",
        isDate: true,
        parsed: 1577836800000,
        utc: 1577836800000,
        sub: TEST_CLOCK_MS,
      },
      console: "",
    });
  });

  it("gives the same Math.random numbers for the same seed and others for another", async () => {
    const source = "return Array.from({ length: 8 }, () => Math.random());";
    const run = async (seed: number) => {
      const outcome = await sandbox.run(program(source, { seed }));
      if (outcome.kind !== "returned") throw new Error(JSON.stringify(outcome));
      return outcome.value as number[];
    };
    const [a, again, b, c, fraction] = await Promise.all([
      run(42),
      run(42),
      run(43),
      run(42 + 2 ** 32),
      run(42.5),
    ]);
    expect(again).toEqual(a);
    for (const other of [b, c, fraction]) expect(other).not.toEqual(a);
    for (const value of [...a, ...b]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
    expect(new Set(a).size).toBe(8);
  });
});

describe("the console", () => {
  it("captures log, info, warn and error, one line each", async () => {
    const outcome = await sandbox.run(
      program(
        `console.log("plain", 1, { a: [1] }, null, undefined);
         console.info("info");
         console.warn("careful");
         console.error(new TypeError("bad"));
         return 1;`,
      ),
    );
    expect(outcome).toEqual({
      kind: "returned",
      value: 1,
      console: 'plain 1 {"a":[1]} null undefined\ninfo\n[warn] careful\n[error] TypeError: bad\n',
    });
  });

  it("keeps consoleBytes of output and says the rest was cut", async () => {
    const outcome = await sandbox.run(
      program("for (let i = 0; i < 1000; i++) console.log('line ' + i + ' é'); return 'done';", {
        limits: { consoleBytes: 100 },
      }),
    );
    expect(outcome.kind).toBe("returned");
    const text = outcome.console;
    const [kept = "", note] = text.split("…cut");
    expect(new TextEncoder().encode(kept).length).toBeLessThanOrEqual(101);
    expect(kept.startsWith("line 0 é\nline 1 é\n")).toBe(true);
    expect(note).toBe(": console output past 100 bytes was dropped\n");
  });

  it("keeps the console of a program that ends in an error or a limit", async () => {
    const threw = await sandbox.run(program("console.log('before'); throw new Error('x');"));
    expect(threw.console).toBe("before\n");
    // A budget the first console.log cannot use up (it compiles the console part, in the guest's
    // time, on the clock): on a busy machine 50 ms ran out before 'before' was kept.
    const limit = await sandbox.run(
      program("console.log('before'); while (true) {}", { limits: { cpuMs: 500 } }),
    );
    expect(limit).toMatchObject({ kind: "limit", code: "cpu", console: "before\n" });
  });
});

describe("each run is fresh", () => {
  it("has no global a previous run set", async () => {
    await sandbox.run(
      program("globalThis.leftOver = 1; Object.prototype.leaked = 2; Array.prototype.push = null;"),
    );
    const outcome = await sandbox.run(
      program("const a = []; a.push(1); return [typeof leftOver, ({}).leaked, a];"),
    );
    expect(outcome).toEqual({ kind: "returned", value: ["undefined", null, [1]], console: "" });
  });

  it("runs programs side by side, each on an engine of its own", async () => {
    const outcomes = await Promise.all(
      [1, 2, 3].map((n) =>
        sandbox.run(
          program(`globalThis.mine = ${n}; await tools.wait(); return globalThis.mine;`, {
            functions: ["wait"],
            call: () => new Promise((resolve) => setImmediate(() => resolve(null))),
          }),
        ),
      ),
    );
    expect(outcomes.map((outcome) => outcome.kind === "returned" && outcome.value)).toEqual([1, 2, 3]);
  });
});

describe("ending without a hang", () => {
  it("returns while a detached promise never settles", async () => {
    const outcome = await sandbox.run(
      program("new Promise(() => {}); tools.slow(); return 'left it';", {
        functions: ["slow"],
        call: () => new Promise(() => {}),
      }),
    );
    expect(outcome).toEqual({ kind: "returned", value: "left it", console: "" });
  });

  it("ends a program that awaits something that never settles once nothing is left to do", async () => {
    const outcome = await sandbox.run(
      program("await tools.a(); await new Promise(() => {});", { functions: ["a"] }),
    );
    expect(outcome).toEqual({
      kind: "threw",
      error: {
        name: "Error",
        message:
          "the program awaited something that never settles: every tool call was answered and nothing is left to run",
      },
      console: "",
    });
  });

  it("ends a host call that never returns at the wall-time limit", async () => {
    const outcome = await sandbox.run(
      program("console.log('waiting'); await tools.forever();", {
        functions: ["forever"],
        call: () => new Promise(() => {}),
        limits: { wallMs: 200 },
      }),
    );
    expect(outcome).toEqual({
      kind: "limit",
      code: "wall-time",
      message: "The program took more than 200 ms in all, waiting on tools included.",
      console: "waiting\n",
    });
  });

  it("does not count time waiting on the host against the CPU budget", async () => {
    const outcome = await sandbox.run(
      program("const result = await tools.slow(); return result;", {
        functions: ["slow"],
        call: () => new Promise((resolve) => setTimeout(() => resolve("late but fine"), 1500)),
        limits: { cpuMs: 1000 },
      }),
    );
    expect(outcome).toEqual({ kind: "returned", value: "late but fine", console: "" });
  });
});

describe("abort", () => {
  it("ends a run waiting on the host at once, and the sandbox goes on", async () => {
    const controller = new AbortController();
    let called!: () => void;
    const calledOnce = new Promise<void>((resolve) => {
      called = resolve;
    });
    const running = sandbox.run(
      program("console.log('started'); await tools.person();", {
        functions: ["person"],
        call: () => {
          called();
          return new Promise(() => {});
        },
        signal: controller.signal,
      }),
    );
    await calledOnce;
    controller.abort();
    expect(await running).toEqual({ kind: "aborted", console: "started\n" });
    expect(await sandbox.run(program("return 'next'"))).toMatchObject({ kind: "returned", value: "next" });
  });

  it("ends a run whose host call aborts the signal while the guest is running", async () => {
    const controller = new AbortController();
    const outcome = await sandbox.run(
      program("tools.stop(); for (;;) {}", {
        functions: ["stop"],
        call: () => {
          controller.abort();
          return new Promise(() => {});
        },
        signal: controller.signal,
      }),
    );
    expect(outcome).toEqual({ kind: "aborted", console: "" });
  });

  it("answers a signal aborted before the run without running it", async () => {
    const host = recordingHost();
    const outcome = await sandbox.run(
      program("await tools.a();", { functions: ["a"], call: host.call, signal: AbortSignal.abort() }),
    );
    expect(outcome).toEqual({ kind: "aborted", console: "" });
    expect(host.calls).toEqual([]);
  });

  it("leaves nothing behind after many aborted runs", async () => {
    for (let run = 0; run < 20; run++) {
      const controller = new AbortController();
      const running = sandbox.run(
        program(
          "const all = []; for (let i = 0; i < 5; i++) all.push(tools.wait({ i })); await Promise.all(all);",
          {
            functions: ["wait"],
            call: (_name, _args, sequence) => {
              if (sequence === 5) queueMicrotask(() => controller.abort());
              return new Promise(() => {});
            },
            signal: controller.signal,
          },
        ),
      );
      expect(await running).toEqual({ kind: "aborted", console: "" });
    }
    expect(await sandbox.run(program("return 'fine'"))).toMatchObject({ kind: "returned", value: "fine" });
  });
});
