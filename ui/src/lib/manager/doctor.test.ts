import { describe, expect, it } from "vitest";
import { formatDoctor, stateLabel } from "./doctor";

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

describe("tolerated behaviour and slow starts", () => {
  it("lists what an extension relies on that zot only tolerates", () => {
    const text = formatDoctor({
      ok: true,
      extensions: [{ name: "jev", scope: "global", state: "ready", tolerated: ["notify level 'warning'"] }],
    });
    expect(text).toContain("tolerated (works, but fix it; see docs/compat.md): notify level 'warning'");
  });
  it("shows a loading extension's elapsed start time, ticking from when it was listed", () => {
    expect(stateLabel({ state: "ready" }, 0)).toBe("ready");
    expect(stateLabel({ state: "loading" }, 5000)).toBe("loading");
    expect(stateLabel({ state: "loading", starting_ms: 300 }, 0)).toBe("starting…");
    expect(stateLabel({ state: "loading", starting_ms: 12_400 }, 1_700)).toBe("starting… 14 s");
  });
});
