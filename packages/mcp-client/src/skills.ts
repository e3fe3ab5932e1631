// The host side of the Skills extension (SEP-2640) for `MCP`: listing, getting and reading a
// server's skills through the SDK's `SkillsClient`, which checks every entry and verifies every
// file read (listed, size, digest, frontmatter). This file decides what a Junction user sees:
// refused entries reported beside the valid ones, verification failures as a JunctionError.
import { type JSONObject, JunctionError, type MCPSkill, type MCPSkillFrontmatter } from "@junction/types";
import type { RequestOptions } from "@modelcontextprotocol/client";
import {
  SKILLS_EXTENSION_ID,
  type SkillFile,
  SkillsClient,
  SkillVerificationError,
} from "@modelcontextprotocol/client/ext/skills";
import type { MCPConfig } from "./mcp-config.js";
import type { MCPRequestOptions } from "./mcp-connection.js";
import type { Session } from "./mcp-session.js";

/** The Skills extension's identifier, as servers declare it and `skills: true` advertises it. */
export const MCP_SKILLS_EXTENSION = SKILLS_EXTENSION_ID;

/** A `skills/list` entry the client refused, and why. Never use it as a skill. */
export interface MCPInvalidSkillEntry {
  /** Its position in the whole listing (every page counted). */
  index: number;
  /** Its `uri`, when it had a string one. */
  uri?: string;
  /** Every problem found, such as a malformed digest or a URI listed twice. */
  reason: string;
}

/** What `MCP.listSkills()` returns. */
export interface MCPSkillListing {
  /** The entries that passed every check, in the server's order. */
  skills: MCPSkill[];
  /** The entries refused, reported rather than dropped; empty when the listing was clean. */
  invalid: MCPInvalidSkillEntry[];
  /** How long the listing may be reused, in milliseconds (2026-07-28 servers). */
  ttlMs?: number;
  /** Whether the listing may be shared across users (`public`) or not (2026-07-28 servers). */
  cacheScope?: "public" | "private";
}

/** A skill file, read and verified against its skill entry. */
export interface MCPSkillFile {
  /** The file's URI, as the skill entry spells it. */
  uri: string;
  mimeType?: string;
  /** Exactly the bytes the entry's size and digest cover. */
  bytes: Uint8Array;
  /** The content as text, when the server sent text. */
  text?: string;
  /** Size and digest were checked: `false` only for a skill whose `resources` are `"dynamic"`. */
  verified: boolean;
}

/** A skill's `SKILL.md`, read and verified: its frontmatter equals the entry's. */
export interface MCPSkillDocument extends MCPSkillFile {
  text: string;
  frontmatter: MCPSkillFrontmatter;
  /** The markdown after the frontmatter: the skill's instructions. */
  body: string;
}

/** Why a skill file failed verification. */
export type MCPSkillVerificationReason = "unlisted" | "size" | "digest" | "frontmatter";

/**
 * A skill file failed verification against its skill entry (code
 * `mcp-skill-verification-failed`): not a listed file of the skill, a wrong size or digest, or
 * a `SKILL.md` whose frontmatter differs from the entry. Do not load the file; for `SKILL.md`,
 * not the skill.
 */
export class MCPSkillVerificationError extends JunctionError {
  /** The `SKILL.md` URI of the skill. */
  readonly skill: string;
  /** The file that failed. */
  readonly uri: string;
  readonly reason: MCPSkillVerificationReason;
  /** For `frontmatter`: one line per differing field. */
  readonly differences: readonly string[];

  constructor(
    message: string,
    details: {
      skill: string;
      uri: string;
      reason: MCPSkillVerificationReason;
      differences: readonly string[];
    },
    options?: { cause?: unknown },
  ) {
    super("mcp-skill-verification-failed", message, options);
    this.name = "MCPSkillVerificationError";
    this.skill = details.skill;
    this.uri = details.uri;
    this.reason = details.reason;
    this.differences = details.differences;
  }
}

/** Whether a config opts into the Skills extension: `skills: true`, or the extension in `extensions`. */
export function skillsEnabled(config: MCPConfig): boolean {
  return config.skills === true || config.extensions?.[SKILLS_EXTENSION_ID] !== undefined;
}

/** The client's `capabilities.extensions`: the config's `extensions`, and the Skills extension with `skills: true`. */
export function advertisedExtensions(config: MCPConfig): Record<string, JSONObject> | undefined {
  const extensions = { ...(config.skills ? { [SKILLS_EXTENSION_ID]: {} } : {}), ...config.extensions };
  return Object.keys(extensions).length > 0 ? extensions : undefined;
}

