import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCP, MCP_SKILLS_EXTENSION } from "@junction/mcp-client";
import { JunctionError } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMCPServer } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP, skillsDirectory } from "./node.js";
import type { MCPServerSkill } from "./serve-skills.js";

// Skills served by a Junction server (the Skills extension, SEP-2640), read by Junction's own
// client over real Streamable HTTP in both eras: the entries with sizes and digests, each file
// verified by the client against them.
const FORMS = "# Forms\n\nFill every field, then flatten.\n";
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
const PDF: MCPServerSkill = {
  name: "pdf-processing",
  description: "Extract, fill, and assemble PDF documents: use it for any PDF form.",
  instructions: "# PDF processing\n\nFor forms, read references/FORMS.md.\n",
  frontmatter: { license: "MIT", metadata: { author: "junction", "version-note": "1: first" } },
  files: { "references/FORMS.md": FORMS, "assets/logo.png": LOGO },
};
const NOTES: MCPServerSkill = {
  name: "notes",
  description: 'Keeps notes: "quoted", with a colon: and a # hash',
  instructions: "Write notes down.\n",
};

const sha256 = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

let running: RunningHTTPServer;
beforeAll(async () => {
  running = await serveHTTP(createMCPServer({ name: "skills", version: "1.0.0", skills: [PDF, NOTES] }));
});
afterAll(async () => {
  await running.close();
});

describe.each(["2026-07-28", "2025-11-25"] as const)(
  "inline skills over Streamable HTTP, %s",
  (protocolVersion) => {
    let mcp: MCP;
    beforeAll(async () => {
      mcp = new MCP({ transport: "http", url: running.url, protocolVersion, skills: true });
      await mcp.connect();
    });
    afterAll(async () => {
      await mcp.close();
    });

    it("declares the extension and lists every skill with its files' sizes and digests", async () => {
      expect(mcp.protocolVersion).toBe(protocolVersion);
      const listing = await mcp.listSkills();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((skill) => skill.uri)).toEqual([
        "skill://notes/SKILL.md",
        "skill://pdf-processing/SKILL.md",
      ]);
      const pdf = listing.skills[1];
      expect(pdf?.frontmatter).toEqual({
        name: PDF.name,
        description: PDF.description,
        license: "MIT",
        metadata: { author: "junction", "version-note": "1: first" },
      });
      expect(pdf?.resources).toContainEqual({
        uri: "skill://pdf-processing/references/FORMS.md",
        digest: sha256(FORMS),
        size: new TextEncoder().encode(FORMS).byteLength,
      });
      expect(pdf?.resources).toContainEqual({
        uri: "skill://pdf-processing/assets/logo.png",
        digest: sha256(LOGO),
        size: LOGO.byteLength,
      });
      expect(Array.isArray(pdf?.resources) && pdf.resources.map((file) => file.uri).sort()).toEqual([
        "skill://pdf-processing/SKILL.md",
        "skill://pdf-processing/assets/logo.png",
        "skill://pdf-processing/references/FORMS.md",
      ]);
    });

    it("serves SKILL.md whose frontmatter equals the entry's, verified by the client", async () => {
      const pdf = await mcp.readSkill("skill://pdf-processing/SKILL.md");
      expect(pdf.verified).toBe(true);
      expect(pdf.body).toBe(PDF.instructions);
      expect(pdf.frontmatter).toMatchObject({ name: PDF.name, license: "MIT" });
      // Quotes, colons and hashes in a description survive the YAML round trip.
      const notes = await mcp.readSkill("skill://notes/SKILL.md");
      expect(notes.frontmatter).toEqual({ name: "notes", description: NOTES.description });
      expect(notes.body).toBe(NOTES.instructions);
    });

    it("serves the other files, text and bytes, verified against the entry", async () => {
      const forms = await mcp.readSkillFile("skill://pdf-processing/SKILL.md", "references/FORMS.md");
      expect(forms).toMatchObject({ verified: true, text: FORMS, mimeType: "text/markdown" });
      const logo = await mcp.readSkillFile("skill://pdf-processing/SKILL.md", "assets/logo.png");
      expect(logo.verified).toBe(true);
      expect([...logo.bytes]).toEqual([...LOGO]);
    });

    it("lists each SKILL.md in resources/list, named and described from its frontmatter", async () => {
      const resources = await mcp.listResources();
      expect(resources).toContainEqual(
        expect.objectContaining({
          uri: "skill://pdf-processing/SKILL.md",
          name: PDF.name,
          description: PDF.description,
          mimeType: "text/markdown",
        }),
      );
    });

    it("answers skills/get for a skill it serves, and refuses one it does not", async () => {
      expect((await mcp.getSkill("skill://notes/SKILL.md")).frontmatter.name).toBe("notes");
      await expect(mcp.getSkill("skill://missing/SKILL.md")).rejects.toThrow(/No skill is served/);
    });
  },
);

