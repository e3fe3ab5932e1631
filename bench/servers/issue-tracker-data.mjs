// The issue tracker's issues: 40 of them, generated from a fixed seed (fixture-text.mjs), with
// a fixed "today" so which issues are stale never depends on when the bench runs.
import { paragraph, seededRandom, sentence } from "./fixture-text.mjs";

/** The tracker's today: every `updated_at` is counted back from it. */
export const TODAY = "2026-09-01T00:00:00Z";

const LABELS = ["bug", "feature", "docs", "performance", "security", "question"];
const PEOPLE = ["amara", "bo", "chen", "dara", "eitan", "fatima", "goran", "hana"];
const DAY_MS = 24 * 3600 * 1000;

/** Issues #1–#40: title, state, labels, author, dates, a body of 1–3 paragraphs, 0–6 comments. */
export function trackerIssues(count = 40) {
  const random = seededRandom(35);
  const today = Date.parse(TODAY);
  return Array.from({ length: count }, (_, index) => {
    const number = index + 1;
    const pick = (list) => list[Math.floor(random() * list.length)];
    const ageDays = 5 + Math.floor(random() * 400);
    const idleDays = Math.floor(random() * Math.min(ageDays, 240));
    const labelCount = 1 + Math.floor(random() * 2);
    const labels = [...new Set(Array.from({ length: labelCount }, () => pick(LABELS)))];
    const comments = Array.from({ length: Math.floor(random() * 7) }, (_, c) => ({
      id: number * 100 + c + 1,
      author: pick(PEOPLE),
      body:
        random() < 0.2
          ? `Fixed in #${100 + Math.floor(random() * 300)}. ${sentence(random)}`
          : paragraph(random, 1, 3),
    }));
    return {
      number,
      title: sentence(random).replace(/\.$/, "").slice(0, 80),
      state: random() < 0.7 ? "open" : "closed",
      labels,
      author: pick(PEOPLE),
      assignee: random() < 0.5 ? pick(PEOPLE) : null,
      created_at: new Date(today - ageDays * DAY_MS).toISOString(),
      updated_at: new Date(today - idleDays * DAY_MS).toISOString(),
      body: Array.from({ length: 1 + Math.floor(random() * 3) }, () => paragraph(random)).join("\n\n"),
      comments,
    };
  });
}
