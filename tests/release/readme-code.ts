/** The ts and js code blocks of a README that import something: whole examples, not fragments. */
export function examplesIn(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:ts|js|typescript|javascript)\n([\s\S]*?)^```/gm)];
  return blocks.map((match) => match[1] ?? "").filter((code) => /^import\s/m.test(code));
}
