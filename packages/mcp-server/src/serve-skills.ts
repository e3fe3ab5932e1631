// Serving the Skills extension (SEP-2640): skills given inline or from storage become one of the
// SDK's skill catalogs (`SkillsExtension.load`), which publishes the entries (sizes, digests,
// frontmatter), serves `skills/list`, `skills/get`, `resources/directory/read` and the files under
// `skill://`, and declares the extension. This file checks the definitions, writes each inline
// skill's `SKILL.md`, and turns the catalog's problems into errors that say what to fix.
import { JunctionError, type MCPSkillFrontmatter } from "@junction/types";
import type { McpServer } from "@modelcontextprotocol/server";
import {
  memorySkillFiles,
  SKILL_LIMITS,
  SKILLS_EXTENSION_ID,
  type SkillCatalog,
  SkillCatalogError,
  type SkillFiles,
  SkillsExtension,
  type SkillWarning,
} from "@modelcontextprotocol/server/ext/skills";

/** One skill served inline: its `SKILL.md` is written from these fields. */
export interface MCPServerSkill {
  /**
   * The skill's name, also its folder: it is served at `skill://<name>/SKILL.md`. 1 to 64
   * lowercase letters, digits and single hyphens, neither first nor last (the Agent Skills rule).
   */
  name: string;
  /** What the skill does and when to use it (1 to 1024 characters): what a model chooses it by. */
  description: string;
  /** The instructions: the markdown of `SKILL.md` after its frontmatter. */
  instructions: string;
  /**
   * More frontmatter fields, such as `license`, `compatibility` (1 to 500 characters),
   * `allowed-tools` or `metadata` (strings to strings). Clients receive them verbatim.
   */
  frontmatter?: Omit<MCPSkillFrontmatter, "name" | "description">;
  /**
   * The skill's other files by their path in its folder (`references/FORMS.md`,
   * `scripts/fill.py`): text, or bytes. Served at `skill://<name>/<path>`, each with its size
   * and digest in the entry.
   */
  files?: Record<string, string | Uint8Array>;
}

/**
 * Skills kept in storage: a folder of skill folders, each with its `SKILL.md`, read through the
 * SDK's `SkillFiles` adapter. Make one with `skillsDirectory()` (`@junction/mcp-server/node`).
 */
export interface MCPServerSkillStorage {
  files: SkillFiles;
  /** Where the skills are, for error messages (such as the folder's path). */
  origin: string;
}

/** What `MCPServerOptions.skills` takes: skills inline, or from storage. */
export type MCPServerSkills = readonly MCPServerSkill[] | MCPServerSkillStorage;

/** The resource name the SDK registers the skill files under. */
export const SKILLS_RESOURCE_NAME = SKILLS_EXTENSION_ID;

const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const OWN_FIELDS = new Set(["name", "description"]);

/**
 * The skills one `MCPServer` serves: the catalog, loaded once (from the start, so that a problem
 * is found before the first client comes), attached to every SDK server instance.
 */
export class ServedSkills {
  readonly #catalog: Promise<SkillCatalog>;

  constructor(skills: MCPServerSkills) {
    // Inline skills may be none (an empty listing is allowed); a folder without any is a mistake.
    this.#catalog = isStorage(skills)
      ? loadCatalog(skills, { allowEmpty: false })
      : loadCatalog(inlineStorage(skills), { allowEmpty: true });
    // Reported when the first server instance is built (`attach`), not as an unhandled rejection.
    this.#catalog.catch(() => undefined);
  }

