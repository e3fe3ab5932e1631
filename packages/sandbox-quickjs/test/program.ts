import type { JSONValue, SandboxProgram } from "@junction/types";

/** Where a test's programs run: `quickjsSandbox({ thread })`. */
export const THREADS = ["host", "worker"] as const;

/** The clock every test program starts at. */
export const TEST_CLOCK_MS = 1_700_000_000_000;

/** A program with no tools unless given, a fixed clock and seed, and a host that answers `null`. */
export function program(source: string, overrides: Partial<SandboxProgram> = {}): SandboxProgram {
  return { source, functions: [], call: async () => null, clockMs: TEST_CLOCK_MS, seed: 1, ...overrides };
}

export interface RecordedCall {
  name: string;
  args: JSONValue;
  sequence: number;
}

/** A host that records each call and answers with `answer` (by default the call as it came). */
export function recordingHost(answer: (call: RecordedCall) => unknown = (call) => call) {
  const calls: RecordedCall[] = [];
  return {
    calls,
    call: async (name: string, args: JSONValue, sequence: number): Promise<JSONValue> => {
      const call = { name, args, sequence };
      calls.push(call);
      return (await answer(call)) as JSONValue;
    },
  };
}

/**
 * A host that holds every call until `count` are waiting, then settles them in the order `order`
 * gives, one per macrotask, so each settles in a turn of its own. Settled with `{ sequence }`.
 */
export function shuffledHost(count: number, order: (sequences: number[]) => number[]) {
  const calls: RecordedCall[] = [];
  const waiting = new Map<number, () => void>();
  return {
    calls,
    call: (name: string, args: JSONValue, sequence: number): Promise<JSONValue> => {
      calls.push({ name, args, sequence });
      return new Promise<JSONValue>((resolve) => {
        waiting.set(sequence, () => resolve({ sequence, args }));
        if (waiting.size < count) return;
        const batch = order([...waiting.keys()]).map((key) => waiting.get(key)!);
        waiting.clear();
        void (async () => {
          for (const settle of batch) {
            await new Promise((next) => setImmediate(next));
            settle();
          }
        })();
      });
    },
  };
}

/** The numbers in a random order (the host's own Math.random: a different order each time). */
export function randomOrder(sequences: number[]): number[] {
  const shuffled = [...sequences];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
  }
  return shuffled;
}
