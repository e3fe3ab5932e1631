#!/usr/bin/env node
// A stdio server whose revision is chosen when it starts: the file named by ERA_FILE says
// "modern" (run modern-server.mjs, 2026-07-28 only) or anything else (run crash-server.mjs, 2025).
// The same command line can so be a legacy server once and a modern one after a restart, as a
// server upgraded in place would be.
import { readFileSync } from "node:fs";

const era = process.env.ERA_FILE ? readFileSync(process.env.ERA_FILE, "utf8").trim() : "legacy";
if (era === "modern") {
  process.argv.splice(2, process.argv.length - 2, "stdio");
  await import("./modern-server.mjs");
} else {
  await import("./crash-server.mjs");
}
