// server-sse-polling (SEP-1699): `test_reconnection` ends its call's SSE stream before it answers
// (`ctx.http.closeSSE`, there when the session has an event store, Junction's default), so the
// client has to resume the stream with `Last-Event-ID` to get the result.
import { z } from "zod";

export function registerReconnection(sdk) {
  sdk.registerTool(
    "test_reconnection",
    {
      description: "Closes its SSE stream mid-call; the result comes on the resumed stream",
      inputSchema: z.object({}),
    },
    async (_args, ctx) => {
      ctx.http?.closeSSE?.();
      return { content: [{ type: "text", text: "Reconnection test completed" }] };
    },
  );
}
