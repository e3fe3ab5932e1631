// The program as a Cloudflare Worker (a module worker for workerd): each request runs it with the
// options in its `options` query parameter and answers with its outcome as JSON.
import { runProgram } from "./program.mjs";

export default {
  async fetch(request) {
    const options = JSON.parse(new URL(request.url).searchParams.get("options") ?? "{}");
    try {
      return Response.json(await runProgram(options));
    } catch (error) {
      return Response.json({ failed: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
