import { JunctionError, type Sandbox, type SandboxLimits, type ToolDefinition } from "@junction/types";
import { type NamePattern, toRegExp } from "../approval.js";
import type { CoreTool } from "../core-tool.js";
import { RUN_PROGRAM } from "../core-tool.js";
import type { RegisteredTool } from "../tool-registry.js";
import { type DeclaredTool, declareTools } from "./declarations.js";

/**
 * How a tool is offered when code mode is on: `direct` (the model calls it, one step at a time),
 * `code` (only from a program), `both`.
 */
export type ToolCallMode = "direct" | "code" | "both";

/**
 * Code mode: besides the tools it calls one step at a time, the model gets `run_program`, which
 * runs a short JavaScript program that calls tools as async functions (`await
 * tools.github.list_issues({ … })`); only what the program returns reaches the model. Every call
 * inside a program is a call of the run like a direct one: validated, decided by `approval` and
 * the exfiltration guard, journaled, reported as events with its program's call as `parent`. A
 * call that needs a person pauses the run (not the sandbox): `approval-required`, the call in
 * `pending` with its program, resumed like any other; the program runs again against the journal,
 * so no call runs twice and nothing expires.
 */
export interface CodeModeOptions {
  /**
   * Where programs run: `quickjsSandbox()` from `@junction/sandbox-quickjs`, or any
   * {@link Sandbox}: the model gets `run_program`. Or `"provider"`: in the model vendor's own
   * runtime, on a model that declares `programmaticToolCalling` (Anthropic's programmatic tool
   * calling): no `run_program`; the tools a program may call are sent with `callers`, and each call
   * a program makes comes back as a tool call that goes through the gate like a direct one.
   */
  sandbox: Sandbox | "provider";
  /**
   * Per tool (by name pattern, matched against the real name with its MCP prefix; the first
   * matching entry wins), how it is offered. Unlisted tools: `direct` when annotated
   * destructive (each such action is a step of its own the person sees), else `both`. A `both`
   * tool is described once, by its direct definition (the program tool only says how a program
   * calls it); a `code` tool is declared in full in the program tool's description.
   * @example `{ "github_*": "code", "deploy": "direct" }`
   */
  tools?: Record<string, ToolCallMode>;
  /**
   * A step with fewer tools than this (or none a program may call) offers no program tool: with a
   * few tools, direct calls cost less. `code` tools are then offered directly.
   * @default 4
   */
  minTools?: number;
  /** The sandbox's limits for each program (memory, CPU, wall time, calls, sizes). */
  limits?: Partial<SandboxLimits>;
  /**
   * The longest the declarations in the program tool's description may be, in characters; the
   * tools that do not fit are left to direct calls.
   * @default 20000
   */
  maxDeclarationChars?: number;
}

/** Code mode's options, checked once (the Agent's constructor). */
export interface CodeMode {
  readonly options: CodeModeOptions;
  modeOf(name: string, registered: RegisteredTool | undefined): ToolCallMode;
}

/**
 * Checks `options` (`codeMode` of an Agent) and reads its patterns once; `model` is the Agent's
 * (`"provider"` needs one that runs programs itself).
 */
export function codeModeOf(
  options: CodeModeOptions,
  model: { provider: string; model: string; runsPrograms: boolean },
): CodeMode {
  if (
    typeof options !== "object" ||
    options === null ||
    (options.sandbox !== "provider" && typeof options.sandbox?.run !== "function")
  ) {
    throw new JunctionError(
      "invalid-argument",
      'new Agent(): `codeMode.sandbox` must be a Sandbox, for example codeMode: { sandbox: quickjsSandbox() } from @junction/sandbox-quickjs, or "provider" for a model that runs programs itself.',
    );
  }
  if (options.sandbox === "provider" && !model.runsPrograms) {
    throw new JunctionError(
      "invalid-argument",
      `new Agent(): \`codeMode: { sandbox: "provider" }\` needs a model that runs programs itself (a provider declaring programmaticToolCalling for it: Anthropic's Claude Sonnet or Opus 4.5 and later, OpenAI's GPT-5.6); ${model.provider}'s ${JSON.stringify(model.model)} does not. Run programs in a sandbox instead: codeMode: { sandbox: quickjsSandbox() } from @junction/sandbox-quickjs.`,
    );
  }
  const patterns = Object.entries(options.tools ?? {}).map(([pattern, mode]) => {
    if (mode !== "direct" && mode !== "code" && mode !== "both") {
      throw new JunctionError(
        "invalid-argument",
        `new Agent(): \`codeMode.tools[${JSON.stringify(pattern)}]\` must be "direct", "code" or "both", got ${JSON.stringify(mode)}.`,
      );
    }
    return { pattern: toRegExp(pattern as NamePattern), exact: pattern, mode };
  });
  return {
    options,
    modeOf(name, registered) {
      const exact =
        patterns.find((entry) => entry.exact === name) ?? patterns.find((entry) => entry.pattern.test(name));
      if (exact) return exact.mode;
      return registered?.tool.annotations?.destructiveHint === true ? "direct" : "both";
    },
  };
}

