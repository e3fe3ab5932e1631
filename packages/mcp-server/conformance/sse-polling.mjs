// server-sse-polling (SEP-1699): `test_reconnection` ends its call's SSE stream before it answers
// (`servedContext(context).closeStream()`; the session keeps events, Junction's default), so the
// client has to resume the stream with `Last-Event-ID` to get the result.
import { tool } from "@junction/core";
import { z } from "zod";
import { servedContext } from "../dist/index.js";

export const reconnection = tool({
  name: "test_reconnection",
  description: "Closes its SSE stream mid-call; the result comes on the resumed stream",
  schema: z.object({}),
  execute: async (_input, context) => {
    servedContext(context)?.closeStream();
    return "Reconnection test completed";
  },
});
