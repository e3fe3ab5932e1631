// The skills the conformance server serves (the Skills extension, SEP-2640: scenarios
// sep-2640-skills-enumeration, -manifest and -directory): one skill with a subfolder, so that
// `resources/directory/read` has a folder inside a skill to list, and one with frontmatter
// beyond name and description.
export const skills = [
  {
    name: "pdf-processing",
    description: "Extract, fill, and assemble PDF documents",
    instructions: "# PDF processing\n\nFor forms, read references/FORMS.md.\n",
    files: { "references/FORMS.md": "# Forms\n\nFill every field, then flatten.\n" },
  },
  {
    name: "release-notes",
    description: "Writes release notes from a list of merged changes",
    instructions: "Group the changes by package, newest first.\n",
    frontmatter: { license: "MIT", metadata: { owner: "junction" } },
  },
];
