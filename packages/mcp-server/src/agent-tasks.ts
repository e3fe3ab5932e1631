import { canonicalJSON, type PendingToolCall, type ResumeDecision } from "@junction/core";
import { errorMessage, isAbortError, JunctionError } from "@junction/types";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { AgentRunInput, AgentRunner } from "./agent-run.js";
import { approvalElicitation, approvalKey, decisionOf } from "./approval-input.js";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import type { DurableAgentRuns, DurableRunStatus } from "./durable-runs.js";
import type { PassThroughRelay } from "./pass-through.js";
import { AGENT_TASK_VERSION, type AgentTaskRecord, InMemoryTaskStore, type TaskStore } from "./task-store.js";

/** The MCP tasks extension (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** How served agent runs become tasks (the tasks extension of 2026-07-28). */
export interface MCPTaskOptions {
  /** Where tasks are kept. @default an `InMemoryTaskStore` (tasks end with the process) */
  store?: TaskStore;
  /**
   * Agent runs going at once per client (authenticated client id; one pool without
   * authentication); a task call beyond it is refused (-32000) until one ends or waits for input.
   * @default 4
   */
  maxConcurrentRuns?: number;
  /**
   * Tasks not yet ended (working or waiting for input) per client; beyond it a task call is refused.
   * @default 100
   */
  maxOpenTasks?: number;
  /** The poll interval suggested to clients. @default 500 */
  pollIntervalMs?: number;
  /** How long a task is kept after it was created. @default 604800000 (7 days) */
  ttlMs?: number;
  /**
   * Runs the agent tools' runs on a durable engine instead of in this process: the task is the
   * engine's run (same id), `tasks/get` reads its status and pending approvals from the engine,
   * `tasks/update` answers through it, and any process with the same store and `stateKey`
   * serves the task. `maxConcurrentRuns` does not apply (the engine runs them).
   */
  runs?: DurableAgentRuns;
}

/** A task as `tasks/get` (a `DetailedTask`) and a `CreateTaskResult` show it. */
export type TaskView = Record<string, unknown> & { taskId: string; status: string };

/**
 * Runs served agents as tasks and keeps them in a `TaskStore`: the run goes on in the background,
 * its progress is the task's status message, and a call that needs a person stops the run; the
 * task then waits (`input_required`) with the run's state in the store and one elicitation per
 * pending call in its `inputRequests`. A `tasks/update` answering every pending call resumes the
 * run, in this process or in the next one (same store and `stateKey`).
 */
export class AgentTasks {
  readonly #store: TaskStore;
  readonly #key: Promise<CryptoKey>;
  readonly #runners: Map<string, AgentRunner>;
  readonly #relay: PassThroughRelay | undefined;
  readonly #runs: DurableAgentRuns | undefined;
  readonly #live = new Map<string, AbortController>();
  readonly #running = new Map<string, number>();
  readonly #maxConcurrentRuns: number;
  readonly #maxOpenTasks: number;
  readonly #pollIntervalMs: number;
  readonly #ttlMs: number;
  /** Writes of one task, in order (progress, status changes). */
  readonly #writes = new Map<string, Promise<void>>();

  constructor(
    options: MCPTaskOptions,
    parts: { key: Uint8Array; runners: Map<string, AgentRunner>; relay?: PassThroughRelay | undefined },
  ) {
    this.#store = options.store ?? new InMemoryTaskStore();
    this.#key = globalThis.crypto.subtle.importKey(
      "raw",
      parts.key as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    this.#runners = parts.runners;
    this.#relay = parts.relay;
    this.#runs = options.runs;
    this.#maxConcurrentRuns = options.maxConcurrentRuns ?? 4;
    this.#maxOpenTasks = options.maxOpenTasks ?? 100;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60_000;
  }

  /** Whether `name` is an agent tool served as a task. */
  serves(name: string): boolean {
    return this.#runners.has(name);
  }

