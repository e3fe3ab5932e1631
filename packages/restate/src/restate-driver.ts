import { RestatePromise, type TerminalError } from "@restatedev/restate-sdk";

/**
 * Hands Restate operations to code that awaits them as ordinary promises, concurrently.
 *
 * The Restate SDK makes progress only on what is awaited, and only through one await at a
 * time: awaiting two of its promises at once (`Promise.all` over two `ctx.run`s) fails with
 * "awaitNext already pending", and a `ctx.run` that is not awaited does not run. The run loop
 * awaits steps and signals with plain `Promise.all`, so the port gives it plain promises and
 * this driver awaits every pending operation through one `RestatePromise.race`, settling
 * whichever finishes first and racing the rest (with whatever was added meanwhile) again.
 *
 * An operation added while the race is under way joins at the next round: when any pending
 * operation settles. Before each round the driver lets the event loop turn once, so that the
 * operations a settled one's continuations start (the steps after an approval, the calls of
 * one model step) join that round.
 */
export function createRestateDriver(): <T>(operation: RestatePromise<T>) => Promise<T> {
  interface Pending {
    readonly operation: RestatePromise<unknown>;
    resolve(value: unknown): void;
    reject(error: unknown): void;
  }
  const pending = new Set<Pending>();
  let driving = false;

  const drive = async () => {
    try {
      while (pending.size > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        const racing = [...pending];
        const settled = await RestatePromise.race(
          racing.map((entry) =>
            entry.operation.map((value?: unknown, failure?: TerminalError) => ({ entry, value, failure })),
          ),
        );
        pending.delete(settled.entry);
        if (settled.failure !== undefined) settled.entry.reject(settled.failure);
        else settled.entry.resolve(settled.value);
      }
    } catch (error) {
      // The race itself failed (the invocation was cancelled or is being suspended): nothing
      // pending can settle any more.
      for (const entry of pending) entry.reject(error);
      pending.clear();
    } finally {
      driving = false;
    }
  };

  return <T>(operation: RestatePromise<T>) =>
    new Promise<T>((resolve, reject) => {
      pending.add({ operation, resolve: resolve as (value: unknown) => void, reject });
      if (!driving) {
        driving = true;
        void drive();
      }
    });
}
