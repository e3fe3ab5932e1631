import { describe, expect, it } from "vitest";
import * as dbos from "./index.js";

describe("@junction/dbos's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(dbos).sort()).toEqual([
      "answerApproval",
      "approvalStatus",
      "claimExecutor",
      "dbosAgentRuns",
      "dbosAgentWorkflow",
      "dbosDurability",
      "dbosWorkflow",
      "pendingApprovals",
      "recoverRunsOf",
      "sendSignal",
      "waitForApprovals",
    ]);
  });
});
