import { describe, expect, it } from "vitest";
import { annotationBadges } from "./tool-annotations.js";

// Issue 18, item 9: the inspector showed a tool's annotations as raw JSON.
describe("annotationBadges", () => {
  it("says each stated hint in words, and guesses none that was left out", () => {
    expect(
      annotationBadges({
        title: "Write file",
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: false,
      }).map((badge) => [badge.text, badge.tone]),
    ).toEqual([
      ["destructive", "warn"],
      ["closed world", "plain"],
    ]);
    expect(
      annotationBadges({ readOnlyHint: true, idempotentHint: true, openWorldHint: true }).map((b) => b.text),
    ).toEqual(["read-only", "idempotent", "open world"]);
    expect(annotationBadges({ destructiveHint: false }).map((badge) => badge.text)).toEqual(["additive"]);
    expect(annotationBadges({})).toEqual([]);
    expect(annotationBadges(undefined)).toEqual([]);
    expect(annotationBadges(["readOnlyHint"])).toEqual([]);
  });

  it("shows an unknown annotation, or a hint that is not a boolean, as cut text", () => {
    expect(
      annotationBadges({ readOnlyHint: "yes", vendorRisk: { level: 3 }, note: "x".repeat(100) }).map(
        (badge) => badge.text,
      ),
    ).toEqual(["readOnlyHint: yes", 'vendorRisk: {"level":3}', `note: ${"x".repeat(60)}…`]);
  });
});
