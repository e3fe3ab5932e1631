import { JunctionError } from "@junction/types";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { isSignedTaskRecord, signTaskRecord, taskSigningKey } from "./task-signing.js";
import { type AgentTaskRecord, revisionOf, type TaskStore } from "./task-store.js";

// The server's view of a TaskStore: every record it stores is signed with its `stateKey` and
// written over the revision it was read at; every record it reads is checked (signature, and not
// older than one this process has seen). The one owner of reads and writes of task records.

/** How often a change is read and tried again when other writers keep coming in between. */
const MAX_ATTEMPTS = 50;

/** Signed, conditional reads and writes of task records. */
export class SignedTaskRecords {
  readonly #store: TaskStore;
  readonly #key: Promise<CryptoKey>;
  /** The newest revision of each record this process read or wrote: an older one put back is refused. */
  readonly #seen = new Map<string, number>();
  readonly #onStored: (record: AgentTaskRecord) => void;

  constructor(parts: { store: TaskStore; key: Uint8Array; onStored?: (record: AgentTaskRecord) => void }) {
    this.#store = parts.store;
    this.#key = taskSigningKey(parts.key);
    this.#onStored = parts.onStored ?? (() => undefined);
  }

  /**
   * The record, verified: `undefined` when none is stored; a -32602 `ProtocolError` when its
   * signature does not hold, it is another task's (the signature holds for its own id), or it is
   * older than one this process has seen.
   */
  async read(taskId: string): Promise<AgentTaskRecord | undefined> {
    // What was seen before this read: a write finishing during the read is newer, not a put-back.
    const seen = this.#seen.get(taskId) ?? 0;
    const record = await this.#store.get(taskId);
    if (!record) return undefined;
    if (!(await this.signed(record))) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The stored task "${taskId}" is not signed with this server's stateKey (changed, or stored by a server with another key); it is refused.`,
      );
    }
    if (record.taskId !== taskId) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The stored task "${taskId}" holds the record of another task (${JSON.stringify(record.taskId)}): a record was copied over it, and it is refused.`,
      );
    }
    if (revisionOf(record) < seen) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The stored task "${taskId}" is at revision ${revisionOf(record)}, older than revision ${seen} this server has seen: an older record was put back in the store, and it is refused.`,
      );
    }
    this.#see(taskId, revisionOf(record));
    return record;
  }

  /** Whether the record's signature holds with this server's key. */
  async signed(record: AgentTaskRecord): Promise<boolean> {
    return isSignedTaskRecord(await this.#key, record);
  }

  /** Every record kept whose signature holds. */
  async list(): Promise<AgentTaskRecord[]> {
    const records: AgentTaskRecord[] = [];
    for (const record of await this.#store.list()) if (await this.signed(record)) records.push(record);
    return records;
  }

  /** Stores a new record (revision 1); throws when the id is taken. */
  async create(record: AgentTaskRecord): Promise<AgentTaskRecord> {
    const stored = await this.write(record, null);
    if (!stored) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The task id "${record.taskId}" is taken.`);
    }
    return stored;
  }

  /**
   * Stores `record` as the next revision over `expectedRevision`, signed: what was stored, or
   * `undefined` when another writer stored the record first (nothing is stored then).
   */
  async write(
    record: AgentTaskRecord,
    expectedRevision: number | null,
  ): Promise<AgentTaskRecord | undefined> {
    const next = await signTaskRecord(await this.#key, { ...record, revision: (expectedRevision ?? 0) + 1 });
    const stored = await this.#store.put(next, expectedRevision);
    if (typeof stored !== "boolean") {
      throw new JunctionError(
        "invalid-argument",
        "tasks.store: `put(record, expectedRevision)` must resolve true (stored) or false (another writer was first): every write of a task is conditional, so that an answer counts once. Update the store to the TaskStore interface of this version.",
      );
    }
    if (!stored) return undefined;
    this.#see(next.taskId, revisionOf(next));
    this.#onStored(next);
    return next;
  }

  /**
   * Changes the stored record with `change` (the next record, or `undefined` for no change), read
   * and tried again until no other writer came in between: what was stored, or `undefined`
   * (nothing changed, or the record is gone or not signed).
   */
  async change(
    taskId: string,
    change: (stored: AgentTaskRecord) => AgentTaskRecord | undefined,
  ): Promise<AgentTaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.#store.get(taskId);
      // A record copied in from another task is refused as an unsigned one is: nothing changes.
      if (!stored || stored.taskId !== taskId || !(await this.signed(stored))) return undefined;
      const next = change(stored);
      if (!next) return undefined;
      const written = await this.write(next, revisionOf(stored));
      if (written) return written;
    }
    throw new JunctionError(
      "task-store-busy",
      `The task "${taskId}" was changed by other writers ${MAX_ATTEMPTS} times while this server tried to store its change; try again.`,
    );
  }

  async delete(taskId: string): Promise<void> {
    await this.#store.delete(taskId);
  }

  #see(taskId: string, revision: number): void {
    this.#seen.set(taskId, Math.max(this.#seen.get(taskId) ?? 0, revision));
  }
}
