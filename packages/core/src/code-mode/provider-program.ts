import type { Message, ToolCallPart, ToolCallProgram } from "@junction/types";
import { z } from "zod";
import type { PendingCallParent } from "../pending-tool-call.js";

// Provider-mode code mode (`codeMode: { sandbox: "provider" }`): the vendor runs the program, and
// each call it makes comes back as a tool call of the model's turn whose part names the program
// (`ToolCallPart.program`). This module reads that fact (untrusted: a provider's, or a stored
// state's) and turns it into the `parent` an approval card shows. Pure, but for the counter.

/** The schema of a tool-call part's `program`, as a provider gives it and a stored turn keeps it. */
export const toolCallProgramSchema = z.object({
  id: z.string().min(1),
  runtime: z.string().min(1),
  source: z.string().optional(),
});

/** A part's `program` when it is one (an object with a non-empty `id` and `runtime`), else undefined. */
export function readToolCallProgram(value: unknown): ToolCallProgram | undefined {
  const parsed = toolCallProgramSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { id, runtime, source } = parsed.data;
  return { id, runtime, ...(source !== undefined ? { source } : {}) };
}

/**
 * How many calls each vendor's program made in `messages` (a conversation before a step): a
 * program that goes on over several turns numbers its calls on from there. Pure.
 */
export function programCallCounts(messages: readonly Message[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.content)
      if (part.type === "tool-call" && part.program)
        counts.set(part.program.id, (counts.get(part.program.id) ?? 0) + 1);
  }
  return counts;
}

/**
 * The 1-based place of call `id` among the calls of its program: those in `earlier` (the
 * conversation before the turn, {@link programCallCounts}), then those in `calls` (the turn's, in
 * turn order). Undefined when the call is not there or no program made it.
 */
export function programCallSequence(
  calls: readonly ToolCallPart[],
  id: string,
  earlier: ReadonlyMap<string, number>,
): number | undefined {
  const call = calls.find((part) => part.id === id);
  const program = call?.program?.id;
  if (program === undefined) return undefined;
  let sequence = earlier.get(program) ?? 0;
  for (const part of calls) {
    if (part.program?.id === program) sequence++;
    if (part === call) return sequence;
  }
  return undefined;
}

/**
 * The `parent` of a pending call a vendor's program made: the program's id, the vendor's tool that
 * ran it, the call's sequence and the program's source. Undefined for a call no program made, or
 * one whose program's source is unknown (a card shows no code it does not have).
 */
export function providerCallParent(
  call: Pick<ToolCallPart, "program">,
  sequence: number | undefined,
): PendingCallParent | undefined {
  const { program } = call;
  if (program?.source === undefined || sequence === undefined) return undefined;
  return { id: program.id, name: program.runtime, sequence, program: program.source, runtime: "provider" };
}

/** A call's program and its sequence in it: the shape of the events' `parent` (`NestedCallOf`). */
export interface ProgramCallOf {
  id: string;
  sequence: number;
}

/**
 * Numbers a step's calls by their program as they start (the model's order), on from the calls
 * the program made in earlier turns: the `parent` their events report, and the sequence their
 * pending item gives.
 */
export class ProgramCallSequences {
  /** The conversation before the step, read for its programs' calls at the step's first program call. */
  readonly #earlier: () => readonly Message[];
  #counts: Map<string, number> | undefined;
  readonly #parents = new Map<string, ProgramCallOf>();

  constructor(earlier: () => readonly Message[]) {
    this.#earlier = earlier;
  }

  /** Notes a starting call (once per call id); its program and sequence, or undefined for the model's own call. */
  note(call: ToolCallPart): ProgramCallOf | undefined {
    const known = this.#parents.get(call.id);
    if (known || !call.program) return known;
    this.#counts ??= programCallCounts(this.#earlier());
    const sequence = (this.#counts.get(call.program.id) ?? 0) + 1;
    this.#counts.set(call.program.id, sequence);
    const parent = { id: call.program.id, sequence };
    this.#parents.set(call.id, parent);
    return parent;
  }

  /** The program and sequence of a call noted before. */
  of(id: string): ProgramCallOf | undefined {
    return this.#parents.get(id);
  }
}

/**
 * What is wrong with a stored pending call's provider-mode `parent` (`runtime: "provider"`),
 * against the tool calls of its step's journaled model turn: the field (below the pending call),
 * and why, to be followed by " of step N". The call must be a call of the turn whose part names
 * that program; the parent must name the runtime and sequence the turn gives it, and exactly the
 * source the turn holds, so a forged state cannot put code on an approval card that the model
 * never wrote. Undefined when it matches. Pure.
 */
export function providerParentProblem(parts: {
  /** The tool calls of the step's journaled model turn. */
  calls: readonly ToolCallPart[];
  /** The calls each program made before the turn ({@link programCallCounts} of the state's messages). */
  earlier: ReadonlyMap<string, number>;
  pending: { id: string; parent: PendingCallParent };
}): { field: PropertyKey[]; message: string } | undefined {
  const { calls, earlier } = parts;
  const { id, parent } = parts.pending;
  const part = calls.find((call) => call.id === id);
  if (!part) return { field: [], message: `(${id}) is not a call of the model turn` };
  const program = part.program;
  if (program?.id !== parent.id) {
    const named = program ? `names program ${JSON.stringify(program.id)}` : "names no program";
    return {
      field: ["parent", "id"],
      message: `(${JSON.stringify(parent.id)}) is not the program that made call ${id}: its part ${named} in the model turn`,
    };
  }
  if (parent.name !== program.runtime)
    return {
      field: ["parent", "name"],
      message: `must be ${JSON.stringify(program.runtime)}, the runtime that ran program ${program.id} in the model turn`,
    };
  const sequence = programCallSequence(calls, id, earlier);
  if (parent.sequence !== sequence)
    return {
      field: ["parent", "sequence"],
      message: `must be ${sequence}, the place of call ${id} among the calls of program ${program.id} in the conversation and the model turn`,
    };
  if (program.source === undefined || parent.program !== program.source)
    return {
      field: ["parent", "program"],
      message: `is not the source of program ${program.id} as the model turn holds it`,
    };
  return undefined;
}
