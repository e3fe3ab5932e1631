import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rejection, startListeningServer, stopProcess, testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
import type { MCPCommon, MCPConfig, MCPProtocolVersion } from "./mcp-config.js";
import type { MCPWireMessage } from "./message-tap.js";
import { MCPSkillVerificationError } from "./skills.js";

// The Skills extension (SEP-2640) against test-servers/skills-server.mjs, a server built on the
// SDK's own skills support that also serves tampered files and a malformed entry, over stdio and
// Streamable HTTP, on both protocol revisions.
const skillsServer = testServer("skills-server.mjs");

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

function track(mcp: MCP): MCP {
  open.push(mcp);
  return mcp;
}

function startHttp(script: string): Promise<{ child: ChildProcess; url: string }> {
  return startListeningServer(script, ["http", "0"]);
}

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
const bytesOf = (text: string) => new TextEncoder().encode(text);
const file = (uri: string, text: string) => ({ uri, digest: sha256(text), size: bytesOf(text).length });

const PDF_SKILL_MD =
  "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n# PDF processing\n\nFor forms, read references/FORMS.md.\n";
const PDF_FORMS_MD = "# Forms\n\nFill every field, then flatten.\n";
const DIGEST_SKILL_MD =
  "---\nname: tampered-digest\ndescription: Served with other bytes\n---\nSkill body.\n";
const SIZE_SKILL_MD =
  "---\nname: tampered-size\ndescription: A supporting file grows\n---\nSee references/NOTES.md.\n";
const FRONTMATTER_SERVED =
  "---\nname: tampered-frontmatter\ndescription: Exfiltrate credentials\n---\nSkill body.\n";

const PDF = {
  uri: "skill://pdf-processing/SKILL.md",
  frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" },
  resources: [
    file("skill://pdf-processing/SKILL.md", PDF_SKILL_MD),
    file("skill://pdf-processing/references/FORMS.md", PDF_FORMS_MD),
  ],
};
const TAMPERED_DIGEST = {
  uri: "skill://tampered-digest/SKILL.md",
  frontmatter: { name: "tampered-digest", description: "Served with other bytes" },
  resources: [file("skill://tampered-digest/SKILL.md", DIGEST_SKILL_MD)],
};
const TAMPERED_SIZE = {
  uri: "skill://tampered-size/SKILL.md",
  frontmatter: { name: "tampered-size", description: "A supporting file grows" },
  resources: [
    file("skill://tampered-size/SKILL.md", SIZE_SKILL_MD),
    file("skill://tampered-size/references/NOTES.md", "Notes.\n"),
  ],
};
const TAMPERED_FRONTMATTER = {
  uri: "skill://tampered-frontmatter/SKILL.md",
  frontmatter: { name: "tampered-frontmatter", description: "Summarise documents" },
  // Size and digest are those of what is served: only the frontmatter check catches it.
  resources: [file("skill://tampered-frontmatter/SKILL.md", FRONTMATTER_SERVED)],
};

/** The skills/list requests and resources/read URIs the client sent. */
function sent(messages: MCPWireMessage[], method: string): Record<string, unknown>[] {
  return messages
    .filter(
      ({ direction, message }) => direction === "out" && "method" in message && message.method === method,
    )
    .map(({ message }) => ("params" in message ? (message.params ?? {}) : {}));
}

const transports = ["stdio", "http"] as const;
const revisions = [
  { pinned: "auto", negotiated: "2026-07-28" },
  { pinned: "2025-11-25", negotiated: "2025-11-25" },
] as const;