describe("skills from a folder", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "junction-skills-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("serves each skill folder of the directory to Junction's client", async () => {
    const dir = join(root, "good");
    await mkdir(join(dir, "csv-cleaning", "scripts"), { recursive: true });
    const skillMD = "---\nname: csv-cleaning\ndescription: Cleans CSV files\n---\nRun scripts/clean.py.\n";
    await writeFile(join(dir, "csv-cleaning", "SKILL.md"), skillMD);
    await writeFile(join(dir, "csv-cleaning", "scripts", "clean.py"), "print('clean')\n");
    const served = await serveHTTP(
      createMCPServer({ name: "folder", version: "1.0.0", skills: skillsDirectory(dir) }),
    );
    const mcp = new MCP({ transport: "http", url: served.url, skills: true });
    try {
      await mcp.connect();
      const { skills } = await mcp.listSkills();
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://csv-cleaning/SKILL.md"]);
      expect((await mcp.readSkill(skills[0] ?? "")).text).toBe(skillMD);
      expect((await mcp.readSkillFile(skills[0] ?? "", "scripts/clean.py")).text).toBe("print('clean')\n");
    } finally {
      await mcp.close();
      await served.close();
    }
  });

  it("refuses a folder whose skill is broken, naming the file and the problem", async () => {
    const dir = join(root, "broken");
    await mkdir(join(dir, "wrong-name"), { recursive: true });
    await writeFile(
      join(dir, "wrong-name", "SKILL.md"),
      "---\nname: other-name\ndescription: D\n---\nBody\n",
    );
    const server = createMCPServer({ name: "folder", version: "1.0.0", skills: skillsDirectory(dir) });
    const refusal = server.createSDKServer();
    await expect(refusal).rejects.toThrow(JunctionError);
    await expect(refusal).rejects.toThrow(/wrong-name\/SKILL\.md: frontmatter name "other-name" must match/);
  });

  it("refuses a skill that holds a symbolic link, which would serve a file from elsewhere", async () => {
    const dir = join(root, "linked");
    await mkdir(join(dir, "linker"), { recursive: true });
    await writeFile(join(dir, "linker", "SKILL.md"), "---\nname: linker\ndescription: D\n---\nBody\n");
    await writeFile(join(root, "secret.txt"), "secret\n");
    await symlink(join(root, "secret.txt"), join(dir, "linker", "notes.txt"));
    const server = createMCPServer({ name: "folder", version: "1.0.0", skills: skillsDirectory(dir) });
    await expect(server.createSDKServer()).rejects.toThrow(
      /linker\/notes\.txt: symlinks and other special files are not followed/,
    );
  });

  it("refuses a folder with no skill in it", async () => {
    const dir = join(root, "empty");
    await mkdir(dir, { recursive: true });
    const server = createMCPServer({ name: "folder", version: "1.0.0", skills: skillsDirectory(dir) });
    await expect(server.createSDKServer()).rejects.toThrow(/no skills found/);
  });
});

describe("skill definitions are checked at createMCPServer()", () => {
  const make = (skills: unknown) =>
    createMCPServer({ name: "s", version: "1", skills: skills as MCPServerSkill[] });

  it.each([
    [
      "a name that breaks the naming rule",
      [{ ...NOTES, name: "Notes" }],
      /skills\[0\]\.name "Notes" is not a skill name/,
    ],
    ["a name with a double hyphen", [{ ...NOTES, name: "my--notes" }], /is not a skill name/],
    ["two skills of one name", [NOTES, NOTES], /two skills are named "notes"/],
    [
      "an empty description",
      [{ ...NOTES, description: " " }],
      /skill "notes": `description` must be a string of 1 to 1024/,
    ],
    ["no instructions", [{ name: "notes", description: "D" }], /`instructions` must be a string/],
    ["name in frontmatter", [{ ...NOTES, frontmatter: { name: "x" } }], /set `name` on the skill itself/],
    [
      "a frontmatter value that is not JSON data",
      [{ ...NOTES, frontmatter: { released: new Date(0) } }],
      /frontmatter field "released" must be JSON data/,
    ],
    [
      "a frontmatter number that JSON cannot write",
      [{ ...NOTES, frontmatter: { weight: Number.NaN } }],
      /frontmatter field "weight" must be JSON data/,
    ],
    [
      "metadata of non-strings",
      [{ ...NOTES, frontmatter: { metadata: { a: 1 } } }],
      /`metadata` must map strings to strings/,
    ],
    [
      "a path leaving the folder",
      [{ ...NOTES, files: { "../x.md": "x" } }],
      /file path "\.\.\/x\.md" must be relative/,
    ],
    ["an absolute path", [{ ...NOTES, files: { "/etc/x": "x" } }], /must be relative/],
    ["a hidden file", [{ ...NOTES, files: { ".env": "x" } }], /names a hidden file/],
    ["SKILL.md among the files", [{ ...NOTES, files: { "SKILL.md": "x" } }], /must not hold SKILL\.md/],
    [
      "content that is neither text nor bytes",
      [{ ...NOTES, files: { "a.json": { a: 1 } } }],
      /must be a string or a Uint8Array/,
    ],
    ["not an array", { name: "notes" }, /`skills` must be an array of skills/],
  ])("refuses %s", (_case, skills, message) => {
    expect(() => make(skills)).toThrow(JunctionError);
    expect(() => make(skills)).toThrow(message);
  });

  it("refuses a resource named like the skills' own resource", () => {
    expect(() =>
      createMCPServer({
        name: "s",
        version: "1",
        skills: [NOTES],
        resources: [{ uri: "x://y", name: MCP_SKILLS_EXTENSION, read: () => ({ contents: [] }) }],
      }),
    ).toThrow(/is named "io\.modelcontextprotocol\/skills"/);
  });

  it("serves no skills, and declares the extension, for an empty list", async () => {
    const server = createMCPServer({ name: "s", version: "1", skills: [] });
    const sdk = await server.createSDKServer({ era: "modern" });
    expect(sdk.server.getCapabilities().extensions).toEqual({
      [MCP_SKILLS_EXTENSION]: { directoryRead: true },
    });
  });
});