  /** Serves the skills on one SDK server instance (before it connects). */
  async attach(server: McpServer): Promise<void> {
    (await this.#catalog).attach(server);
  }
}

/**
 * Checks inline skill definitions: what the catalog would otherwise skip with a warning, or
 * refuse, is refused here, at `createMCPServer()`, with what to change.
 */
export function checkSkills(skills: unknown): void {
  if (isStorage(skills)) return;
  if (!Array.isArray(skills)) {
    throw invalid(
      "`skills` must be an array of skills ({ name, description, instructions, files? }) or skills in storage (skillsDirectory(path) from @junction/mcp-server/node).",
    );
  }
  const seen = new Set<string>();
  skills.forEach((skill: unknown, index) => {
    const where = `skills[${index}]`;
    if (typeof skill !== "object" || skill === null) throw invalid(`${where} must be an object.`);
    const { name, description, instructions, frontmatter, files } = skill as Record<string, unknown>;
    if (typeof name !== "string" || name.length > 64 || !SKILL_NAME.test(name)) {
      throw invalid(
        `${where}.name ${JSON.stringify(name)} is not a skill name: use 1 to 64 lowercase letters, digits and single hyphens, not first or last (such as "pdf-processing").`,
      );
    }
    const named = `skill "${name}"`;
    if (seen.has(name)) throw invalid(`two skills are named "${name}"; skill names must be unique.`);
    seen.add(name);
    if (
      typeof description !== "string" ||
      description.trim().length === 0 ||
      [...description].length > 1024
    ) {
      throw invalid(`${named}: \`description\` must be a string of 1 to 1024 characters.`);
    }
    if (typeof instructions !== "string") {
      throw invalid(`${named}: \`instructions\` must be a string (the markdown of its SKILL.md).`);
    }
    checkFrontmatter(named, frontmatter);
    checkFiles(named, files);
  });
}

function checkFrontmatter(named: string, frontmatter: unknown): void {
  if (frontmatter === undefined) return;
  if (typeof frontmatter !== "object" || frontmatter === null || Array.isArray(frontmatter)) {
    throw invalid(`${named}: \`frontmatter\` must be an object of frontmatter fields.`);
  }
  for (const [field, value] of Object.entries(frontmatter)) {
    if (OWN_FIELDS.has(field)) {
      throw invalid(`${named}: set \`${field}\` on the skill itself, not in \`frontmatter\`.`);
    }
    if (!isJSONValue(value)) {
      throw invalid(
        `${named}: frontmatter field "${field}" must be JSON data (strings, finite numbers, booleans, null, arrays and plain objects of them).`,
      );
    }
  }
  const { compatibility, metadata } = frontmatter as Record<string, unknown>;
  if (
    compatibility !== undefined &&
    (typeof compatibility !== "string" || compatibility.length === 0 || [...compatibility].length > 500)
  ) {
    throw invalid(`${named}: frontmatter \`compatibility\` must be a string of 1 to 500 characters.`);
  }
  if (
    metadata !== undefined &&
    (typeof metadata !== "object" ||
      metadata === null ||
      Array.isArray(metadata) ||
      Object.values(metadata).some((value) => typeof value !== "string"))
  ) {
    throw invalid(`${named}: frontmatter \`metadata\` must map strings to strings.`);
  }
}

function checkFiles(named: string, files: unknown): void {
  if (files === undefined) return;
  if (typeof files !== "object" || files === null || Array.isArray(files)) {
    throw invalid(`${named}: \`files\` must map paths in the skill's folder to text or bytes.`);
  }
  let bytes = 0;
  const entries = Object.entries(files);
  for (const [path, content] of entries) {
    const segments = path.split("/");
    if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
      throw invalid(
        `${named}: file path ${JSON.stringify(path)} must be relative to the skill's folder, with no empty, "." or ".." segment (such as "references/FORMS.md").`,
      );
    }
    if (segments.some((segment) => segment.startsWith("."))) {
      throw invalid(
        `${named}: file path ${JSON.stringify(path)} names a hidden file or folder, which is not served; rename it.`,
      );
    }
    if (path === "SKILL.md") {
      throw invalid(
        `${named}: \`files\` must not hold SKILL.md; it is written from \`description\` and \`instructions\`.`,
      );
    }
    if (typeof content === "string") bytes += new TextEncoder().encode(content).byteLength;
    else if (content instanceof Uint8Array) bytes += content.byteLength;
    else throw invalid(`${named}: file ${JSON.stringify(path)} must be a string or a Uint8Array.`);
  }
  if (entries.length + 1 > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes) {
    throw invalid(
      `${named} has ${entries.length + 1} files and ${bytes} bytes besides SKILL.md; a skill may have at most ${SKILL_LIMITS.files} files and ${SKILL_LIMITS.bytes} bytes (hosts may refuse larger ones).`,
    );
  }
}

