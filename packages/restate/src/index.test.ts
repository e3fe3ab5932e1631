import { describe, expect, it } from "vitest";
import * as restate from "./index.js";

describe("@junction/restate's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(restate).sort()).toEqual([
      "RUN_INVOCATION_STATE",
      "answerApproval",
      "approvalStatus",
      "beginRun",
      "pendingApprovals",
      "promptRetryPolicy",
      "restateAgentRuns",
      "restateAgentWorkflow",
      "restateAnswerHandler",
      "restateAwaitPendingHandler",
      "restateCancelHandler",
      "restateDurability",
      "restatePendingHandler",
      "restateSignalHandler",
      "restateWorkflow",
      "sendSignal",
      "waitForApprovals",
    ]);
  });
});
