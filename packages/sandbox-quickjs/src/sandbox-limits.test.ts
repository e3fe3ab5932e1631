import type { JSONValue, SandboxLimitCode, SandboxLimits, SandboxOutcome } from "@junction/types";
import { beforeAll, describe, expect, it } from "vitest";
import { program, recordingHost, THREADS } from "../test/program.js";
import { OVERRUN_NOTE } from "./guest-thread.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";
import { DEFAULT_SANDBOX_LIMITS, limitMessage, resolveSandboxLimits } from "./sandbox-limits.js";

// A generous CPU budget where CPU is not what a test is about: the machine may be busy.
let sandbox = quickjsSandbox({ limits: { cpuMs: 60_000 } });
let currentThread: (typeof THREADS)[number] = "host";

/** After a breach the sandbox still runs programs: the host is alive and the next run is normal. */
async function expectAliveAfterwards() {
  expect(await sandbox.run(program("return [1 + 1, typeof tools];"))).toEqual({
    kind: "returned",
    value: [2, "object"],
    console: "",
  });
}

function expectLimit(outcome: SandboxOutcome, code: SandboxLimitCode, limits?: Partial<SandboxLimits>) {
  expect(outcome).toMatchObject({ kind: "limit", code });
  const message = limitMessage(code, resolveSandboxLimits(limits));
  // On a worker thread, a runtime or a machine slow to check the interrupt may let the watchdog
  // end the guest first (guest-thread.ts): the same limit, its message noting it.
  const messages = currentThread === "worker" ? [message, `${message} ${OVERRUN_NOTE}`] : [message];
  expect(messages).toContain((outcome as { message: string }).message);
}

describe("limits", () => {
  it("has defaults for every limit", () => {
    expect(DEFAULT_SANDBOX_LIMITS).toEqual({
      memoryBytes: 64 * 1024 * 1024,
      stackBytes: 256 * 1024,
      cpuMs: 1000,
      wallMs: 30_000,
      maxCalls: 1000,
      maxCallsInFlight: 32,
      sourceBytes: 64 * 1024,
      argumentBytes: 1024 * 1024,
      resultBytes: 1024 * 1024,
      consoleBytes: 16 * 1024,
    });
  });

  it("layers the sandbox's limits and the program's over the defaults", () => {
    expect(resolveSandboxLimits({ cpuMs: 500, maxCalls: 3 }, { maxCalls: 5 })).toEqual({
      ...DEFAULT_SANDBOX_LIMITS,
      cpuMs: 500,
      maxCalls: 5,
    });
  });

  it("refuses a limit that is not a positive number, naming it", () => {
    expect(() => quickjsSandbox({ limits: { cpuMs: -1 } })).toThrow(
      'Sandbox limit "cpuMs" must be a positive number; got -1.',
    );
    expect(() => resolveSandboxLimits({ maxCalls: 1.5 })).toThrow(
      'Sandbox limit "maxCalls" must be a positive whole number; got 1.5.',
    );
    expect(() => resolveSandboxLimits({ wallMs: Number.NaN })).toThrow('"wallMs"');
    expect(() => resolveSandboxLimits({ memory: 1 } as never)).toThrow('Unknown sandbox limit "memory"');
  });
});

