import type { JSONValue, SandboxCallError, SandboxLimits, SandboxOutcome } from "@junction/types";
import type { ConsoleLevel } from "./console-capture.js";

// What the calling thread (guest-thread.ts) and a guest's worker thread (guest-thread-worker.ts)
// say to each other. Only plain values cross; the program's `call` and `signal` stay on the calling
// thread, which answers the worker's calls and passes an abort on.

/** A program as the worker runs it: all but its `call` and `signal`, with its limits resolved. */
export interface ThreadProgram {
  source: string;
  functions: readonly string[];
  clockMs: number;
  seed: number;
  limits: SandboxLimits;
  /** When the calling thread started the run, ms since the epoch: the meter's times count from it. */
  startedAt: number;
}

/** A tool call's answer: a string as itself, anything else as JSON text written on the calling thread. */
export type ThreadAnswer =
  | { ok: true; string: string }
  | { ok: true; json: string | undefined }
  | { ok: false; error: SandboxCallError };

export type ToGuestThread =
  | { type: "run"; program: ThreadProgram }
  | { type: "answer"; sequence: number; answer: ThreadAnswer }
  | { type: "abort" };

export type FromGuestThread =
  | { type: "call"; sequence: number; name: string; args: JSONValue }
  /** A console call, sent as it is made (until the run's console limit is reached). */
  | { type: "logged"; level: ConsoleLevel; text: string }
  | { type: "outcome"; outcome: SandboxOutcome }
  /** The engine failed (the run's promise rejected on the worker): its error's code and message. */
  | { type: "failed"; code: string; message: string };

/**
 * The meter the worker writes and the calling thread reads (an `Int32Array` over a
 * `SharedArrayBuffer`, with `Atomics`): whether the guest is running, since when, and the CPU time
 * it spent before, in whole ms from the run's `startedAt`.
 */
export const METER = { running: 0, sliceStartedAt: 1, cpuUsedMs: 2, slots: 3 } as const;

/** Ms since the epoch, on whichever thread asks (each thread's `performance` has its own origin). */
export const epochNow = (): number => performance.timeOrigin + performance.now();
