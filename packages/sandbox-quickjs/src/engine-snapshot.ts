// A copy of the parts of an engine's WebAssembly memory that hold anything, taken once the engine
// is set up and before any program ran, and written back after each run: the next run starts from
// the engine exactly as it was, byte for byte, with nothing of the last program left in it.
//
// An Emscripten module's memory is, in some order: its static data, its C stack, its heap (up to
// the break, which Emscripten's `sbrk` keeps in a static word) and untouched memory. Between two
// calls into the module the stack is empty, so only the static data and the heap matter. Neither
// place is exported by the build, so they are found by looking:
// - the stack is the one stretch below the heap, of at least STACK_MIN_BYTES, whose every page reads
//   zero at the word where it is sampled (on a module nothing has run on, only a few frames at its
//   top have been used; its ends are then found word by word). What lies between the samples is
//   not read: it is the stack, dead between calls whatever it holds, and scanning it all cost 45 ms
//   on Bun;
// - the break is the one static word that rises (by at least half of it: the heap's last free
//   chunk gives the rest) when the module's own allocator is asked for more than its heap holds,
//   and stays up when that is freed (the allocator's pointer to its last chunk rises too, but
//   comes back down).
// Anything else found is taken as a build this cannot read, and no snapshot is made: each run then
// gets a fresh runtime.

/** Where the stack is looked for: one word a page. */
const SAMPLE_BYTES = 4096;
/** The least a stretch of zeros below the heap must span to be taken as the C stack. */
const STACK_MIN_BYTES = 1024 * 1024;
/**
 * Kept from the start of that stretch all the same: static data that happens to end in zeros
 * (zeroed statics a run might set) is written back too, never taken as the stack.
 */
const STATIC_MARGIN_BYTES = 64 * 1024;
/** What the allocator is asked for, doubled until the break moves: more than a fresh heap's last free chunk. */
const FIRST_PROBE_BYTES = 256 * 1024;
const LAST_PROBE_BYTES = 4 * 1024 * 1024;

/** Byte ranges, [start, end), each a multiple of 8. */
export type MemoryRange = readonly [start: number, end: number];

/** The module's own allocator (Emscripten's exported `malloc` and `free`). */
export interface ModuleAllocator {
  malloc(bytes: number): number;
  free(pointer: number): void;
}

/**
 * The ranges of `memory` to keep: everything from 0 to the heap's break but the C stack; or
 * `undefined` when the stack or the break cannot be told for sure (see above), or the memory cannot
 * be scanned. `heapStart` is an address inside the heap (such as the first runtime's). Allocates
 * and frees once with `allocator` (a block past the heap's end, which the heap then keeps).
 */
export function findLiveRanges(
  memory: WebAssembly.Memory,
  heap: { heapStart: number; allocator: ModuleAllocator },
): MemoryRange[] | undefined {
  const belowHeap = Math.min(heap.heapStart - (heap.heapStart % 8), memory.buffer.byteLength);
  const stack = findStack(new Uint32Array(memory.buffer, 0, belowHeap / 4));
  if (stack === undefined) return undefined;
  const [stackStart, stackEnd] = stack;
  const statics: MemoryRange[] = [
    [0, stackStart],
    [stackEnd, belowHeap],
  ];
  const breakAt = findBreakWord(memory, { statics, heapStart: belowHeap, allocator: heap.allocator });
  if (breakAt === undefined) return undefined;
  const heapBreak = new Uint32Array(memory.buffer)[breakAt / 4]!;
  const heapEnd = heapBreak + ((8 - (heapBreak % 8)) % 8);
  if (heapEnd <= belowHeap || heapEnd > memory.buffer.byteLength) return undefined;
  return [
    [0, stackStart + STATIC_MARGIN_BYTES],
    [stackEnd, heapEnd],
  ];
}

/**
 * The C stack in `words` (the memory below the heap): the one stretch of at least STACK_MIN_BYTES
 * whose pages all read zero where sampled, its ends found word by word, in 8-byte words; or
 * `undefined` when there is none, or more than one.
 */
function findStack(words: Uint32Array): MemoryRange | undefined {
  const step = SAMPLE_BYTES / 4;
  const longEnough = STACK_MIN_BYTES / SAMPLE_BYTES;
  let found: [first: number, last: number] | undefined;
  for (let sample = 0; sample < words.length; sample += step) {
    if (words[sample] !== 0) continue;
    const first = sample;
    while (sample + step < words.length && words[sample + step] === 0) sample += step;
    if ((sample - first) / step + 1 < longEnough) continue;
    if (found !== undefined) return undefined;
    found = [first, sample];
  }
  if (found === undefined) return undefined;
  let [start, end] = found;
  while (start > 0 && words[start - 1] === 0) start--;
  while (end < words.length && words[end] === 0) end++;
  // Whole 8-byte words of zeros: the start rounded up, the end down.
  const startByte = Math.ceil((start * 4) / 8) * 8;
  const endByte = Math.floor((end * 4) / 8) * 8;
  return [startByte, endByte];
}

/** The address of the word below the heap that holds its break (see above), or `undefined`. */
function findBreakWord(
  memory: WebAssembly.Memory,
  parts: { statics: readonly MemoryRange[]; heapStart: number; allocator: ModuleAllocator },
): number | undefined {
  const read = () =>
    parts.statics.map(([start, end]) => new Uint32Array(memory.buffer, start, (end - start) / 4).slice());
  for (let probe = FIRST_PROBE_BYTES; probe <= LAST_PROBE_BYTES; probe *= 2) {
    const before = read();
    const pointer = parts.allocator.malloc(probe);
    if (pointer === 0) return undefined;
    const grown = read();
    parts.allocator.free(pointer);
    const after = read();
    const found: number[] = [];
    parts.statics.forEach(([start], part) => {
      const [was, rose, now] = [before[part]!, grown[part]!, after[part]!];
      for (let index = 0; index < was.length; index++) {
        const value = rose[index]!;
        if (was[index]! > parts.heapStart && value - was[index]! >= probe / 2 && now[index] === value)
          found.push(start + index * 4);
      }
    });
    if (found.length === 1) return found[0];
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/** What {@link saveRanges} keeps: each range's bytes as they were. */
export interface MemorySnapshot {
  readonly ranges: readonly { readonly start: number; readonly bytes: Uint8Array }[];
  /** How many bytes a restore writes. */
  readonly byteLength: number;
}

export function saveRanges(memory: ArrayBuffer, ranges: readonly MemoryRange[]): MemorySnapshot {
  const saved = ranges.map(([start, end]) => ({
    start,
    bytes: new Uint8Array(memory, start, end - start).slice(),
  }));
  return { ranges: saved, byteLength: saved.reduce((total, range) => total + range.bytes.length, 0) };
}

/** Writes the snapshot back. The memory may have grown since; what lies past the ranges is free. */
export function restoreRanges(memory: ArrayBuffer, snapshot: MemorySnapshot): void {
  const view = new Uint8Array(memory);
  for (const range of snapshot.ranges) view.set(range.bytes, range.start);
}