// Every case on the calling thread and on a worker thread (guest-thread.ts): the same outcomes.
describe.each(THREADS)("on the %s thread", (thread) => {
  beforeAll(() => {
    sandbox = quickjsSandbox({ thread, limits: { cpuMs: 60_000 } });
    currentThread = thread;
  });

  describe("each breach is a limit outcome, and the host goes on", () => {
    it("stops while(true) at the CPU limit", async () => {
      expectLimit(await sandbox.run(program("while (true) {}", { limits: { cpuMs: 100 } })), "cpu", {
        cpuMs: 100,
      });
      await expectAliveAfterwards();
    });

    it("stops a loop the program runs from a promise job at the CPU limit", async () => {
      const outcome = await sandbox.run(
        program(
          "await tools.a(); Promise.resolve().then(() => { for (;;) {} }); await new Promise(() => {});",
          {
            functions: ["a"],
            limits: { cpuMs: 100 },
          },
        ),
      );
      expectLimit(outcome, "cpu", { cpuMs: 100 });
    });

    it("stops a catastrophically backtracking regular expression at the CPU limit", async () => {
      const outcome = await sandbox.run(
        program("return /^(a+)+$/.test('a'.repeat(40) + 'b');", { limits: { cpuMs: 100 } }),
      );
      expectLimit(outcome, "cpu", { cpuMs: 100 });
      await expectAliveAfterwards();
    });

    it("stops a memory bomb at the memory limit", async () => {
      const outcome = await sandbox.run(program("let a = []; for (;;) a.push('x'.repeat(1e6));"));
      expectLimit(outcome, "memory");
      await expectAliveAfterwards();
    });

    it("stops a memory bomb that catches out-of-memory and tries again", async () => {
      const outcome = await sandbox.run(
        program("let a = []; for (;;) { try { a.push('x'.repeat(1e6)); } catch {} }"),
      );
      expectLimit(outcome, "memory");
      await expectAliveAfterwards();
    });

    it("ends with the memory limit when one refused allocation is caught and smaller ones go on", async () => {
      // The 60 MB string is refused at the cap; the 20 MB after it fit under the cap, and the
      // memory grows for it. The breach stands all the same: neither run returns its text.
      const limits = { memoryBytes: 32 * 1024 * 1024 };
      for (const after of [
        "const buffer = new ArrayBuffer(20e6); return 'went on with ' + buffer.byteLength;",
        "const keep = []; for (let i = 0; i < 20; i++) keep.push('y'.repeat(1e6) + i); return 'went on with ' + keep.length;",
      ]) {
        const outcome = await sandbox.run(
          program(`try { globalThis.big = 'x'.repeat(60e6); } catch {}\n${after}`, { limits }),
        );
        expectLimit(outcome, "memory", limits);
      }
      await expectAliveAfterwards();
    });

    it("stops one native call that would allocate past the limit", async () => {
      expectLimit(
        await sandbox.run(program("const a = []; a.length = 1e8; a.fill({}); return a.length;")),
        "memory",
      );
      expectLimit(
        await sandbox.run(program("return new Array(2e7).fill(0).map((x, i) => ({ i })).length;")),
        "memory",
      );
      await expectAliveAfterwards();
    });

    it("gives a smaller memory limit to a program that asks for one", async () => {
      const source =
        "const a = []; for (let i = 0; i < 40; i++) a.push('x'.repeat(1e6) + i); return a.length;";
      expect(await sandbox.run(program(source))).toMatchObject({ kind: "returned", value: 40 });
      expectLimit(
        await sandbox.run(program(source, { limits: { memoryBytes: 16 * 1024 * 1024 } })),
        "memory",
        {
          memoryBytes: 16 * 1024 * 1024,
        },
      );
    });

    it("stops deep recursion at the stack limit", async () => {
      expectLimit(await sandbox.run(program("function f(n) { return f(n + 1) + 1; } return f(0);")), "stack");
      await expectAliveAfterwards();
    });

    it("answers recursion that exhausts the host's own stack first as the stack limit, and reloads the engine", async () => {
      // JSON.stringify of a deeply nested array recurses in C with frames QuickJS does not count.
      const outcome = await sandbox.run(
        program(
          "let a = []; let c = a; for (let i = 0; i < 200000; i++) { c[0] = []; c = c[0]; } return a;",
          {
            limits: { stackBytes: 1024 * 1024 },
          },
        ),
      );
      expectLimit(outcome, "stack", { stackBytes: 1024 * 1024 });
      await expectAliveAfterwards();
    });

    it("stops deep recursion that calls a tool and logs at every level, whatever the stack limit", async () => {
      for (const stackBytes of [256 * 1024, 1024 * 1024]) {
        const outcome = await sandbox.run(
          program("function f(n) { tools.a({ n }); console.log(n); return f(n + 1) + 1; } return f(0);", {
            functions: ["a"],
            call: () => new Promise(() => {}),
            limits: { stackBytes, maxCalls: 100_000, maxCallsInFlight: 100_000 },
          }),
        );
        expect(outcome).toMatchObject({ kind: "limit", code: "stack" });
      }
      await expectAliveAfterwards();
    });

    it("refuses a 50 MB return value at the result-size limit", async () => {
      expectLimit(await sandbox.run(program("return 'x'.repeat(50e6);")), "result-size");
      expectLimit(
        await sandbox.run(program("return Array.from({ length: 2000 }, () => 'y'.repeat(1000));")),
        "result-size",
      );
      await expectAliveAfterwards();
    });

    it("refuses a 50 MB tool argument at the argument-size limit, before the host sees it", async () => {
      const host = recordingHost();
      const outcome = await sandbox.run(
        program("await tools.save({ text: 'x'.repeat(50e6) });", { functions: ["save"], call: host.call }),
      );
      expectLimit(outcome, "argument-size");
      expect(host.calls).toEqual([]);
      await expectAliveAfterwards();
    });

    it("measures an argument in UTF-8 bytes as JSON", async () => {
      const host = recordingHost();
      const limits = { argumentBytes: 100 };
      // As JSON, 86 bytes (75 of them the 25 euro signs), then 131: the characters alone are 25 and 40.
      const outcome = await sandbox.run(
        program("await tools.save({ text: '€'.repeat(25) }); await tools.save({ text: '€'.repeat(40) });", {
          functions: ["save"],
          call: host.call,
          limits,
        }),
      );
      expectLimit(outcome, "argument-size", limits);
      expect(host.calls.map((call) => call.args)).toEqual([{ text: "€".repeat(25) }]);
    });

    it("stops a getter that loops while its object is copied out, at the CPU limit", async () => {
      const host = recordingHost();
      const outcome = await sandbox.run(
        program("await tools.save({ get x() { for (;;) {} } });", {
          functions: ["save"],
          call: host.call,
          limits: { cpuMs: 100 },
        }),
      );
      expectLimit(outcome, "cpu", { cpuMs: 100 });
      expect(host.calls).toEqual([]);
      await expectAliveAfterwards();
    });

    it("ends the run at the call past maxCalls", async () => {
      const host = recordingHost();
      const limits = { maxCalls: 5 };
      const outcome = await sandbox.run(
        program("for (let i = 1; ; i++) await tools.a({ i });", {
          functions: ["a"],
          call: host.call,
          limits,
        }),
      );
      expectLimit(outcome, "calls", limits);
      expect(host.calls.map((call) => call.sequence)).toEqual([1, 2, 3, 4, 5]);
      await expectAliveAfterwards();
    });

    it("ends the run when more calls than maxCallsInFlight wait at once", async () => {
      const host = recordingHost();
      const limits = { maxCallsInFlight: 3 };
      const outcome = await sandbox.run(
        program(
          `await Promise.all([1, 2, 3].map((i) => tools.a({ i })));
         await Promise.all([4, 5, 6, 7].map((i) => tools.a({ i })));`,
          { functions: ["a"], call: host.call, limits },
        ),
      );
      expectLimit(outcome, "calls-in-flight", limits);
      expect(host.calls.map((call) => call.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it("ends a run aborted by a host call while the guest loops inside Promise executors, and the host goes on", async () => {
      // QuickJS turns an executor's exceptions into rejections, the stop too: a stop after the run had
      // ended (the abort) must also be checked again at the next tick, or the host's thread never returns.
      const controller = new AbortController();
      const outcome = await sandbox.run(
        program("tools.stop(); for (;;) new Promise(() => { for (;;) {} });", {
          functions: ["stop"],
          call: () => {
            controller.abort();
            return new Promise(() => {});
          },
          signal: controller.signal,
        }),
      );
      expect(outcome).toEqual({ kind: "aborted", console: "" });
      await expectAliveAfterwards();
    });

    it("answers a tool result nested deeper than the guest's stack can read as a ToolError the program can catch", async () => {
      const limits = { stackBytes: 32 * 1024 };
      const outcome = await sandbox.run(
        program(
          `let failure;
         try { await tools.deep(); } catch (error) { failure = [error.name, error.code]; }
         return [failure, await tools.flat()];`,
          {
            functions: ["deep", "flat"],
            call: async (name) => {
              if (name === "flat") return [1];
              let nested: JSONValue = [];
              for (let depth = 0; depth < 3000; depth++) nested = [nested];
              return nested;
            },
            limits,
          },
        ),
      );
      expect(outcome).toEqual({
        kind: "returned",
        value: [["ToolError", "result-not-json"], [1]],
        console: "",
      });
      await expectAliveAfterwards();
    });

    it("stops an Array method walking a huge length of holes at the CPU limit, and the host goes on", async () => {
      // QuickJS checks its interrupt only in bytecode: each of these was one C loop of hours.
      const walks = [
        "const a = []; a.length = 2 ** 32 - 1; return a.join();",
        "return Array.prototype.indexOf.call({ length: 2 ** 40 }, 1);",
        "const a = []; a.length = 2 ** 32 - 1; return a.reduce((total) => total, 0);",
        "const a = []; a.length = 2 ** 32 - 1; return [].concat(a).length;",
        "const a = []; a.length = 2 ** 32 - 1; return [1].flatMap(() => a).length;",
        "const a = []; a.length = 2 ** 32 - 1; return [[a]].flat(2).length;",
      ];
      for (const source of walks) {
        expectLimit(await sandbox.run(program(source, { limits: { cpuMs: 100 } })), "cpu", { cpuMs: 100 });
      }
      await expectAliveAfterwards();
    });

    it("guards the walks however the program first reaches them: implicitly, after replacing the built-ins the guards use, by descriptor", async () => {
      // The guards are compiled when the program first reads one of these methods; nothing it does
      // before that (replacing Proxy, Reflect, Object, Symbol...) lets a walk run in C again.
      const walks = [
        "const a = []; a.length = 2 ** 32 - 1; return String(a);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the program's own template literal
        "const a = []; a.length = 2 ** 32 - 1; return `${a}`;",
        `Proxy = function (target) { return target; }; Reflect.apply = (f, self, args) => f.apply(self, args);
       Reflect.get = (target, key) => target[key]; Object.getOwnPropertyDescriptor = () => undefined; Symbol = undefined;
       const a = []; a.length = 2 ** 32 - 1; return a.indexOf(1);`,
        `const walk = Object.getOwnPropertyDescriptor(Array.prototype, "lastIndexOf").get.call([]);
       return walk.call({ length: 2 ** 40 }, 1);`,
        `"x".indexOf("x"); String.prototype.slice = () => ""; const a = []; a.length = 2 ** 32 - 1; return a.includes(1);`,
      ];
      for (const source of walks) {
        expectLimit(await sandbox.run(program(source, { limits: { cpuMs: 100 } })), "cpu", { cpuMs: 100 });
      }
      await expectAliveAfterwards();
    });

    it("keeps a method the program sets or deletes before it first reads one, as plain properties", async () => {
      const outcome = await sandbox.run(
        program(
          `Array.prototype.join = function () { return "mine"; };
         const own = []; own.map = 5;
         delete String.prototype.split;
         const described = Object.getOwnPropertyDescriptor(Array.prototype, "join");
         return [[1, 2].join(), own.map, Object.hasOwn(own, "map"), typeof "a,b".split, typeof described.value, described.writable,
                 [3, 1, 2].sort().indexOf(3), typeof Object.getOwnPropertyDescriptor(Array.prototype, "sort").value];`,
        ),
      );
      expect(outcome).toEqual({
        kind: "returned",
        value: ["mine", 5, true, "undefined", "function", true, 2, "function"],
        console: "",
      });
    });

    it("walks a long array with its methods as the program's own object: this, getters and callbacks see it", async () => {
      const value = await sandbox.run(
        program(
          `const a = []; a.length = 200000; a[5] = 3; a[199999] = 7;
         let seen;
         Object.defineProperty(a, 10, { get() { seen = this; return 9; }, enumerable: true, configurable: true });
         const objects = [];
         a.forEach((v, i, o) => objects.push(o === a));
         return [a.indexOf(7), a.includes(9), seen === a, objects, a.reduce((t, v, i, o) => t + (o === a ? v : 1000), 0),
           a.join("").length, a.reverse() === a, a[0], [].concat(a, [1]).length,
           [1, , [2, , [3, [4]]]].flat(), [1, [2, [3, [4]]]].flat(Infinity), [[1], [2]].flat(0).length];`,
        ),
      );
      expect(value).toMatchObject({
        kind: "returned",
        value: [
          199999,
          true,
          true,
          [true, true, true],
          19,
          3,
          true,
          7,
          200001,
          [1, 2, [3, [4]]],
          [1, 2, 3, 4],
          2,
        ],
      });
    });

    it("stops a string searched for a long near-match at the CPU limit, and the host goes on", async () => {
      // QuickJS searches in C in time of the text's length times the needle's: each was hours.
      const text = 'const hay = "a".repeat(2e7); const needle = "a".repeat(1e5) + "b";';
      for (const search of [
        "hay.indexOf(needle)",
        "hay.includes(needle)",
        "hay.lastIndexOf(needle)",
        "hay.split(needle)",
      ]) {
        const outcome = await sandbox.run(program(`${text} return ${search};`, { limits: { cpuMs: 100 } }));
        expectLimit(outcome, "cpu", { cpuMs: 100 });
      }
      await expectAliveAfterwards();
    });

    it("finds in a long string what the native search finds, however it is cut", async () => {
      const source = `const n = "a".repeat(5000) + "b"; const t = "a".repeat(20000) + n + "c" + n + "a".repeat(10);
      return [t.indexOf(n), t.indexOf(n, 20001), t.indexOf(n, 99999), t.lastIndexOf(n), t.lastIndexOf(n, 25000),
        t.lastIndexOf(n, 19999), t.includes(n, 25002), t.split(n).map((part) => part.length), t.split(n, 1).length];`;
      expect(await sandbox.run(program(source))).toMatchObject({
        kind: "returned",
        value: [20000, 25002, -1, 25002, 20000, -1, true, [20000, 1, 10], 1],
      });
    });

    // replace with a string pattern searched in C the same way ('"a".repeat(2e7).replace("a".repeat(1e5)
    // + "b", "")' blocked the host for hours past every limit); replaceAll was stopped already.
    it("stops a string replaced at a long near-match at the CPU limit, and the host goes on", async () => {
      const text = 'const hay = "a".repeat(2e7); const needle = "a".repeat(1e5) + "b";';
      for (const replace of ['hay.replace(needle, "x")', "hay.replace(needle, () => 1)"]) {
        const outcome = await sandbox.run(program(`${text} return ${replace};`, { limits: { cpuMs: 100 } }));
        expectLimit(outcome, "cpu", { cpuMs: 100 });
      }
      await expectAliveAfterwards();
    });

    it("stops a long sort in C at the CPU limit, and the host goes on", async () => {
      // Each was one C sort of seconds past the limit (a byte array's by number, an Array's toSorted
      // by the elements' text): n log n comparisons with no bytecode between them.
      const sorts = [
        "const a = new Uint8Array(5e7); for (let i = 0; i < a.length; i += 4096) a[i] = i; a.sort(); return a[0];",
        "const a = new Uint8Array(2e7); for (let i = 0; i < a.length; i += 4096) a[i] = i; return a.toSorted()[0];",
        "const a = new Array(1e6).fill(1); return a.toSorted().length;",
      ];
      for (const source of sorts) {
        expectLimit(await sandbox.run(program(source, { limits: { cpuMs: 100 } })), "cpu", { cpuMs: 100 });
      }
      await expectAliveAfterwards();
    });

    it("sorts a long array as the native sort does: typed arrays by number (NaN last, -0 first), Arrays by text", async () => {
      const values = Array.from({ length: 300_000 }, (_, i) => {
        const x = (i * 48_271) % 2_147_483_647;
        return x % 5 === 0 ? Number.NaN : x % 7 === 0 ? -0 : x % 11 === 0 ? 0 : (x % 1000) - 500;
      });
      const byNumber = Float64Array.from(values).sort();
      const byText = [...values.slice(0, 200_000), undefined, "b", "a"].toSorted();
      const source = `const values = Array.from({ length: 300000 }, (_, i) => {
        const x = (i * 48271) % 2147483647;
        return x % 5 === 0 ? NaN : x % 7 === 0 ? -0 : x % 11 === 0 ? 0 : (x % 1000) - 500;
      });
      const sorted = Float64Array.from(values).sort();
      const copied = Float64Array.from(values).toSorted();
      const holes = values.slice(0, 200000); holes.push(undefined, "b", "a"); holes.length += 2;
      const text = holes.toSorted();
      const same = (a, b) => a.length === b.length && a.every((item, i) => Object.is(item, b[i]));
      return [same(sorted, copied), Array.from(sorted, String).join(), text.length, text.map(String).join()];`;
      const outcome = await sandbox.run(
        program(source, { limits: { cpuMs: 60_000, resultBytes: 16 * 1024 * 1024 } }),
      );
      expect(outcome).toMatchObject({
        kind: "returned",
        value: [
          true,
          Array.from(byNumber, String).join(),
          byText.length + 2,
          [...byText, undefined, undefined].map(String).join(),
        ],
      });
    });

    it("replaces in a long string what the native replace does, patterns and a function's answer included", async () => {
      // Long enough (5,006 × 4,000) that the search is cut; the same calls made here by V8 are the answer.
      const n = `${"a".repeat(3999)}b`;
      const t = `x${"a".repeat(5000)}b-tail`;
      const templates = ["[$&]", "<$`>", "<$'>", "$$", "$1 $<name> $", "plain"];
      const source = `const n = "a".repeat(3999) + "b"; const t = "x" + "a".repeat(5000) + "b-tail";
      const answers = ${JSON.stringify(templates)}.map((template) => t.replace(n, template));
      answers.push(t.replace(n, (match, at, whole) => match.length + "@" + at + "/" + whole.length));
      answers.push(t.replace(n + "z", "never"), t.replace({ toString: () => n }, "object"));
      return answers;`;
      const expected = templates.map((template) => t.replace(n, template));
      expected.push(t.replace(n, (match, at, whole) => `${match.length}@${at}/${whole.length}`));
      expected.push(t.replace(`${n}z`, "never"), t.replace(n, "object"));
      expect(await sandbox.run(program(source))).toMatchObject({ kind: "returned", value: expected });
    });

    it("answers an oversized source before running anything", async () => {
      const host = recordingHost();
      const outcome = await sandbox.run(
        program(`await tools.a({}); // ${"x".repeat(64 * 1024)}`, { functions: ["a"], call: host.call }),
      );
      expect(outcome).toEqual({
        kind: "limit",
        code: "source-size",
        message: "The program's source is larger than 64 KiB; nothing was run.",
        console: "",
      });
      expect(host.calls).toEqual([]);
    });
  });
});
