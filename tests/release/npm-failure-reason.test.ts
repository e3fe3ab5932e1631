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

describe("npmFailureReason", () => {
  it("quotes the error after the code, not the .npmrc warning before it", () => {
    expect(npmFailureReason(whoamiWithoutLogin)).toEqual({
      code: "ENEEDAUTH",
      reason: "need auth This command requires you to be logged in.",
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