  /** Starts a run as a task; resolves once the task is stored, with the `CreateTaskResult`. */
  async start(tool: string, args: unknown, owner: string): Promise<TaskView> {
    const runner = this.#runner(tool);
    const input = runner.parse(args);
    if (!this.#runs && (this.#running.get(owner) ?? 0) >= this.#maxConcurrentRuns) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Too many agent runs going at once for this client (limit ${this.#maxConcurrentRuns}); wait for one to end, or cancel one.`,
      );
    }
    const open = (await this.#store.list()).filter(
      (record) => record.owner === owner && !isTerminal(record.status),
    ).length;
    if (open >= this.#maxOpenTasks) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Too many open tasks for this client (limit ${this.#maxOpenTasks}); answer or cancel some first.`,
      );
    }
    const now = new Date().toISOString();
    const record: AgentTaskRecord = {
      kind: "junction.agent-task",
      version: AGENT_TASK_VERSION,
      taskId: globalThis.crypto.randomUUID(),
      tool,
      owner,
      status: "working",
      statusMessage: "Started",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#ttlMs,
    };
    if (this.#runs) record.runId = record.taskId;
    await this.#save(record);
    if (this.#runs) await this.#runs.start({ tool, runId: record.taskId, request: input.request });
    else this.#launch(runner, record, input);
    return { resultType: "task", ...this.#view(record) };
  }

  /** `tasks/get`: the task, its input requests while it waits, its result once done. */
  async get(taskId: string, owner: string): Promise<TaskView> {
    const record = await this.#durable(await this.#load(taskId, owner));
    const view: TaskView = this.#view(record);
    if (record.status === "input_required" && record.pending) {
      const inputRequests: Record<string, unknown> = {};
      for (const item of record.pending) {
        inputRequests[approvalKey(item)] = {
          method: "elicitation/create",
          params: approvalElicitation(record.tool, item),
        };
      }
      view.inputRequests = inputRequests;
    }
    if (record.status === "completed" && record.result) view.result = record.result;
    if (record.status === "failed" && record.error) view.error = record.error;
    return view;
  }

  /**
   * `tasks/update`: the answers to the task's input requests. Only answers under the keys of the
   * calls the task waits for count (a client cannot approve a call it was not asked about: the
   * key names the call, and the run checks the decision against the call's tool and arguments
   * in its signed state); others are ignored, as the extension says. Once every pending call has
   * an answer, the run resumes.
   */
  async update(taskId: string, owner: string, inputResponses: Record<string, unknown>): Promise<void> {
    const record = await this.#durable(await this.#load(taskId, owner));
    if (this.#runs) {
      if (record.status !== "input_required" || !record.pending || !record.runId) return;
      const answers: [PendingToolCall, ResumeDecision][] = [];
      for (const item of record.pending) {
        const key = approvalKey(item);
        const decision = Object.hasOwn(inputResponses, key) ? decisionOf(inputResponses[key]) : undefined;
        if (decision === undefined) return;
        answers.push([item, decision]);
      }
      for (const [item, decision] of answers) await this.#runs.answer(record.runId, item, decision);
      return;
    }
    if (record.status !== "input_required" || !record.state || !record.pending) return;
    const decisions: Record<string, ResumeDecision> = {};
    for (const item of record.pending) {
      const key = approvalKey(item);
      const decision = Object.hasOwn(inputResponses, key) ? decisionOf(inputResponses[key]) : undefined;
      if (decision === undefined) return;
      decisions[item.id] = decision;
    }
    const input: AgentRunInput = { state: record.state, decisions };
    const next: AgentTaskRecord = {
      ...record,
      status: "working",
      statusMessage: "Answered; the run goes on",
      lastUpdatedAt: new Date().toISOString(),
    };
    delete next.state;
    delete next.pending;
    await this.#save(next);
    this.#launch(this.#runner(record.tool), next, input);
  }

  /** `tasks/cancel`: aborts the run (if it runs here) and marks the task cancelled. */
  async cancel(taskId: string, owner: string): Promise<void> {
    const record = await this.#load(taskId, owner);
    if (isTerminal(record.status)) return;
    this.#live.get(taskId)?.abort();
    if (this.#runs && record.runId) await this.#runs.cancel(record.runId);
    const cancelled: AgentTaskRecord = {
      ...record,
      status: "cancelled",
      statusMessage: "Cancelled",
      lastUpdatedAt: new Date().toISOString(),
    };
    delete cancelled.state;
    delete cancelled.pending;
    await this.#save(cancelled);
  }

  /** Aborts every run going in this process (their tasks stay as stored). */
  close(): void {
    for (const controller of this.#live.values()) controller.abort();
  }

  /**
   * A durable run's task as the engine has it now (status, pending calls, result); an ended one
   * is kept so, and the engine is not asked again. A task run in this process is as stored.
   */
  async #durable(record: AgentTaskRecord): Promise<AgentTaskRecord> {
    if (!this.#runs || !record.runId || isTerminal(record.status)) return record;
    const now: DurableRunStatus = await this.#runs.status(record.runId);
    const next: AgentTaskRecord = { ...record, lastUpdatedAt: new Date().toISOString() };
    delete next.pending;
    switch (now.status) {
      case "working":
        next.status = "working";
        next.statusMessage = now.statusMessage ?? "Working";
        return next;
      case "input_required": {
        const names = [...new Set(now.pending.map((call) => `"${call.name}"`))].join(", ");
        next.status = "input_required";
        next.statusMessage = `Waiting for a person to approve the call to ${names}`;
        next.pending = now.pending;
        return next;
      }
      case "completed":
        next.status = "completed";
        next.statusMessage = "Done";
        next.result = toCallToolResult(now.result);
        break;
      case "failed":
        next.status = "completed";
        next.statusMessage = `Failed: ${now.message}`;
        next.result = toolErrorResult(record.tool, new JunctionError("tool-execution-failed", now.message));
        break;
      case "cancelled":
        next.status = "cancelled";
        next.statusMessage = "Cancelled";
        break;
      default: {
        const never: never = now;
        throw new JunctionError("invalid-argument", `Unknown durable run status ${JSON.stringify(never)}.`);
      }
    }
    await this.#save(next);
    return next;
  }

  #runner(tool: string): AgentRunner {
    const runner = this.#runners.get(tool);
    if (!runner) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No agent tool "${tool}" is served as a task here.`,
      );
    }
    return runner;
  }

  #launch(runner: AgentRunner, record: AgentTaskRecord, input: AgentRunInput): void {
    const { taskId, owner } = record;
    const controller = new AbortController();
    this.#live.set(taskId, controller);
    this.#running.set(owner, (this.#running.get(owner) ?? 0) + 1);
    let current = record;
    const write = (change: Partial<AgentTaskRecord>, remove: (keyof AgentTaskRecord)[] = []) => {
      current = { ...current, ...change, lastUpdatedAt: new Date().toISOString() };
      for (const key of remove) delete current[key];
      const snapshot = current;
      const previous = this.#writes.get(taskId) ?? Promise.resolve();
      const next = previous.then(async () => {
        // A task cancelled meanwhile stays cancelled.
        const stored = await this.#store.get(taskId);
        if (stored?.status === "cancelled") return;
        await this.#save(snapshot);
      });
      this.#writes.set(
        taskId,
        // A failed write of a progress report must not stop the run; the next write carries it.
        next.catch(() => undefined),
      );
      return next;
    };
    void (async () => {
      try {
        const run = () =>
          runner.run(input, {
            signal: controller.signal,
            onProgress: (progress) => {
              if (progress.message) void write({ statusMessage: progress.message }).catch(() => undefined);
            },
          });
        // A run in the background has no client request to forward an upstream request through:
        // its own scope refuses it (and keeps it from being taken for another call's).
        const outcome = this.#relay
          ? await this.#relay.run({ tool: runner.name, forward: refuseInTask(runner.name) }, run)
          : await run();
        if (outcome.kind === "answer") {
          await write({
            status: "completed",
            statusMessage: "Done",
            result: toCallToolResult(outcome.result),
          });
        } else {
          const names = [...new Set(outcome.pending.map((call) => `"${call.name}"`))].join(", ");
          await write({
            status: "input_required",
            statusMessage: `Waiting for a person to approve the call to ${names}`,
            runId: outcome.state.runId,
            state: outcome.state,
            pending: outcome.pending,
          });
        }
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return;
        await write({
          status: "completed",
          statusMessage: `Failed: ${errorMessage(error)}`,
          result: toolErrorResult(record.tool, error),
        }).catch(() => undefined);
      } finally {
        this.#live.delete(taskId);
        this.#running.set(owner, Math.max(0, (this.#running.get(owner) ?? 1) - 1));
      }
    })();
  }

  #view(record: AgentTaskRecord): TaskView {
    return {
      taskId: record.taskId,
      status: record.status,
      ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
      ttlMs: record.ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
    };
  }

  /** The task, if it exists, is this client's, is unexpired and its signature holds; else -32602. */
  async #load(taskId: string, owner: string): Promise<AgentTaskRecord> {
    const record = await this.#store.get(taskId);
    const unknown = () => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task "${taskId}".`);
    if (!record || record.owner !== owner) throw unknown();
    if (Date.parse(record.createdAt) + record.ttlMs < Date.now()) {
      await this.#store.delete(taskId);
      throw unknown();
    }
    const { signature, ...rest } = record;
    const key = await this.#key;
    const valid =
      typeof signature === "string" &&
      /^[0-9a-f]{64}$/.test(signature) &&
      (await globalThis.crypto.subtle.verify("HMAC", key, fromHex(signature), encode(canonicalJSON(rest))));
    if (!valid) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The stored task "${taskId}" is not signed with this server's stateKey (changed, or stored by a server with another key); it is refused.`,
      );
    }
    return record;
  }

  async #save(record: AgentTaskRecord): Promise<void> {
    const { signature: _old, ...rest } = record;
    const key = await this.#key;
    const mac = await globalThis.crypto.subtle.sign("HMAC", key, encode(canonicalJSON(rest)));
    await this.#store.put({ ...rest, signature: toHex(new Uint8Array(mac)) });
  }
}

function refuseInTask(tool: string) {
  return (method: string): Promise<unknown> =>
    Promise.reject(
      new JunctionError(
        "mcp-capability-missing",
        `An upstream MCP server sent ${method} during the task of "${tool}": a request from an agent's MCP server is not forwarded to a task's client yet (call the tool without a task to have it forwarded).`,
      ),
    );
}

function isTerminal(status: string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}
