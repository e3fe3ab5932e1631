import { Hono } from "hono";
import { appApprovalBody, appToolCallBody, openAppBody, previewAppBody } from "../../shared/api-bodies.js";
import { body, id, pathIds, type RouteKit } from "./route-kit.js";

/** `/api/servers/:id/apps`: a server's tools with an MCP App, and opening one (or a preview). */
export function serverAppsRoutes({ context: { apps }, answer, pageOf }: RouteKit): Hono {
  return new Hono()
    .get("/", id, (c) => answer(c, apps.list(c.req.valid("param").id)))
    .post("/", id, body(openAppBody), (c) =>
      answer(c, apps.open(c.req.valid("param").id, c.req.valid("json").tool, pageOf(c))),
    )
    .post("/preview", id, body(previewAppBody), (c) =>
      answer(c, apps.preview(c.req.valid("param").id, c.req.valid("json").uri, pageOf(c))),
    );
}

/** `/api/apps/:appId`: what an open app asks: its `tools/call`, and the answers to its approvals. */
export function openAppsRoutes({ context: { apps }, answer }: RouteKit): Hono {
  return new Hono()
    .post("/tools/call", pathIds("appId"), body(appToolCallBody), (c) => {
      const { name, arguments: input, progressId } = c.req.valid("json");
      return answer(
        c,
        apps.callTool(c.req.valid("param").appId, { name, input, ...(progressId ? { progressId } : {}) }),
      );
    })
    .post("/approvals/:approvalId", pathIds("appId", "approvalId"), body(appApprovalBody), (c) => {
      const { appId, approvalId } = c.req.valid("param");
      return answer(c, apps.answer(appId, approvalId, c.req.valid("json").approve));
    });
}
