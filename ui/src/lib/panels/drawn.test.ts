import { describe, expect, it } from "vitest";
import { MAX_DRAWN_CHARS, drawnSpans } from "./drawn";

describe("drawnSpans", () => {
  it("draws a short line whole", () => {
    expect(drawnSpans("\u001b[31mred\u001b[0m x")).toEqual([{ text: "red", fg: 1 }, { text: " x" }]);
  });

  it("draws at most MAX_DRAWN_CHARS characters of a megabyte line, keeping emoji whole", () => {
    const big = "😀" + "a".repeat(1 << 20);
    const spans = drawnSpans(big);
    const text = spans.map((s) => s.text).join("");
    expect([...text].length).toBe(MAX_DRAWN_CHARS);
    expect(text.startsWith("😀a")).toBe(true);
  });

  it("cuts across styled spans", () => {
    const line = "\u001b[1mab\u001b[0mcd".repeat(MAX_DRAWN_CHARS);
    const text = drawnSpans(line)
      .map((s) => s.text)
      .join("");
    expect(text.length).toBe(MAX_DRAWN_CHARS);
  });
});
