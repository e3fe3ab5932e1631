import { createAbortError, isAbortError, type JunctionError } from "@junction/types";

/** The error a run fails with when its signal is aborted. */
export function abortError(signal: AbortSignal): JunctionError {
  const reason = signal.reason;
  if (isAbortError(reason)) return reason;
  return createAbortError("The run was aborted.", reason);
}

/** Waits for `promise` unless `signal` aborts first. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The caller gets the abort instead; the abandoned promise's own failure has no one left to tell.
    promise.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
