import { describe, expect, it } from "vitest";
import { DROPPED_MARKER, PARTIAL_KEPT, appendPartial, progressView } from "./toolprogress";

describe("progressView", () => {
  it("draws a bar when the total is known", () => {
    expect(progressView({ progress: 3, total: 12, message: "compiling", partial: "" })).toEqual({
      kind: "bar",
      fraction: 0.25,
      label: "compiling (3 / 12)",
    });
  });
  it("clamps odd numbers instead of drawing past the end", () => {
    expect(progressView({ progress: 20, total: 10, partial: "" })).toMatchObject({ fraction: 1 });
    expect(progressView({ progress: -4, total: 10, partial: "" })).toMatchObject({ fraction: 0 });
    expect(progressView({ progress: NaN, total: 10, partial: "" })).toMatchObject({ fraction: 0 });
  });
  it("shows a spinner with the last message without a usable total", () => {
    expect(progressView({ message: "waiting for the page", total: 0, partial: "" })).toEqual({
      kind: "spinner",
      label: "waiting for the page",
    });
    expect(progressView({ total: NaN, progress: Infinity, partial: "" })).toEqual({
      kind: "spinner",
      label: "working…",
    });
  });
});

describe("appendPartial", () => {
  it("appends in order", () => {
    expect(appendPartial(appendPartial("", "a\n"), "b\n")).toBe("a\nb\n");
  });
  it("keeps the newest output with a marker once over the cap", () => {
    let s = "";
    for (let i = 0; i < 40; i++) s = appendPartial(s, `${i}`.padEnd(16 * 1024, "x"));
    expect(s.length).toBe(PARTIAL_KEPT);
    expect(s.startsWith(DROPPED_MARKER)).toBe(true);
    expect(s.endsWith("x")).toBe(true);
    expect(s).toContain("39xxx");
    expect(s.indexOf(DROPPED_MARKER, 1)).toBe(-1);
  });
});