/** What {@link MCPSkills} needs of the `MCP` it works for. */
export interface SkillsContext {
  /** Whether the config opts into the extension ({@link skillsEnabled}). */
  enabled(): boolean;
  serverName(): string;
  /** Runs one request on the connection, as `MCP` runs any other. */
  run<T>(
    method: string,
    options: MCPRequestOptions,
    send: (session: Session, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T>;
}

/** The skills methods of one `MCP` (see `MCP.listSkills()` and the others). */
export class MCPSkills {
  constructor(private readonly context: SkillsContext) {}

  list(options: MCPRequestOptions): Promise<MCPSkillListing> {
    return this.request(
      { caller: "listSkills", method: "skills/list" },
      options,
      async (skills, requestOptions) => {
        const listing = await skills.list({}, requestOptions);
        return {
          skills: listing.skills,
          invalid: listing.invalid.map(({ index, uri, reason }) => ({
            index,
            ...(uri === undefined ? {} : { uri }),
            reason,
          })),
          ...(listing.ttlMs === undefined ? {} : { ttlMs: listing.ttlMs }),
          ...(listing.cacheScope === undefined ? {} : { cacheScope: listing.cacheScope }),
        };
      },
    );
  }

  get(uri: string, options: MCPRequestOptions): Promise<MCPSkill> {
    return this.request(
      { caller: "getSkill", method: "skills/get" },
      options,
      async (skills, requestOptions) => {
        return (await skills.get(uri, requestOptions)).skill;
      },
    );
  }

  async read(skill: MCPSkill | string, options: MCPRequestOptions): Promise<MCPSkillDocument> {
    const file = await this.readFile({ skill }, options, "readSkill");
    return file as MCPSkillDocument;
  }

  /** Reads `file.path` of a skill (its `SKILL.md` without a path), for `caller` as errors name it. */
  readFile(
    file: { skill: MCPSkill | string; path?: string },
    options: MCPRequestOptions,
    caller = "readSkillFile",
  ): Promise<MCPSkillFile> {
    const { skill, path } = file;
    return this.request({ caller, method: "resources/read" }, options, async (skills, requestOptions) => {
      const entry = typeof skill === "string" ? (await skills.get(skill, requestOptions)).skill : skill;
      try {
        return toSkillFile(await skills.read(entry, path, requestOptions));
      } catch (error) {
        throw this.readFailure(error, { skill: entry, path, caller });
      }
    });
  }

  /** Checks the extension is advertised and offered, then runs `send` with a `SkillsClient`. */
  private request<T>(
    { caller, method }: { caller: string; method: string },
    options: MCPRequestOptions,
    send: (skills: SkillsClient, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const server = this.context.serverName();
    if (!this.context.enabled()) {
      return Promise.reject(
        new JunctionError(
          "mcp-capability-missing",
          `${caller}: MCP connection "${server}" was created without \`skills: true\`, so the skills extension (${SKILLS_EXTENSION_ID}) was not advertised; pass \`skills: true\` in its config to enable it`,
        ),
      );
    }
    return this.context.run(method, options, (session, requestOptions) => {
      // Skipped entries come back in `invalid`, so one bad entry does not hide the good ones.
      const skills = new SkillsClient(session.client, { skipInvalid: true });
      if (!skills.supported) {
        throw new JunctionError(
          "mcp-capability-missing",
          `${caller}: MCP server "${this.context.serverName()}" does not offer the skills extension (${SKILLS_EXTENSION_ID}): its capabilities do not declare it`,
        );
      }
      return send(skills, requestOptions);
    });
  }

  private readFailure(
    error: unknown,
    { skill, path, caller }: { skill: MCPSkill; path: string | undefined; caller: string },
  ): unknown {
    const name = typeof skill.frontmatter?.name === "string" ? skill.frontmatter.name : skill.uri;
    const server = this.context.serverName();
    if (error instanceof SkillVerificationError) {
      return new MCPSkillVerificationError(
        `MCP server "${server}", skill "${name}" (${skill.uri}): ${error.uri} failed verification (${error.reason}) and must not be loaded: ${error.message}`,
        { skill: skill.uri, uri: error.uri, reason: error.reason, differences: error.differences },
        { cause: error },
      );
    }
    // The SDK throws a TypeError for an entry that is not a valid skill entry (before any request).
    if (error instanceof TypeError) {
      return new JunctionError(
        "invalid-argument",
        `${caller}: cannot read ${path === undefined ? "SKILL.md" : JSON.stringify(path)} of skill "${name}": ${error.message}`,
        { cause: error },
      );
    }
    return error;
  }
}

function toSkillFile(file: SkillFile): MCPSkillFile | MCPSkillDocument {
  return {
    uri: file.uri,
    ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }),
    bytes: file.bytes,
    ...(file.text === undefined ? {} : { text: file.text }),
    verified: file.verified,
    ...(file.frontmatter === undefined
      ? {}
      : { frontmatter: file.frontmatter as MCPSkillFrontmatter, body: file.body ?? "" }),
  };
}
