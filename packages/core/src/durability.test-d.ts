// Compile-time only (run by `pnpm type-check`): the JSON a journaled step returns and a signal
// carries (`JSONValue` here) is the JSON `@junction/types` declares for MCP's free-form fields, so
// values pass between the two without a cast. This file fails to compile the day they drift apart.
import type * as Types from "@junction/types";
import type { JSONValue } from "./durability.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type Checks = [Assert<Mutual<JSONValue, Types.JSONValue>>];