/**
 * A step's tools with code mode: the definitions the model calls directly (without the `code`
 * ones), and the program tool declaring the ones a program may call; no program tool (and every
 * tool direct) when the step has fewer than `minTools` tools, or none a program may call.
 */
export function offerProgram(
  codeMode: CodeMode,
  step: {
    definitions: ToolDefinition[];
    tools: ReadonlyMap<string, RegisteredTool>;
    /** The step's tool search, when tools are deferred: a program may search too, and call what it finds. */
    search?: CoreTool;
  },
): { definitions: ToolDefinition[]; program?: CoreTool } {
  const { options } = codeMode;
  if (options.sandbox === "provider") return { definitions: withCallers(codeMode, step) };
  const { sandbox } = options;
  const callable: DeclaredTool[] = [];
  const codeOnly = new Set<string>();
  for (const definition of step.definitions) {
    const registered = step.tools.get(definition.name);
    if (!registered) continue; // Junction's own tools, the answer tool
    const mode = codeMode.modeOf(definition.name, registered);
    if (mode === "direct") continue;
    if (mode === "code") codeOnly.add(definition.name);
    // A tool the model sees in full (offered directly, not deferred) is only named in the declarations.
    callable.push(declared(definition, registered, mode === "both" && definition.defer !== true));
  }
  // Deferred tools are not declared (the description stays small): a program finds them with the
  // search, then calls them by the name it gives, as the model would.
  const offered = new Set(step.definitions.map((definition) => definition.name));
  const deferred = step.search
    ? [...step.tools].filter(
        ([name, registered]) => !offered.has(name) && codeMode.modeOf(name, registered) !== "direct",
      )
    : [];
  // A small toolset stays direct: a program tool would cost more than the turns it saves.
  const toolset = [...step.tools.keys()].length;
  if (callable.length + deferred.length === 0 || toolset < (options.minTools ?? 4)) {
    return { definitions: step.definitions };
  }
  const callableNames = new Set(callable.map((tool) => tool.name));
  const notCallable = step.definitions
    .filter((definition) => !callableNames.has(definition.name) && definition.defer !== true)
    .map((definition) => definition.name);
  const declarations = declareTools(callable, options.maxDeclarationChars ?? 20_000, notCallable);
  const declaredNames = new Set(declarations.functions.values());
  const functions = new Map(declarations.functions);
  let searchNote = "";
  if (step.search) {
    const search = step.search.definition.name;
    functions.set(search, search);
    for (const [name] of deferred) functions.set(name, name);
    searchNote =
      `\nMore tools are deferred: find them with \`await tools.${search}({ query: "what you need" })\` ` +
      '(it names each tool and its input schema), then call one by that name: `await tools["<name>"](input)`.';
  }
  return {
    // A `code` tool that did not fit the declarations stays direct: every tool stays reachable.
    definitions: step.definitions.filter(
      (definition) => !codeOnly.has(definition.name) || !declaredNames.has(definition.name),
    ),
    program: {
      definition: programDefinition(declarations.text + searchNote),
      execute: () => ({ content: [{ type: "text", text: "Programs run through the step." }], isError: true }),
      program: {
        sandbox,
        functions,
        ...(options.limits ? { limits: options.limits } : {}),
      },
    },
  };
}

/**
 * A step's definitions when the provider runs programs: each tool a program may call carries its
 * `callers` (the vendor's runtime offers it to programs; a `code` one is not the model's to call
 * directly); a tool sent deferred, Junction's own tools and a small toolset stay as they are.
 */
function withCallers(
  codeMode: CodeMode,
  step: { definitions: ToolDefinition[]; tools: ReadonlyMap<string, RegisteredTool> },
): ToolDefinition[] {
  if (step.tools.size < (codeMode.options.minTools ?? 4)) return step.definitions;
  return step.definitions.map((definition) => {
    const registered = step.tools.get(definition.name);
    if (!registered || definition.defer === true) return definition;
    const mode = codeMode.modeOf(definition.name, registered);
    return mode === "direct" ? definition : { ...definition, callers: mode };
  });
}

/** A tool as the program tool declares it; `direct` when the model has its definition too (only named then). */
function declared(definition: ToolDefinition, registered: RegisteredTool, direct: boolean): DeclaredTool {
  return {
    name: definition.name,
    ...(direct ? { direct } : {}),
    ...(registered.sourceName !== undefined ? { namespace: registered.sourceName } : {}),
    ...(registered.sourceName !== undefined ? { prefix: registered.sourceName } : {}),
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    inputSchema: definition.inputSchema,
    ...(definition.outputSchema !== undefined ? { outputSchema: definition.outputSchema } : {}),
  };
}

/** The program tool as the model sees it: how to write a program, and the tools it may call. */
export function programDefinition(declarations: string): ToolDefinition {
  return {
    name: RUN_PROGRAM,
    description: [
      "Runs JavaScript (TypeScript ok) as an async function body; you get only its return value (JSON) and logs, not its calls' results: for many calls in one step.",
      "A call resolves to the tool's structured result, else its text; a failed one throws ToolError (.code, .message). No network, timers, modules.",
      declarations,
    ].join("\n"),
    inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
  };
}