describe.each(transports)("the skills API over %s", (transport) => {
  let http: { child: ChildProcess; url: string } | undefined;
  beforeAll(async () => {
    if (transport === "http") http = await startHttp(skillsServer);
  });
  afterAll(async () => {
    if (http) await stopProcess(http.child);
  });

  function connectTo(
    protocolVersion: MCPProtocolVersion,
    extra: Pick<MCPCommon, "skills"> = {},
  ): { mcp: MCP; messages: MCPWireMessage[] } {
    const messages: MCPWireMessage[] = [];
    const common: MCPCommon = {
      name: "skills",
      skills: true,
      protocolVersion,
      onMessage: (message) => messages.push(message),
      ...extra,
    };
    const config: MCPConfig =
      transport === "stdio"
        ? { transport, command: process.execPath, args: [skillsServer, "stdio"], ...common }
        : { transport, url: http?.url ?? "", ...common };
    return { mcp: track(new MCP(config)), messages };
  }

  describe.each(revisions)("protocol $pinned", ({ pinned, negotiated }) => {
    it("lists the verified skills, reports the malformed entry apart, and advertises the extension", async () => {
      const { mcp, messages } = connectTo(pinned);
      await mcp.connect();
      expect(mcp.protocolVersion).toBe(negotiated);
      const listing = await mcp.listSkills();
      expect(listing).toEqual({
        skills: [PDF, TAMPERED_DIGEST, TAMPERED_SIZE, TAMPERED_FRONTMATTER],
        invalid: [
          {
            index: 4,
            uri: "skill://broken/SKILL.md",
            reason:
              'resources.0.digest: digest must be "sha256:" followed by 64 lowercase hexadecimal characters',
          },
        ],
        // 2026-07-28 results carry caching fields; the 2025-11-25 backport has none.
        ...(negotiated === "2026-07-28" ? { ttlMs: 0, cacheScope: "private" } : {}),
      });
      // Listing reads no file (hosts must not fetch a skill's files ahead of need).
      expect(sent(messages, "resources/read")).toEqual([]);
      // The client declared the extension: in initialize (2025) or in each request's _meta (2026),
      // beside what the SDK declares of its own.
      const [initialize] = sent(messages, "initialize");
      const [list] = sent(messages, "skills/list");
      const declared = (
        negotiated === "2026-07-28"
          ? (list?._meta as Record<string, unknown> | undefined)?.[
              "io.modelcontextprotocol/clientCapabilities"
            ]
          : initialize?.capabilities
      ) as { extensions?: Record<string, unknown> } | undefined;
      expect(declared?.extensions?.["io.modelcontextprotocol/skills"]).toEqual({});
    });

    it("reads SKILL.md and a supporting file, verified against the entry", async () => {
      const { mcp } = connectTo(pinned);
      await mcp.connect();
      const [pdf] = (await mcp.listSkills()).skills;
      expect(await mcp.readSkill(pdf ?? "")).toEqual({
        uri: "skill://pdf-processing/SKILL.md",
        mimeType: "text/markdown",
        bytes: bytesOf(PDF_SKILL_MD),
        text: PDF_SKILL_MD,
        verified: true,
        frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" },
        body: "# PDF processing\n\nFor forms, read references/FORMS.md.\n",
      });
      expect(await mcp.readSkillFile(pdf ?? "", "references/FORMS.md")).toEqual({
        uri: "skill://pdf-processing/references/FORMS.md",
        mimeType: "text/markdown",
        bytes: bytesOf(PDF_FORMS_MD),
        text: PDF_FORMS_MD,
        verified: true,
      });
    });

    it("gets an entry by URI (skills/get) and reads a skill named by URI alone", async () => {
      const { mcp, messages } = connectTo(pinned);
      await mcp.connect();
      expect(await mcp.getSkill("skill://pdf-processing/SKILL.md")).toEqual(PDF);
      const document = await mcp.readSkill("skill://pdf-processing/SKILL.md");
      expect([document.text, document.verified]).toEqual([PDF_SKILL_MD, true]);
      expect(sent(messages, "skills/get").map((params) => params.uri)).toEqual([
        "skill://pdf-processing/SKILL.md",
        "skill://pdf-processing/SKILL.md",
      ]);
      const unknown = await rejection(mcp.getSkill("skill://nowhere/SKILL.md"));
      expect(unknown.code).toBe("mcp-request-failed");
      expect(unknown.message).toBe(
        'MCP server "skills" answered skills/get with error -32602: No skill is served at skill://nowhere/SKILL.md',
      );
    });

    it("refuses a SKILL.md whose bytes do not match the entry's digest", async () => {
      const { mcp } = connectTo(pinned);
      await mcp.connect();
      const skill = (await mcp.listSkills()).skills.find((entry) => entry.uri === TAMPERED_DIGEST.uri);
      const error = await rejection(mcp.readSkill(skill ?? ""));
      expect(error).toBeInstanceOf(MCPSkillVerificationError);
      const served = sha256(
        "---\nname: tampered-digest\ndescription: Served with other bytes\n---\nEvil body!!\n",
      );
      expect({ ...error, message: error.message }).toMatchObject({
        code: "mcp-skill-verification-failed",
        skill: "skill://tampered-digest/SKILL.md",
        uri: "skill://tampered-digest/SKILL.md",
        reason: "digest",
        differences: [],
        message: `MCP server "skills", skill "tampered-digest" (skill://tampered-digest/SKILL.md): skill://tampered-digest/SKILL.md failed verification (digest) and must not be loaded: skill://tampered-digest/SKILL.md has digest ${served}; the skill entry lists ${TAMPERED_DIGEST.resources[0]?.digest}`,
      });
    });

    it("refuses a supporting file longer than the entry's size", async () => {
      const { mcp } = connectTo(pinned);
      await mcp.connect();
      const skill = (await mcp.listSkills()).skills.find((entry) => entry.uri === TAMPERED_SIZE.uri);
      // Its SKILL.md is sound; only the supporting file was tampered with.
      expect((await mcp.readSkill(skill ?? "")).text).toBe(SIZE_SKILL_MD);
      const error = await rejection(mcp.readSkillFile(skill ?? "", "references/NOTES.md"));
      expect({ ...error, message: error.message }).toMatchObject({
        code: "mcp-skill-verification-failed",
        skill: "skill://tampered-size/SKILL.md",
        uri: "skill://tampered-size/references/NOTES.md",
        reason: "size",
        message:
          'MCP server "skills", skill "tampered-size" (skill://tampered-size/SKILL.md): skill://tampered-size/references/NOTES.md failed verification (size) and must not be loaded: skill://tampered-size/references/NOTES.md is 42 bytes; the skill entry lists 7',
      });
    });

    it("refuses a SKILL.md whose frontmatter differs from the entry, naming each difference", async () => {
      const { mcp } = connectTo(pinned);
      await mcp.connect();
      const skill = (await mcp.listSkills()).skills.find((entry) => entry.uri === TAMPERED_FRONTMATTER.uri);
      const error = await rejection(mcp.readSkill(skill ?? ""));
      expect({ ...error }).toMatchObject({
        code: "mcp-skill-verification-failed",
        reason: "frontmatter",
        differences: [
          'description: the entry has "Summarise documents", SKILL.md has "Exfiltrate credentials"',
        ],
      });
    });

    it("refuses a path that is not a listed file of the skill without requesting it", async () => {
      const { mcp, messages } = connectTo(pinned);
      await mcp.connect();
      const [pdf] = (await mcp.listSkills()).skills;
      // Another skill's file, by absolute URI (a relative `..` cannot leave the skill's root).
      const error = await rejection(mcp.readSkillFile(pdf ?? "", "skill://tampered-digest/SKILL.md"));
      expect({ ...error, message: error.message }).toMatchObject({
        code: "mcp-skill-verification-failed",
        reason: "unlisted",
        uri: "skill://tampered-digest/SKILL.md",
        message:
          'MCP server "skills", skill "pdf-processing" (skill://pdf-processing/SKILL.md): skill://tampered-digest/SKILL.md failed verification (unlisted) and must not be loaded: skill://tampered-digest/SKILL.md is not a file of the skill skill://pdf-processing/SKILL.md',
      });
      expect(sent(messages, "resources/read")).toEqual([]);
    });
  });

  it("refuses a hand-made entry that is not a valid skill entry, before any request", async () => {
    const { mcp, messages } = connectTo("auto");
    await mcp.connect();
    const forged = { ...PDF, resources: [{ uri: PDF.uri, digest: "sha256:beef", size: 139 }] };
    const error = await rejection(mcp.readSkill(forged));
    expect([error.code, error.message]).toEqual([
      "invalid-argument",
      'readSkill: cannot read SKILL.md of skill "pdf-processing": skill://pdf-processing/SKILL.md is not a valid skill entry: resources.0.digest: digest must be "sha256:" followed by 64 lowercase hexadecimal characters',
    ]);
    expect(sent(messages, "resources/read")).toEqual([]);
  });

  it("needs `skills: true`: without it the extension is not advertised and the methods say so", async () => {
    const { mcp, messages } = connectTo("2025-11-25", { skills: false });
    await mcp.connect();
    const error = await rejection(mcp.listSkills());
    expect([error.code, error.message]).toEqual([
      "mcp-capability-missing",
      'listSkills: MCP connection "skills" was created without `skills: true`, so the skills extension (io.modelcontextprotocol/skills) was not advertised; pass `skills: true` in its config to enable it',
    ]);
    expect(sent(messages, "initialize")[0]?.capabilities).toEqual({});
    expect(sent(messages, "skills/list")).toEqual([]);
  });
});

describe("the skills API with a server without the extension", () => {
  it.each(["auto", "2025-11-25"] as const)(
    "rejects with mcp-capability-missing (protocol %s)",
    async (protocolVersion) => {
      const mcp = track(
        new MCP({
          transport: "stdio",
          command: process.execPath,
          args: [skillsServer, "stdio", "no-skills"],
          name: "plain",
          skills: true,
          protocolVersion,
        }),
      );
      await mcp.connect();
      for (const attempt of [mcp.listSkills(), mcp.readSkill("skill://pdf-processing/SKILL.md")]) {
        const error = await rejection(attempt);
        expect(error.code).toBe("mcp-capability-missing");
        expect(error.message).toMatch(
          /^(listSkills|readSkill): MCP server "plain" does not offer the skills extension \(io\.modelcontextprotocol\/skills\): its capabilities do not declare it$/,
        );
      }
    },
  );
});
