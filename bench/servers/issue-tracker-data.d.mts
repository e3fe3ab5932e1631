// Types of issue-tracker-data.mjs, for the bench's TypeScript.
export const TODAY: string;
export interface TrackerIssue {
  number: number;
  title: string;
  state: "open" | "closed";
  labels: string[];
  author: string;
  assignee: string | null;
  created_at: string;
  updated_at: string;
  body: string;
  comments: { id: number; author: string; body: string }[];
}
export function trackerIssues(count?: number): TrackerIssue[];
