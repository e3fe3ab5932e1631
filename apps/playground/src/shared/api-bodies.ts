// The request bodies of the playground's JSON API: one zod schema per body. The server validates
// every body with these (a bad one is a 400 naming the field and what is wrong); the page types the
// bodies it sends from the same schemas (`import type` only, so zod stays out of the page's bundle).
// The services behind the routes still check what only they can (a server name's characters, a
// server config, a JSON Schema), with their own messages.
import { z } from "zod";
import type { CodeModeSetting } from "./api-types.js";

/** A conversation's code modes (`CodeModeSetting`), in the order the page offers them. */
export const CODE_MODE_SETTINGS = [
  "off",
  "sandbox",
  "provider",
] as const satisfies readonly CodeModeSetting[];

/** A field's path as a person reads it: `ref.uri`, `arguments.path`, `entries[2]`; "The request body" for the whole. */
export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "The request body";
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}

/** A required string with at least one character; anything else is "<field> must be a non-empty string." */
const nonEmptyString = z
  .string({ error: (issue) => `${fieldName(issue.path ?? [])} must be a non-empty string.` })
  .min(1, { error: (issue) => `${fieldName(issue.path ?? [])} must be a non-empty string.` });

/** A JSON object of any fields: what a service checks further (a server config, a tool's arguments). */
const jsonObject = z.record(z.string(), z.unknown());

/** `POST /api/servers`: a new server, as the add form or an `mcpServers` entry gives it. */
export const addServerBody = z.object({ name: z.string(), config: jsonObject });
export type AddServerBody = z.input<typeof addServerBody>;

/** `PUT /api/servers/:id`: the server's new name and config; `enabled: false` keeps it off. */
export const updateServerBody = addServerBody.extend({ enabled: z.boolean().optional() });
export type UpdateServerBody = z.input<typeof updateServerBody>;

/** `POST /api/servers/import`: an `mcpServers` (or VS Code `servers`) file, as its text or its JSON. */
export const importServersBody = z.object({
  document: z.union([z.string(), jsonObject], {
    error: "document must be the file's text (a string) or its JSON object.",
  }),
});
export type ImportServersBody = z.input<typeof importServersBody>;

/** `PUT /api/servers/:id/defer-tools`: whether the server's tools load only when searched. */
export const deferToolsBody = z.object({
  deferTools: z.boolean({ error: 'Send {"deferTools": true} or {"deferTools": false}.' }),
});
export type DeferToolsBody = z.input<typeof deferToolsBody>;

/** A body with nothing in it: a POST that only acts (restart, ping, add an example, stop a run). */
export const emptyBody = z.object({});
export type EmptyBody = z.input<typeof emptyBody>;

/** `POST /api/servers/:id/complete`: suggestions for a resource template's or a prompt's argument. */
export const completeBody = z.object({
  ref: z.discriminatedUnion(
    "type",
    [
      z.object({ type: z.literal("ref/resource"), uri: nonEmptyString }),
      z.object({ type: z.literal("ref/prompt"), name: nonEmptyString }),
    ],
    { error: 'ref must be { type: "ref/resource", uri } or { type: "ref/prompt", name }.' },
  ),
  argument: z.object({ name: nonEmptyString, value: z.string().optional() }),
});
export type CompleteBody = z.input<typeof completeBody>;

/** `POST /api/servers/:id/tools/call`: the inspector's call of one tool. */
export const callToolBody = z.object({ name: nonEmptyString, arguments: jsonObject.optional() });
export type CallToolBody = z.input<typeof callToolBody>;

/** `POST /api/servers/:id/resources/read`. */
export const readResourceBody = z.object({ uri: nonEmptyString });
export type ReadResourceBody = z.input<typeof readResourceBody>;

/** `POST /api/servers/:id/prompts/get`: a prompt with its arguments, each a string. */
export const getPromptBody = z.object({
  name: nonEmptyString,
  arguments: z.record(z.string(), z.string()).optional(),
});
export type GetPromptBody = z.input<typeof getPromptBody>;

