// The tools the providers' programmatic-tool-calling tests give an Agent (Anthropic's and OpenAI's
// the same), each counting its runs in `runs`: a read-only query a program may call unasked, an
// open-world send that asks first, and a read-only lookup left direct.

/** An object's JSON Schema as the tests' requests send it: closed. */
export const closedObjectSchema = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
  additionalProperties: false,
});

/** `sales_query` (read-only, returns "42"), `send_report` (asks), `lookup` (read-only). */
export function programmaticTools(runs: string[]) {
  return [
    {
      name: "sales_query",
      description: "Total sales of a region.",
      inputSchema: closedObjectSchema({ region: { type: "string" } }, ["region"]),
      annotations: { readOnlyHint: true, openWorldHint: false },
      execute: async (input: { region: string }) => {
        runs.push(`sales_query ${input.region}`);
        return "42";
      },
    },
    {
      name: "send_report",
      description: "Mail a report.",
      inputSchema: closedObjectSchema({ to: { type: "string" }, total: { type: "number" } }, ["to", "total"]),
      execute: async (input: { to: string; total: number }) => {
        runs.push(`send_report ${input.to} ${input.total}`);
        return "mailed";
      },
    },
    {
      name: "lookup",
      description: "Look a word up.",
      inputSchema: closedObjectSchema({ word: { type: "string" } }, ["word"]),
      annotations: { readOnlyHint: true, openWorldHint: false },
      execute: async () => "a word",
    },
  ];
}

/** A message of the programmatic tests' conversation, shaped as Junction's `Message` (`Content`: a turn's parts). */
export type ProgramConversationMessage<Content> =
  | { role: "user"; content: string }
  | { role: "assistant"; content: Content }
  | {
      role: "tool";
      content: [{ type: "tool-result"; toolCallId: string; toolName: string; output: string }];
    };

/**
 * Plays the programmatic tests' conversation through `stream` (one request per turn, each turn's
 * content sent back as it came): the ask; `sales_query` answered "42" (the call `callIds.sales`);
 * `send_report` answered "mailed" (`callIds.report`); then "Thanks." after the program's end. The
 * vendor's fake answers the four requests; a test reads their bodies for the vendor's wire.
 */
export async function playProgramConversation<Content>(options: {
  ask: string;
  callIds: { sales: string; report: string };
  stream: (messages: ProgramConversationMessage<Content>[]) => Promise<Content>;
}): Promise<void> {
  const answer = (
    toolCallId: string,
    toolName: string,
    output: string,
  ): ProgramConversationMessage<Content> => ({
    role: "tool",
    content: [{ type: "tool-result", toolCallId, toolName, output }],
  });
  const messages: ProgramConversationMessage<Content>[] = [{ role: "user", content: options.ask }];
  const next = [
    answer(options.callIds.sales, "sales_query", "42"),
    answer(options.callIds.report, "send_report", "mailed"),
    { role: "user" as const, content: "Thanks." },
  ];
  for (const message of next) {
    messages.push({ role: "assistant", content: await options.stream([...messages]) }, message);
  }
  await options.stream([...messages]);
}
