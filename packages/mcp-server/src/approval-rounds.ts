import type { PendingToolCall, RunState } from "@junction/core";
import { JunctionError } from "@junction/types";
import { AGENT_TASK_VERSION, type AgentTaskRecord, type TaskStore } from "./task-store.js";

// A 2026-07-28 `input_required` round of a served agent: what the client holds between the
// result and its retry (`requestState`) reveals nothing of the run (the stopped `RunState`,
// with every tool result the agent saw, is sealed with AES-256-GCM under a key derived from
// `stateKey`), and a round is answered once: the first retry takes it, a duplicate sent while
// it runs gets the first one's outcome, and one sent later is refused until the round expires.

/** What a served agent's `input_required` result carries in `requestState` (the codec signs it too). */
export interface SealedApprovalRound {
  kind: "junction.agent-approval";
  /** The agent tool it belongs to: a state minted for one tool is refused by another. */
  tool: string;
  /** The round's id: what a retry claims. */
  round: string;
  /** The stopped run and its pending calls, AES-256-GCM (base64url: 12-byte IV, then ciphertext). */
  sealed: string;
}

/** The run a round stopped, as sealed in it. */
export interface ApprovalRound {
  state: RunState;
  pending: PendingToolCall[];
}

/** A claim's owner in the store: no client's id has it, so claims are nobody's tasks. */
const CLAIM_OWNER = "\u0000junction.approval-round";

/** Outcomes kept for duplicates of a round that was answered here; past it, a duplicate is refused. */
const MAX_KEPT_OUTCOMES = 1_000;

/**
 * Seals rounds and takes each once. The claim is a conditional write of a marker record in the
 * `TaskStore` (`put(…, null)`: only one writer makes a record), so servers sharing a store (the
 * `tasks.store`) take a round once between them; the outcome of a round taken here is kept for the
 * duplicates that come while it is kept.
 */
export class ApprovalRounds {
  readonly #key: Promise<CryptoKey>;
  readonly #store: TaskStore;
  readonly #ttlMs: number;
  readonly #outcomes = new Map<string, { outcome: Promise<unknown>; expiresAt: number }>();
  /** When the store's expired claims were last removed. */
  #sweptStoreAt = Date.now();

  constructor(parts: { stateKey: Uint8Array; store: TaskStore; ttlMs: number }) {
    this.#key = sealingKey(parts.stateKey);
    this.#store = parts.store;
    this.#ttlMs = parts.ttlMs;
  }

  /** A new round of `tool`'s run, sealed. */
  async seal(tool: string, round: ApprovalRound): Promise<SealedApprovalRound> {
    const id = globalThis.crypto.randomUUID();
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const plain = new TextEncoder().encode(JSON.stringify(round));
    const cipher = await globalThis.crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: additionalData(tool, id) },
      await this.#key,
      plain,
    );
    const bytes = new Uint8Array(iv.length + cipher.byteLength);
    bytes.set(iv);
    bytes.set(new Uint8Array(cipher), iv.length);
    return { kind: "junction.agent-approval", tool, round: id, sealed: toBase64URL(bytes) };
  }

  /** The run sealed in a round; throws `invalid-argument` when it was not sealed here for `tool`. */
  async open(sealed: SealedApprovalRound): Promise<ApprovalRound> {
    const bytes = fromBase64URL(sealed.sealed);
    try {
      if (!bytes) throw new JunctionError("invalid-argument", "requestState: `sealed` is not base64url");
      const plain = await globalThis.crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: bytes.slice(0, 12),
          additionalData: additionalData(sealed.tool, sealed.round),
        },
        await this.#key,
        bytes.slice(12),
      );
      return JSON.parse(new TextDecoder().decode(plain)) as ApprovalRound;
    } catch (cause) {
      throw new JunctionError(
        "invalid-argument",
        "The requestState of this retry was not sealed by this server (another stateKey, or changed): call the tool again.",
        { cause },
      );
    }
  }

  /**
   * Runs `answer` for the round if this is its first answer. A duplicate that comes while the
   * first one's outcome is kept here gets that outcome; any other (the round was taken by another
   * server process, or long ago) is refused with `invalid-argument`.
   */
  async once<T>(round: string, answer: () => Promise<T>): Promise<T> {
    this.#sweep();
    const kept = this.#outcomes.get(round);
    if (kept) return kept.outcome as Promise<T>;
    // Reserved synchronously, before the claim's await, so a duplicate in this process waits for it.
    let settle!: (outcome: Promise<T>) => void;
    const outcome = new Promise<T>((resolve) => {
      settle = resolve;
    });
    this.#outcomes.set(round, { outcome, expiresAt: Date.now() + this.#ttlMs });
    const claimed = this.#claim(round).catch((error: unknown) => {
      this.#outcomes.delete(round);
      throw error;
    });
    settle(
      claimed.then((first) => {
        if (!first) {
          this.#outcomes.delete(round);
          throw spent();
        }
        return answer();
      }),
    );
    return outcome;
  }

  async #claim(round: string): Promise<boolean> {
    const now = new Date().toISOString();
    const marker: AgentTaskRecord = {
      kind: "junction.agent-task",
      version: AGENT_TASK_VERSION,
      revision: 1,
      taskId: `round-${round}`,
      tool: "",
      owner: CLAIM_OWNER,
      status: "completed",
      statusMessage: "An input_required round of a served agent, answered",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#ttlMs,
    };
    return this.#store.put(marker, null);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [round, kept] of this.#outcomes) {
      if (kept.expiresAt <= now || this.#outcomes.size > MAX_KEPT_OUTCOMES) this.#outcomes.delete(round);
    }
    if (now - this.#sweptStoreAt < Math.min(this.#ttlMs, 60_000)) return;
    this.#sweptStoreAt = now;
    // Claims past their round's expiry guard nothing any more (the codec refuses the round itself).
    void this.#store
      .list()
      .then(async (records) => {
        for (const record of records) {
          if (record.owner === CLAIM_OWNER && Date.parse(record.createdAt) + record.ttlMs < now) {
            await this.#store.delete(record.taskId);
          }
        }
      })
      .catch(() => undefined); // a failed sweep leaves the claims for the next one
  }
}

function spent(): JunctionError {
  return new JunctionError(
    "invalid-argument",
    "This input_required round was answered already (a retry can be sent once): its outcome went to the first answer. Call the tool again for a new run.",
  );
}

function additionalData(tool: string, round: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`junction.agent-approval\0${tool}\0${round}`) as Uint8Array<ArrayBuffer>;
}

/** AES-256-GCM key from the server's `stateKey` (HKDF-SHA-256), apart from the signing key. */
async function sealingKey(stateKey: Uint8Array): Promise<CryptoKey> {
  const base = await globalThis.crypto.subtle.importKey(
    "raw",
    stateKey as Uint8Array<ArrayBuffer>,
    "HKDF",
    false,
    ["deriveKey"],
  );
  return globalThis.crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new TextEncoder().encode("junction.mcp-server"),
      info: new TextEncoder().encode("input_required round sealing, AES-256-GCM"),
    },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

// base64url with the web platform's own btoa/atob, so the root entry runs beyond Node too.
function toBase64URL(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of base64url text; `undefined` for anything else. */
function fromBase64URL(text: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]{16,}$/.test(text)) return undefined;
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
