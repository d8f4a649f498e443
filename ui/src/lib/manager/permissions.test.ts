import { describe, expect, it } from "vitest";
import { changeLines, grantLine, needsReview, refusedLine } from "./permissions";

describe("permissions on a card", () => {
  it("says unrestricted plainly, and lists a grant", () => {
    expect(grantLine("unrestricted")).toMatch(/^unrestricted/);
    expect(grantLine(undefined)).toMatch(/^unrestricted/);
    expect(grantLine([])).toBe("none");
    expect(grantLine(["tools", "notes"])).toBe("tools, notes");
  });
  it("counts refusals per permission", () => {
    expect(refusedLine(undefined)).toBe("");
    expect(refusedLine({ submit: 3, notes: 1 })).toBe("submit 3, notes 1");
  });
  it("lists every change since the accept, in the host's words", () => {
    const widened = [
      { field: "sandbox", words: "runs without its OS sandbox" },
      { field: "permissions", words: "can submit prompts to the agent at any time" },
    ];
    expect(changeLines({ widened, unaccepted: ["submit"] })).toEqual([
      "runs without its OS sandbox",
      "can submit prompts to the agent at any time",
    ]);
    expect(changeLines({ unaccepted: ["submit"], unaccepted_words: ["can submit"] })).toEqual(["can submit"]);
    expect(needsReview({ widened })).toBe(true);
    expect(needsReview({})).toBe(false);
  });
});
