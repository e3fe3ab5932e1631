import { describeEverything } from "../test/everything-suite.js";
import { startEverythingHttp } from "../test/test-support.js";

let server: Awaited<ReturnType<typeof startEverythingHttp>> | undefined;

describeEverything(
  "Streamable HTTP",
  async () => {
    server = await startEverythingHttp();
    return { transport: "http", url: server.url, headers: { "x-test-client": "junction" } };
  },
  async () => server?.stop(),
);