/** `POST /api/servers/:id/apps`: opens the MCP App of one of the server's tools. */
export const openAppBody = z.object({ tool: z.string() });
export type OpenAppBody = z.input<typeof openAppBody>;

/** `POST /api/servers/:id/apps/preview`: opens a `ui://` resource as an app, without a tool. */
export const previewAppBody = z.object({ uri: z.string() });
export type PreviewAppBody = z.input<typeof previewAppBody>;

/** `POST /api/apps/:appId/tools/call`: an open app's `tools/call`. */
export const appToolCallBody = z.object({
  name: z.string(),
  arguments: jsonObject.optional(),
  /** Made by the page: the server's progress for this call comes back as `app-progress` events with it. */
  progressId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, "progressId is 8–64 letters, digits, - or _")
    .optional(),
});
export type AppToolCallBody = z.input<typeof appToolCallBody>;

/** `POST /api/apps/:appId/approvals/:approvalId`: the person's answer to an app's call. */
export const appApprovalBody = z.object({ approve: z.boolean() });
export type AppApprovalBody = z.input<typeof appApprovalBody>;

/** `POST /api/elicitations/:id`: the person's answer to a server's elicitation request. */
export const elicitationAnswerBody = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z
    .record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), z.array(z.string())], {
        error: (issue) =>
          `${fieldName(issue.path ?? [])} must be a string, number, boolean or list of strings.`,
      }),
    )
    .optional(),
});
export type ElicitationAnswerBody = z.input<typeof elicitationAnswerBody>;

/** `POST /api/settings`: the OpenAI-compatible endpoint; an empty string or null clears a setting. */
export const settingsBody = z.object({
  openaiCompatibleBaseURL: z.string().nullable().optional(),
  openaiCompatibleModel: z.string().nullable().optional(),
});
export type SettingsBody = z.input<typeof settingsBody>;

/** `POST /api/conversations`: a new conversation; the first available provider and its default model by default. */
export const createConversationBody = z.object({
  provider: z.string().optional(),
  model: z.string().optional(),
  /** Where the model's programs run, if it may write them (code mode). @default "off" */
  codeMode: z.enum(CODE_MODE_SETTINGS).optional(),
});
export type CreateConversationBody = z.input<typeof createConversationBody>;

/** `PUT /api/conversations/:id/output-schema`: the JSON Schema every answer must match; null (or none) clears it. */
export const outputSchemaBody = z.object({
  schema: z
    .record(z.string(), z.unknown(), {
      error: "The output schema must be a JSON object (a JSON Schema), or null to clear it.",
    })
    .nullable()
    .optional(),
});
export type OutputSchemaBody = z.input<typeof outputSchemaBody>;

/**
 * `PUT /api/conversations/:id/code-mode`: the code mode of the conversation's next runs. With
 * `provider` and `model` (the ones its next turn uses; the conversation's own by default), the
 * conversation takes those too, and `"provider"` is checked against them.
 */
export const codeModeBody = z.object({
  mode: z.enum(CODE_MODE_SETTINGS),
  provider: z.string().optional(),
  model: z.string().optional(),
});
export type CodeModeBody = z.input<typeof codeModeBody>;

/** `POST /api/conversations/:id/messages`: one chat turn; the conversation's provider and model unless given. */
export const turnBody = z.object({
  text: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
});
export type TurnBody = z.input<typeof turnBody>;

/** `POST /api/conversations/:id/approvals/:callId`: the answer to a stopped run's approval. */
export const chatApprovalBody = z.object({ approve: z.boolean(), reason: z.string().optional() });
export type ChatApprovalBody = z.input<typeof chatApprovalBody>;

/** `PUT /api/serve`: the playground's own MCP endpoint on or off. */
export const serveBody = z.object({ enabled: z.boolean({ error: "`enabled` must be true or false." }) });
export type ServeBody = z.input<typeof serveBody>;
