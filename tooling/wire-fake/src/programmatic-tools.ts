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
