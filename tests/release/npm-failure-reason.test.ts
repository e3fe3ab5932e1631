// What `pnpm release` quotes when npm refuses: npm's error, never the warnings it prints first.
// The stderr below is what npm 11 printed here for `npm whoami` without a login, run in this
// repository (whose .npmrc holds pnpm's `auto-install-peers`, which npm warns about).
import { describe, expect, it } from "vitest";
import { npmFailureReason } from "../../scripts/release.ts";

const whoamiWithoutLogin = [
  'npm warn Unknown project config "auto-install-peers". This will stop working in the next major version of npm. See `npm help npmrc` for supported config options.',
  "npm error code ENEEDAUTH",
  "npm error need auth This command requires you to be logged in.",
  "npm error need auth You need to authorize this machine using `npm adduser`",
  "npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-01T21_54_27_323Z-debug-0.log",
  "",
].join("\n");

// What npm 11 printed here for `npm whoami` with a token, against a registry nobody listens on.
const whoamiUnreachable = [
  'npm warn Unknown project config "auto-install-peers". This will stop working in the next major version of npm. See `npm help npmrc` for supported config options.',
  "npm error code ECONNREFUSED",
  "npm error syscall connect",
  "npm error errno ECONNREFUSED",
  "npm error FetchError: request to http://127.0.0.1:9/-/whoami failed, reason: connect ECONNREFUSED 127.0.0.1:9",
  "npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)",
  "npm error     at process.processTicksAndRejections (node:internal/process/task_queues:91:21) {",
  "npm error   code: 'ECONNREFUSED',",
  "npm error   errno: 'ECONNREFUSED',",
  "npm error   port: 9,",
  "npm error   type: 'system'",
  "npm error }",
  "npm error",
  "npm error If you are behind a proxy, please make sure that the 'proxy' config is set properly.  See: 'npm help config'",
  "npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-02T13_08_03_210Z-debug-0.log",
  "",
].join("\n");

describe("npmFailureReason", () => {
  it("quotes the error after the code, not the .npmrc warning before it", () => {
    expect(npmFailureReason(whoamiWithoutLogin)).toEqual({
      code: "ENEEDAUTH",
      reason: "need auth This command requires you to be logged in.",
    });
  });

  it("quotes a network failure's sentence, not the error's fields, stack or proxy hint around it", () => {
    expect(npmFailureReason(whoamiUnreachable)).toEqual({
      code: "ECONNREFUSED",
      reason:
        "FetchError: request to http://127.0.0.1:9/-/whoami failed, reason: connect ECONNREFUSED 127.0.0.1:9",
    });
  });

  it("reads npm 6's `npm ERR!` lines", () => {
    expect(
      npmFailureReason(
        [
          "npm WARN config some warning",
          "npm ERR! code E401",
          'npm ERR! Unable to authenticate, need: Basic realm="registry"',
          "npm ERR! A complete log of this run can be found in:",
        ].join("\n"),
      ),
    ).toEqual({ code: "E401", reason: 'Unable to authenticate, need: Basic realm="registry"' });
  });

  it("without a code, the first error line", () => {
    expect(npmFailureReason("npm warn something\nnpm error request to http://127.0.0.1:1/ failed\n")).toEqual(
      {
        reason: "request to http://127.0.0.1:1/ failed",
      },
    );
  });

  it("without any npm error line, the last line that is not a warning, else no answer", () => {
    expect(npmFailureReason("npm warn a\nSegmentation fault\nnpm warn b\n")).toEqual({
      reason: "Segmentation fault",
    });
    expect(npmFailureReason('npm warn Unknown project config "auto-install-peers".\n')).toEqual({
      reason: "no answer",
    });
    expect(npmFailureReason("")).toEqual({ reason: "no answer" });
  });
});
