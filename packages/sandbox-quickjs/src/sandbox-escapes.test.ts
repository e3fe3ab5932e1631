import { beforeAll, describe, expect, it } from "vitest";
import { program, recordingHost, THREADS } from "../test/program.js";
import { quickjsSandbox } from "./quickjs-sandbox.js";

// A generous CPU budget where CPU is not what a test is about: the machine may be busy.
let sandbox = quickjsSandbox({ limits: { cpuMs: 30_000 } });

async function returnedValue(source: string, options: Parameters<typeof program>[1] = {}) {
  const outcome = await sandbox.run(program(source, options));
  if (outcome.kind !== "returned") throw new Error(`expected a value, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}

const CODE_GENERATION = /code generation from strings is not allowed in the sandbox/;

// Every case on the calling thread and on a worker thread (guest-thread.ts): the same outcomes.
describe.each(THREADS)("on the %s thread", (thread) => {
  beforeAll(() => {
    sandbox = quickjsSandbox({ thread, limits: { cpuMs: 30_000 } });
  });

  describe("nothing of the host is there", () => {
    it("has no fetch, timers, modules, process, WebAssembly or shared memory", async () => {
      const names = [
        "fetch",
        "setTimeout",
        "setInterval",
        "setImmediate",
        "queueMicrotask",
        "require",
        "module",
        "process",
        "Deno",
        "Bun",
        "WebAssembly",
        "SharedArrayBuffer",
        "Atomics",
        "eval",
        "XMLHttpRequest",
        "WebSocket",
        "performance",
        "std",
        "os",
        "WeakRef",
        "FinalizationRegistry",
      ];
      expect(
        await returnedValue(
          `return ${JSON.stringify(names)}.filter((name) => typeof globalThis[name] !== "undefined");`,
        ),
      ).toEqual([]);
    });

    it("has only the standard built-ins and the sandbox's own globals", async () => {
      const globals = (await returnedValue("return Object.getOwnPropertyNames(globalThis);")) as string[];
      const expected = [
        "AggregateError",
        "Array",
        "ArrayBuffer",
        "BigInt",
        "BigInt64Array",
        "BigUint64Array",
        "Boolean",
        "DataView",
        "Date",
        "Error",
        "EvalError",
        "Float16Array",
        "Float32Array",
        "Float64Array",
        "Function",
        "Infinity",
        "Int16Array",
        "Int32Array",
        "Int8Array",
        "InternalError",
        "Iterator",
        "JSON",
        "Map",
        "Math",
        "NaN",
        "Number",
        "Object",
        "Promise",
        "Proxy",
        "RangeError",
        "ReferenceError",
        "Reflect",
        "RegExp",
        "Set",
        "String",
        "Symbol",
        "SyntaxError",
        "ToolError",
        "TypeError",
        "URIError",
        "Uint16Array",
        "Uint32Array",
        "Uint8Array",
        "Uint8ClampedArray",
        "WeakMap",
        "WeakSet",
        "console",
        "decodeURI",
        "decodeURIComponent",
        "encodeURI",
        "encodeURIComponent",
        "escape",
        "globalThis",
        "isFinite",
        "isNaN",
        "parseFloat",
        "parseInt",
        "tools",
        "undefined",
        "unescape",
      ];
      expect([...globals].sort()).toEqual([...expected].sort());
    });

    it("rejects a dynamic import and refuses a static one", async () => {
      expect(
        await returnedValue(
          "try { await import('node:fs'); return 'imported'; } catch (error) { return [error.name, error.message]; }",
        ),
      ).toEqual(["ReferenceError", "could not load module 'node:fs'"]);
      expect(await sandbox.run(program("import { readFileSync } from 'node:fs';"))).toMatchObject({
        kind: "threw",
        error: { name: "SyntaxError" },
      });
    });

    it("has no eval, direct or indirect", async () => {
      expect(await returnedValue("try { return eval('1 + 1'); } catch (error) { return error.name; }")).toBe(
        "ReferenceError",
      );
      expect(
        await returnedValue(
          "try { return (0, globalThis['ev' + 'al'])('1'); } catch (error) { return error.name; }",
        ),
      ).toBe("TypeError");
    });

    it("has no Function constructor, whichever way it is reached", async () => {
      const attempts = [
        "Function('return 1')",
        "new Function('return 1')",
        "(() => {}).constructor('return 1')",
        "(function () {}).constructor.constructor('return 1')",
        "Object.getPrototypeOf(async function () {}).constructor('return 1')",
        "(async () => {}).constructor('return 1')",
        "(function* () {}).constructor('yield 1')",
        "(async function* () {}).constructor('yield 1')",
        "Reflect.construct(Function, ['return 1'])",
        "new (class extends Function {})('return 1')",
        "Function.prototype.constructor('return 1')",
        "this.constructor.constructor('return process')()",
        "({}).constructor.constructor('return this')()",
        "tools.a.constructor('return 1')",
      ];
      const tries = attempts.map(
        (attempt) =>
          `try { results.push("ran: " + String(${attempt})); } catch (error) { results.push(error.name + ": " + error.message); }`,
      );
      const results = (await returnedValue(`const results = [];\n${tries.join("\n")}\nreturn results;`, {
        functions: ["a"],
      })) as string[];
      expect(results).toHaveLength(attempts.length);
      for (const result of results) {
        expect(result).toMatch(/^EvalError: /);
        expect(result).toMatch(CODE_GENERATION);
      }
    });

    it("keeps instanceof Function and the function prototype working", async () => {
      expect(
        await returnedValue(
          "return [(() => 1) instanceof Function, typeof Function.prototype.call, Object.getPrototypeOf(async () => {}) !== Function.prototype, Math.max.apply(null, [1, 3])];",
        ),
      ).toEqual([true, "function", true, 3]);
    });
  });

  describe("prototype and constructor escapes stay inside", () => {
    it("ignores Error.prepareStackTrace: no host frame or object comes through it", async () => {
      const hostPrepare = (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
      const outcome = await sandbox.run(
        program(`
        let seen = "never called";
        Error.prepareStackTrace = (error, frames) => { seen = typeof frames; return frames.map((frame) => frame.getThis()); };
        Error.captureStackTrace?.({});
        const stack = new Error("x").stack;
        return { seen, stackType: typeof stack };`),
      );
      expect(outcome).toMatchObject({
        kind: "returned",
        value: { seen: "never called", stackType: "string" },
      });
      expect((Error as { prepareStackTrace?: unknown }).prepareStackTrace).toBe(hostPrepare);
    });

    it("gives the host only plain JSON data in the result, never a guest object", async () => {
      const outcome = await sandbox.run(
        program(`
        const tricky = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
        Object.prototype.inherited = "from the guest";
        return {
          tricky,
          fn: () => "code",
          getter: { get value() { return "read in the guest"; } },
          proxy: new Proxy({}, { ownKeys: () => ["a"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: () => 1 }),
        };`),
      );
      expect(outcome).toEqual({
        kind: "returned",
        value: { tricky: {}, getter: { value: "read in the guest" }, proxy: { a: 1 } },
        console: "",
      });
      const value = (outcome as { value: Record<string, Record<string, unknown>> }).value;
      expect(Object.getPrototypeOf(value.tricky)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).inherited).toBeUndefined();
    });

    it("gives the guest only a ToolError it made itself from the host's code and message", async () => {
      class HostError extends Error {
        code = "tool-execution-failed";
        secret = () => process.env;
      }
      const outcome = await sandbox.run(
        program(
          `try { await tools.a(); } catch (error) {
           const escape = (() => { try { return error.constructor.constructor("return process")(); } catch (e) { return e.name; } })();
           return {
             own: Object.getOwnPropertyNames(error).sort(),
             protoChain: [Object.getPrototypeOf(error) === ToolError.prototype, Object.getPrototypeOf(ToolError.prototype) === Error.prototype],
             secret: typeof error.secret,
             escape,
           };
         }`,
          {
            functions: ["a"],
            call: async () => {
              throw new HostError("failed at /home/host/secret/path");
            },
          },
        ),
      );
      expect(outcome).toEqual({
        kind: "returned",
        value: {
          own: ["code", "message", "stack"],
          protoChain: [true, true],
          secret: "undefined",
          escape: "EvalError",
        },
        console: "",
      });
    });

    it("gives results as fresh guest values with the guest's own prototypes", async () => {
      const hostObject = Object.assign(Object.create({ inheritedOnHost: true }), { own: 1, fn: () => 1 });
      const outcome = await returnedValue(
        `const value = await tools.a();
       return [Object.keys(value), value.inheritedOnHost, Object.getPrototypeOf(value) === Object.prototype,
         (() => { try { return value.constructor.constructor("return process")(); } catch (e) { return e.name; } })()];`,
        { functions: ["a"], call: async () => hostObject },
      );
      expect(outcome).toEqual([["own"], null, true, "EvalError"]);
    });

    it("cannot reach the prelude's functions through caller or callee", async () => {
      const outcome = await returnedValue(
        `const seen = [];
       function probe() { return probe.caller; }
       await tools.a({ toJSON() { seen.push(String(probe())); try { seen.push(String(arguments.callee.caller)); } catch (error) { seen.push(error.name); } return 1; } });
       try { seen.push(String(tools.a.caller)); } catch (error) { seen.push(error.name); }
       try { seen.push(String(tools.a.arguments)); } catch (error) { seen.push(error.name); }
       return seen;`,
        { functions: ["a"] },
      );
      expect(outcome).toEqual(["undefined", "TypeError", "TypeError", "TypeError"]);
    });

    it("cannot change how arguments are copied by changing Object.prototype", async () => {
      const host = recordingHost();
      await sandbox.run(
        program(
          `Object.defineProperty(Object.prototype, "__proto__", { get() { return { polluted: 1 }; }, enumerable: true, configurable: true });
         Object.prototype.toJSON = function () { return { replaced: true }; };
         delete Object.prototype.toJSON;
         await tools.a({ plain: 1 });`,
          { functions: ["a"], call: host.call },
        ),
      );
      expect(host.calls.map((call) => call.args)).toEqual([{ plain: 1 }]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("cannot change how calls are answered by replacing Promise or trapping Object.prototype", async () => {
      const value = await returnedValue(
        `const trap = () => { throw new Error("trapped"); };
       for (const key of ["resolve", "reject"]) Object.defineProperty(Object.prototype, key, { set: trap, get: trap, configurable: true });
       globalThis.Promise = trap;
       const text = await tools.text({});
       let failure;
       try { await tools.broken({}); } catch (error) { failure = [error.name, error.code, error.message]; }
       return [text, failure];`,
        {
          functions: ["text", "broken"],
          call: async (name) => {
            if (name === "broken") throw { code: "boom", message: "it broke" };
            return "answer";
          },
        },
      );
      expect(value).toEqual(["answer", ["ToolError", "boom", "it broke"]]);
    });
  });
});
