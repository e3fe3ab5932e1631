// Compile-time only (run by `pnpm type-check`): `miniLM()` declares an interface of its own
// (`MiniLMEmbedder`: the function and its cache, warm-up and stats), and is meant as core's
// `Embedder` (`@junction/types`) and a tool search's `embed` as it is, without a cast. This file
// fails to compile the day the two drift apart.
import type { ToolSearchOptions } from "@junction/core";
import type { Embedder } from "@junction/types";
import { type MiniLMEmbedder, miniLM } from "./index.js";

/** What core's tool search calls. */
export const embed: Embedder = miniLM();

/** As an Agent's `toolSearch: { embed }`. */
export const search: ToolSearchOptions = { embed: miniLM() };

declare const made: MiniLMEmbedder;

/** Its own interface, wherever one was kept typed as that. */
export const asEmbedder: Embedder = made;
