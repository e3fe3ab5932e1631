// The package's stdio entry as a client spawns it: built dist, real stdin/stdout.
import { tool } from "@junction/core";
import { z } from "zod";
import { createMCPServer } from "../dist/index.js";
import { serveStdio } from "../dist/stdio.js";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

serveStdio(
  createMCPServer({
    name: "stdio-fixture",
    version: "1.0.0",
    tools: [
      tool({
        name: "add",
        description: "Adds two numbers",
        schema: z.object({ a: z.number(), b: z.number() }),
        execute: async ({ a, b }) => String(a + b),
      }),
      tool({
        name: "picture",
        description: "An image and a resource link",
        schema: z.object({}),
        execute: async () => [
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "resource_link", uri: "notes://2", name: "second note" },
        ],
      }),
      tool({
        name: "count",
        description: "Reports progress twice",
        schema: z.object({}),
        execute: async (_input, context) => {
          context?.onProgress?.({ progress: 1, total: 2 });
          context?.onProgress?.({ progress: 2, total: 2 });
          return "counted";
        },
      }),
    ],
  }),
  { onError: (error) => process.stderr.write(`${error.message}\n`) },
);
