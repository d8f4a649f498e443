import { describe, expect, it } from "vitest";
import { grantLine, refusedLine } from "./permissions";

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
});
