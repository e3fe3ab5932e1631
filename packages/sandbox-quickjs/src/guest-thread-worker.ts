// The worker thread of `quickjsSandbox({ thread: "worker" })` (guest-thread.ts starts it): runs one
// program at a time in the host-thread sandbox, asks the calling thread for each tool call, and
// keeps the shared meter up to date so the calling thread can end this thread when the guest is
// stuck inside one long native call.
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage, type JSONValue, JunctionError } from "@junction/types";
import { JSONText } from "./bridge-json.js";
import {
  epochNow,
  type FromGuestThread,
  METER,
  type ThreadAnswer,
  type ThreadProgram,
  type ToGuestThread,
} from "./guest-thread-protocol.js";
import { hostThreadSandbox } from "./host-thread-sandbox.js";

interface Waiting {
  resolve: (value: JSONValue) => void;
  reject: (error: unknown) => void;
}

interface CurrentRun {
  startedAt: number;
  /** UTF-16 units the console may still send: each is at least one of the limit's bytes. */
  consoleLeft: number;
  controller: AbortController;
  answers: Map<number, Waiting>;
}

const port = parentPort;
if (port === null) throw new Error("guest-thread-worker.js runs only as a worker thread");
const meter = new Int32Array((workerData as { meter: SharedArrayBuffer }).meter);
const post = (message: FromGuestThread) => port.postMessage(message);
let current: CurrentRun | undefined;

const sandbox = hostThreadSandbox(
  {},
  {
    entered(cpuUsedMs) {
      const startedAt = current?.startedAt ?? epochNow();
      Atomics.store(meter, METER.cpuUsedMs, Math.ceil(cpuUsedMs));
      Atomics.store(meter, METER.sliceStartedAt, Math.floor(epochNow() - startedAt));
      Atomics.store(meter, METER.running, 1);
    },
    left(cpuUsedMs) {
      Atomics.store(meter, METER.running, 0);
      Atomics.store(meter, METER.cpuUsedMs, Math.ceil(cpuUsedMs));
    },
    logged(level, text) {
      // Sent at once, so the calling thread has it even if this thread is ended. A unit is at least
      // a byte: once more units than the limit's bytes went, that capture has been cut, and a long
      // line needs no more than that (and a character) to be cut at the same place.
      if (current === undefined || current.consoleLeft < 0) return;
      post({ type: "logged", level, text: text.slice(0, current.consoleLeft + 2) });
      current.consoleLeft -= text.length + 1;
    },
  },
);

port.on("message", (message: ToGuestThread) => {
  switch (message.type) {
    case "run":
      void run(message.program);
      return;
    case "answer": {
      const waiting = current?.answers.get(message.sequence);
      current?.answers.delete(message.sequence);
      if (waiting !== undefined) settle(waiting, message.answer);
      return;
    }
    case "abort":
      current?.controller.abort();
      return;
  }
});

async function run(program: ThreadProgram): Promise<void> {
  const run: CurrentRun = {
    startedAt: program.startedAt,
    consoleLeft: program.limits.consoleBytes,
    controller: new AbortController(),
    answers: new Map(),
  };
  current = run;
  try {
    const outcome = await sandbox.run({
      source: program.source,
      functions: program.functions,
      clockMs: program.clockMs,
      seed: program.seed,
      limits: program.limits,
      signal: run.controller.signal,
      // Resolves with a JSONText where the calling thread wrote the result as JSON (run-program.ts).
      call: (name, args, sequence) =>
        new Promise<JSONValue>((resolve, reject) => {
          run.answers.set(sequence, { resolve, reject });
          post({ type: "call", sequence, name, args });
        }),
    });
    post({ type: "outcome", outcome });
  } catch (error) {
    const code = error instanceof JunctionError ? error.code : "tool-execution-failed";
    post({ type: "failed", code, message: errorMessage(error) });
  } finally {
    current = undefined;
    Atomics.store(meter, METER.running, 0);
  }
}

function settle(waiting: Waiting, answer: ThreadAnswer): void {
  if (!answer.ok) waiting.reject(answer.error);
  else if ("string" in answer) waiting.resolve(answer.string);
  // `undefined` stays `undefined`, as on the host thread.
  else
    waiting.resolve(
      (answer.json === undefined ? undefined : new JSONText(answer.json)) as unknown as JSONValue,
    );
}
