import type { QuickJSContext, QuickJSWASMModule } from "quickjs-emscripten-core";

// QuickJS calls the interrupt handler once every 10,000 "ticks" (backward jumps and calls). A loop
// whose every turn is one slow native call (`for (;;) big.replaceAll("a", "bb")`) then checks the
// CPU limit once every 10,000 slow calls: minutes. QuickJS offers no setting for that count, but it
// keeps it in the context (JSContext.interrupt_counter), in the WebAssembly memory the host can
// write, and it sets it to 10,000 just before calling the handler. So the handler sets it itself:
// at most 100 ticks (a check costs about 0.2 µs, 100 ticks of a tight loop a few µs), and fewer
// when ticks are slow, aiming at a check per millisecond of guest time; one tick at the slowest.
// A run of slow native calls is then noticed within at most 100 of them, and checked at each one
// after that. The field's place is found by looking, not assumed: see findInterruptCounterOffset.

/** QuickJS's JS_INTERRUPT_COUNTER_INIT: the counter's value when the handler is called. */
const COUNTER_INIT = 10_000;
/** The most ticks the pacer lets pass between two checks. */
const MAX_TICKS_BETWEEN_CHECKS = 100;
/** How much guest time the pacer aims to leave between two checks. */
const TARGET_MS_BETWEEN_CHECKS = 1;
const SEARCHED_BYTES = 2048;
/** Some 40,000 ticks: two checks at QuickJS's own pace, then the rest paced. */
const CALIBRATION_LOOP = "for (let i = 0; i < 15000; i++) {}";

/** The QuickJS context's address in the WebAssembly memory (quickjs-emscripten keeps it protected). */
export function contextAddress(context: QuickJSContext): number {
  return (context as unknown as { ctx: { value: number } }).ctx.value;
}

/**
 * Where, from the start of a JSContext, this build keeps `interrupt_counter`, or `undefined` when it
 * cannot be told for sure. Found on a throwaway context running a loop: the 32-bit slots that hold
 * exactly 10,000 at each of the first two checks (expected: one), then a check that writing a small
 * number there makes the checks come far more often. `tainted` is true when a write went to a slot
 * that turned out not to be the counter: that module must not be used.
 */
export function findInterruptCounterOffset(module: QuickJSWASMModule): { offset?: number; tainted: boolean } {
  const memory = module.getWasmMemory();
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const base = contextAddress(context);
  let candidates: number[] | undefined;
  let checks = 0;
  let checksWhilePaced = 0;
  let written: number | undefined;
  const write = (offset: number) => {
    new Int32Array(memory.buffer)[(base + offset) >> 2] = 10;
  };
  try {
    runtime.setInterruptHandler(() => {
      checks++;
      if (written !== undefined) {
        checksWhilePaced++;
        write(written);
        return false;
      }
      const slots = new Int32Array(memory.buffer, base, SEARCHED_BYTES / 4);
      const now: number[] = [];
      for (let index = 0; index < slots.length; index++)
        if (slots[index] === COUNTER_INIT) now.push(index * 4);
      candidates = candidates === undefined ? now : candidates.filter((offset) => now.includes(offset));
      if (checks === 2 && candidates.length === 1) {
        written = candidates[0]!;
        write(written);
      }
      return false;
    });
    context.evalCode(CALIBRATION_LOOP).dispose();
  } finally {
    context.dispose();
    runtime.dispose();
  }
  if (written === undefined) return { tainted: false };
  // What is left of the loop, about 10,000 ticks or more: one check plain, a thousand at 10.
  if (checksWhilePaced < 200) return { tainted: true };
  return { offset: written, tainted: false };
}

/** Sets QuickJS's countdown to the next interrupt check from how long the last ticks took. */
export interface InterruptPacer {
  /** Called from the interrupt handler with the guest time since the previous check, ms. */
  paced(guestMsSinceLastCheck: number): void;
  /**
   * Called from the interrupt handler when it stops the guest: the next check comes at the next
   * tick. QuickJS's Promise constructor turns any exception of its executor into a rejection, the
   * interrupt's too, so a guest that spends its time inside executors would otherwise swallow the
   * stop at every check, each one 10,000 ticks later, and run past every limit.
   */
  stopping(): void;
}

/**
 * A pacer for one context; does nothing when the counter's place is not known. It sets the first
 * countdown at once, so that the very first slice is paced too.
 */
export function createInterruptPacer(
  memory: WebAssembly.Memory,
  counterAddress: number | undefined,
): InterruptPacer {
  if (counterAddress === undefined) return { paced() {}, stopping() {} };
  let slots = new Int32Array(memory.buffer);
  const write = (value: number) => {
    // A grown memory has a new buffer.
    if (slots.buffer !== memory.buffer) slots = new Int32Array(memory.buffer);
    slots[counterAddress >> 2] = value;
  };
  let ticks = 1;
  write(ticks);
  return {
    paced(guestMs) {
      // The last interval was `ticks` ticks long; aim the next at TARGET_MS_BETWEEN_CHECKS.
      const wanted =
        guestMs > 0 ? Math.floor((ticks * TARGET_MS_BETWEEN_CHECKS) / guestMs) : MAX_TICKS_BETWEEN_CHECKS;
      ticks = Math.min(MAX_TICKS_BETWEEN_CHECKS, Math.max(1, wanted));
      write(ticks);
    },
    stopping() {
      ticks = 1;
      write(ticks);
    },
  };
}
