import type { JSONValue, Sandbox, SandboxOutcome, SandboxProgram } from "@junction/types";

/**
 * A sandbox for core's own tests that is NOT a sandbox: the program runs as a function of this
 * process (no isolation at all). It keeps the contract's ordering (results delivered in issue
 * order), the ToolError, the seeded random and the virtual clock, so core's journal, gating and
 * replay can be tested apart from any engine. The end-to-end tests use `@junction/sandbox-quickjs`.
 */
export function hostSandbox(): Sandbox & { runs: number } {
  const sandbox = {
    runs: 0,
    async run(program: SandboxProgram): Promise<SandboxOutcome> {
      sandbox.runs++;
      const lines: string[] = [];
      const aborted = new Promise<SandboxOutcome>((resolve) => {
        const stop = () => resolve({ kind: "aborted", console: lines.join("\n") });
        if (program.signal?.aborted) stop();
        program.signal?.addEventListener("abort", stop, { once: true });
      });
      class ToolError extends Error {
        constructor(
          readonly code: string,
          message: string,
        ) {
          super(message);
          this.name = "ToolError";
        }
      }
      let sequence = 0;
      let delivered: Promise<unknown> = Promise.resolve();
      const call = (name: string, args: unknown) => {
        const result = program.call(name, JSON.parse(JSON.stringify(args ?? null)) as JSONValue, ++sequence);
        // Issue order: each result reaches the program only after the one issued before it.
        const ordered = Promise.allSettled([delivered, result]).then(() => result);
        delivered = ordered.catch(() => undefined);
        return ordered.catch((error: { code: string; message: string }) => {
          throw new ToolError(error.code, error.message);
        });
      };
      const tools: Record<string, unknown> = {};
      for (const name of program.functions) {
        const path = name.split(".");
        let target = tools;
        for (const part of path.slice(0, -1)) {
          target[part] ??= {};
          target = target[part] as Record<string, unknown>;
        }
        target[path.at(-1)!] = (args: unknown) => call(name, args);
      }
      let seed = program.seed;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const console = { log: (...values: unknown[]) => lines.push(values.map(String).join(" ")) };
      const math = Object.assign(Object.create(Math) as Math, { random });
      const date = { now: () => program.clockMs };
      const body = new Function(
        "tools",
        "console",
        "ToolError",
        "Math",
        "Date",
        `return (async () => {\n${program.source}\n})();`,
      );
      const ran = (async (): Promise<SandboxOutcome> => {
        try {
          const value = await body(tools, console, ToolError, math, date);
          return {
            kind: "returned",
            value: value === undefined ? undefined : JSON.parse(JSON.stringify(value)),
            console: lines.join("\n"),
          };
        } catch (error) {
          const { name, message } = error as Error;
          return { kind: "threw", error: { name, message }, console: lines.join("\n") };
        }
      })();
      return Promise.race([ran, aborted]);
    },
  };
  return sandbox;
}
