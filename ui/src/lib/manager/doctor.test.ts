import { describe, expect, it } from "vitest";
import { formatDoctor } from "./doctor";

describe("formatDoctor", () => {
  it("lists problems and each extension with its log", () => {
    const text = formatDoctor({
      ok: false,
      problems: ["bad: exited before hello"],
      extensions: [
        {
          name: "bad",
          scope: "global",
          state: "failed",
          error: "exited",
          log_path: "/l/ext-bad.log",
          log_tail: ["boom"],
        },
      ],
      interception: [{ event: "tool_call", chain: ["guard"] }],
      conflicts: [],
    });
    expect(text).toContain("✗ problems found");
    expect(text).toContain("bad (global) — failed");
    expect(text).toContain("log: /l/ext-bad.log");
    expect(text).toContain("| boom");
    expect(text).toContain("intercept tool_call: guard");
  });
  it("passes strings through", () => {
    expect(formatDoctor("plain")).toBe("plain");
  });
});
