// Deterministic text for the code-mode bench's fixtures: notes for the filesystem server and the
// issue tracker's issues and comments. The same seed gives the same text on every machine, so
// the bench (which scripts the model from it) and the server (which serves it) agree.

/** A seeded pseudo-random generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  "the build",
  "the release pipeline",
  "the cache layer",
  "the login page",
  "the search index",
  "the billing job",
  "the mobile client",
  "the API gateway",
  "the nightly export",
  "the config loader",
  "the retry logic",
  "the docs site",
  "the upload handler",
  "the metrics dashboard",
  "the database migration",
  "the feature flag service",
];
const VERBS = [
  "times out when",
  "needs a review before",
  "was rewritten so that",
  "fails intermittently after",
  "should log a warning when",
  "keeps a copy of the data until",
  "can skip the check if",
  "now waits for the lock before",
  "drops the request whenever",
  "reports the wrong count after",
];
const OBJECTS = [
  "the queue is full",
  "a user signs in twice",
  "the token expires",
  "two deploys overlap",
  "the disk is almost full",
  "the schema changes",
  "a worker restarts",
  "the region fails over",
  "the payload is larger than 1 MB",
  "the clock moves backwards",
  "a tenant is deleted",
  "the index is rebuilt",
];
const TAILS = [
  "",
  " We measured it twice on staging.",
  " The logs show the same stack trace each time.",
  " See the runbook for the manual steps.",
  " Nobody has picked this up yet.",
  " A fix was proposed in the last planning meeting.",
];

/** One sentence of plausible engineering prose. */
export function sentence(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const text = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)}.${pick(TAILS)}`;
  return text[0].toUpperCase() + text.slice(1);
}

/** A paragraph of `min`–`max` sentences. */
export function paragraph(random, min = 3, max = 6) {
  const count = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: count }, () => sentence(random)).join(" ");
}

const TOPICS = [
  "Release checklist",
  "On-call handbook",
  "Cache invalidation",
  "Login flow",
  "Search ranking",
  "Billing retries",
  "Mobile offline mode",
  "Gateway limits",
  "Nightly export",
  "Config layering",
  "Retry budgets",
  "Docs style guide",
  "Upload limits",
  "Dashboards",
  "Schema migrations",
  "Feature flags",
  "Incident review",
  "Backup restore drill",
  "Access reviews",
  "Quarterly planning",
];

/** The notes the filesystem server serves: `note-01.md` … `note-20.md`, a title and 4–7 paragraphs each. */
export function notes(count = 20) {
  const random = seededRandom(20_260_901);
  return Array.from({ length: count }, (_, index) => {
    const title = TOPICS[index % TOPICS.length];
    const paragraphs = 4 + Math.floor(random() * 4);
    const body = Array.from({ length: paragraphs }, () => paragraph(random)).join("\n\n");
    return { name: `note-${String(index + 1).padStart(2, "0")}.md`, text: `# ${title}\n\n${body}\n` };
  });
}
