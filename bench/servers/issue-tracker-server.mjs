#!/usr/bin/env node
// A fake issue tracker served over stdio, for the code-mode bench's fan-out tasks: 40 issues
// (issue-tracker-data.mjs) kept in memory, read and changed through tools shaped like a real
// tracker's MCP server (GitHub's: list, get, search, label, comment, close). Each process starts
// from the same issues, so every run of a task sees the same tracker.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { trackerIssues } from "./issue-tracker-data.mjs";

const issues = trackerIssues();
const server = new McpServer({ name: "bench-issue-tracker", version: "1.0.0" });

const json = (value) => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }] });
const failure = (text) => ({ content: [{ type: "text", text }], isError: true });
const find = (number) => issues.find((issue) => issue.number === number);
const listed = ({ comments, ...issue }) => ({ ...issue, comments: comments.length });
const READ = { readOnlyHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

server.registerTool(
  "list_issues",
  {
    description: "Lists issues, newest first, with their bodies (not their comments). Paged.",
    inputSchema: {
      state: z.enum(["open", "closed", "all"]).optional().describe("Default: open"),
      label: z.string().optional().describe("Only issues with this label"),
      per_page: z.number().int().min(1).max(100).optional().describe("Default: 30"),
      page: z.number().int().min(1).optional().describe("Default: 1"),
    },
    annotations: READ,
  },
  async ({ state = "open", label, per_page = 30, page = 1 }) => {
    const matching = issues
      .filter((issue) => state === "all" || issue.state === state)
      .filter((issue) => label === undefined || issue.labels.includes(label))
      .sort((a, b) => b.number - a.number);
    return json(matching.slice((page - 1) * per_page, page * per_page).map(listed));
  },
);

server.registerTool(
  "get_issue",
  {
    description: "One issue with its comments.",
    inputSchema: { number: z.number().int() },
    annotations: READ,
  },
  async ({ number }) => {
    const issue = find(number);
    return issue ? json(issue) : failure(`No issue #${number}.`);
  },
);

server.registerTool(
  "search_issues",
  {
    description: "Finds issues whose title or body contains every word of the query.",
    inputSchema: { query: z.string() },
    annotations: READ,
  },
  async ({ query }) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = issues.filter((issue) =>
      words.every((word) => `${issue.title} ${issue.body}`.toLowerCase().includes(word)),
    );
    return json(hits.map(({ number, title, state }) => ({ number, title, state })));
  },
);

server.registerTool(
  "add_labels",
  {
    description: "Adds labels to an issue; returns its labels.",
    inputSchema: { number: z.number().int(), labels: z.array(z.string()).min(1) },
    annotations: WRITE,
  },
  async ({ number, labels }) => {
    const issue = find(number);
    if (!issue) return failure(`No issue #${number}.`);
    issue.labels = [...new Set([...issue.labels, ...labels])];
    return json({ number, labels: issue.labels });
  },
);

server.registerTool(
  "remove_label",
  {
    description: "Removes a label from an issue; returns its labels.",
    inputSchema: { number: z.number().int(), label: z.string() },
    annotations: WRITE,
  },
  async ({ number, label }) => {
    const issue = find(number);
    if (!issue) return failure(`No issue #${number}.`);
    issue.labels = issue.labels.filter((name) => name !== label);
    return json({ number, labels: issue.labels });
  },
);

server.registerTool(
  "comment_on_issue",
  {
    description: "Adds a comment to an issue.",
    inputSchema: { number: z.number().int(), body: z.string() },
    annotations: { ...WRITE, idempotentHint: false },
  },
  async ({ number, body }) => {
    const issue = find(number);
    if (!issue) return failure(`No issue #${number}.`);
    const comment = { id: number * 100 + issue.comments.length + 1, author: "bench-agent", body };
    issue.comments.push(comment);
    return json({ number, comment: comment.id });
  },
);

server.registerTool(
  "close_issue",
  {
    description: "Closes an issue.",
    inputSchema: { number: z.number().int(), reason: z.enum(["completed", "not_planned"]).optional() },
    annotations: WRITE,
  },
  async ({ number }) => {
    const issue = find(number);
    if (!issue) return failure(`No issue #${number}.`);
    issue.state = "closed";
    return json({ number, state: issue.state });
  },
);

await server.connect(new StdioServerTransport());