/**
 * The `SKILL.md` of an inline skill: YAML frontmatter, each value written as JSON (YAML reads
 * JSON scalars, arrays and objects as they are), then the instructions.
 */
function skillMarkdown(skill: MCPServerSkill): string {
  const fields = { name: skill.name, description: skill.description, ...skill.frontmatter };
  const lines = Object.entries(fields).map(([field, value]) => `${yamlKey(field)}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n${skill.instructions}`;
}

function yamlKey(field: string): string {
  return /^[A-Za-z][\w-]*$/.test(field) ? field : JSON.stringify(field);
}

/** Inline skills as one folder of skill folders, in memory. */
function inlineStorage(skills: readonly MCPServerSkill[]): MCPServerSkillStorage {
  const record: Record<string, string | Uint8Array> = {};
  for (const skill of skills) {
    record[`${skill.name}/SKILL.md`] = skillMarkdown(skill);
    for (const [path, content] of Object.entries(skill.files ?? {}))
      record[`${skill.name}/${path}`] = content;
  }
  return { files: memorySkillFiles(record), origin: "the inline `skills`" };
}

/**
 * Builds the catalog strictly: every problem the SDK would only warn about (a skill skipped,
 * a stray SKILL.md, no skill at all) refuses the catalog with all of them named.
 */
async function loadCatalog(
  storage: MCPServerSkillStorage,
  { allowEmpty }: { allowEmpty: boolean },
): Promise<SkillCatalog> {
  const problems: SkillWarning[] = [];
  let loading = true;
  const onWarning = (warning: SkillWarning) => {
    if (loading) {
      // The root's only warning is that no skill was found: fine for an empty inline list.
      if (!(allowEmpty && warning.path === ".")) problems.push(warning);
      return;
    }
    // After loading, a served file that changed in storage (the catalog refuses to serve it).
    console.warn(`[junction] skills from ${storage.origin}: ${warning.path}: ${warning.message}`);
  };
  let catalog: SkillCatalog;
  try {
    catalog = await SkillsExtension.load(storage.files, { strict: true, onWarning });
  } catch (error) {
    if (!SkillCatalogError.isInstance(error)) throw error;
    throw catalogError(storage, [...error.problems, ...problems], error);
  } finally {
    loading = false;
  }
  if (problems.length > 0) throw catalogError(storage, problems);
  return catalog;
}

function catalogError(
  storage: MCPServerSkillStorage,
  problems: SkillWarning[],
  cause?: unknown,
): JunctionError {
  const listed = problems.map(({ path, message }) => `${path}: ${message}`).join("; ");
  return new JunctionError(
    "invalid-argument",
    `createMCPServer(): the skills from ${storage.origin} cannot be served: ${listed}. A skill is a folder with a SKILL.md whose frontmatter has its name (the folder's name) and description.`,
    { cause },
  );
}

/** Whether `value` is written to YAML as JSON and read back the same. */
function isJSONValue(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJSONValue);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isJSONValue);
}

function isStorage(skills: unknown): skills is MCPServerSkillStorage {
  return (
    typeof skills === "object" &&
    skills !== null &&
    !Array.isArray(skills) &&
    typeof (skills as MCPServerSkillStorage).files?.list === "function"
  );
}

function invalid(message: string): JunctionError {
  return new JunctionError("invalid-argument", `createMCPServer(): ${message}`);
}
