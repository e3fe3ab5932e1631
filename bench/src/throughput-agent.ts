// The worker half of the engine-throughput benchmark: the short Agent run it starts many of at
// once (a model step that asks for one tool call, the tool, read-only and closed-world so that
// `annotationPolicy()` lets it run unasked, then a model step that answers), made with the real
// provider package pointed at the model fake in the bench's process (bench-engine-throughput.ts).
// The workers run without the bench's resolve hook: nothing here imports the tooling's sources.
import { Agent, annotationPolicy } from "@junction/core";
import { chatCompletions } from "@junction/provider-chatcompletions";

/** What each run is asked, and the answer it must end with. */
export const lookupRun = {
  input: "Where is order 7?",
  answer: "Order 7: shipped",
} as const;

/** The line a throughput worker prints once it serves runs: then its name. */
export const WORKER_READY = "throughput worker ready ";

/** A worker's `makeAgent`: a new Agent per run on the model at `modelURL`. */
export function lookupAgent(modelURL: string): () => Agent {
  const provider = chatCompletions({ baseURL: modelURL, apiKey: "bench" });
  return () =>
    new Agent({
      provider,
      model: "fake",
      approval: annotationPolicy(),
      tools: [
        {
          name: "lookup_order",
          description: "Looks up where an order is.",
          inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
          annotations: { readOnlyHint: true, openWorldHint: false },
          execute: async (input: { id: number }) => `Order ${input.id}: shipped`,
        },
      ],
    });
}
