import { describe, expect, it } from "vitest";
import {
  cellWidth,
  colAtCell,
  colAtX,
  plainText,
  rowAt,
  scalarIndex,
  scalarLength,
  utf16Offset,
} from "./pointer";

describe("plainText", () => {
  it("removes SGR and keeps other escapes as one picture per control", () => {
    expect(plainText("\u001b[1;31m□\u001b[0m ship")).toBe("□ ship");
    expect(scalarLength(plainText("a\u001b[2Jb"))).toBe(scalarLength("a\u001b[2Jb"));
  });
});

describe("scalar indices", () => {
  it("count an emoji (a surrogate pair) once", () => {
    const s = "a😀b";
    expect(scalarLength(s)).toBe(3);
    expect(scalarIndex(s, 0)).toBe(0);
    expect(scalarIndex(s, 1)).toBe(1);
    expect(scalarIndex(s, 2)).toBe(1); // inside the pair: still the emoji
    expect(scalarIndex(s, 3)).toBe(2);
    expect(scalarIndex(s, 4)).toBe(3); // past the end: the length
    expect(utf16Offset(s, 2)).toBe(3);
    expect(utf16Offset(s, 9)).toBe(4);
  });
});

describe("colAtCell", () => {
  it("says col 2 for the 3rd character of '□ ship', SGR or not", () => {
    expect(colAtCell("□ ship", 2)).toBe(2);
    expect(colAtCell("\u001b[32m□\u001b[0m \u001b[1mship\u001b[22m", 2)).toBe(2);
  });

  it("gives a wide character both of its cells", () => {
    expect(cellWidth("漢")).toBe(2);
    expect(colAtCell("漢字ab", 0)).toBe(0);
    expect(colAtCell("漢字ab", 1)).toBe(0);
    expect(colAtCell("漢字ab", 2)).toBe(1);
    expect(colAtCell("漢字ab", 4)).toBe(2);
    expect(colAtCell("漢字ab", 5)).toBe(3);
  });

  it("counts an emoji as one character over two cells", () => {
    expect(cellWidth("😀")).toBe(2);
    expect(colAtCell("😀x", 1)).toBe(0);
    expect(colAtCell("😀x", 2)).toBe(1);
  });

  it("gives the line's length past its end", () => {
    expect(colAtCell("ab", 7)).toBe(2);
    expect(colAtCell("\u001b[31mab\u001b[0m", 7)).toBe(2);
    expect(colAtCell("", 0)).toBe(0);
  });
});

describe("colAtX", () => {
  // Drawn glyphs of uneven widths, as a fallback font draws a wide one.
  const widths = [7, 7, 13, 7];
  const lefts = widths.map((_, i) => widths.slice(0, i).reduce((a, b) => a + b, 10));
  const edge = (i: number) => ({ left: lefts[i], right: lefts[i] + widths[i] });

  it("finds the character whose box holds x", () => {
    expect(colAtX(10, 4, edge, 4)).toBe(0);
    expect(colAtX(16.9, 4, edge, 4)).toBe(0);
    expect(colAtX(17, 4, edge, 4)).toBe(1);
    expect(colAtX(30, 4, edge, 4)).toBe(2);
    expect(colAtX(37, 4, edge, 4)).toBe(3);
  });

  it("left of the first character is col 0; past the last, the whole length", () => {
    expect(colAtX(2, 4, edge, 4)).toBe(0);
    expect(colAtX(44, 4, edge, 4)).toBe(4);
    expect(colAtX(44, 4, edge, 100000)).toBe(100000);
    expect(colAtX(5, 0, edge, 0)).toBe(0);
  });
});

describe("rowAt", () => {
  it("maps y to a line, none in the top padding or below the last line", () => {
    expect(rowAt(4, 20, 4, 3)).toBe(0);
    expect(rowAt(23.9, 20, 4, 3)).toBe(0);
    expect(rowAt(24, 20, 4, 3)).toBe(1);
    expect(rowAt(63.9, 20, 4, 3)).toBe(2);
    expect(rowAt(64, 20, 4, 3)).toBeNull();
    expect(rowAt(2, 20, 4, 3)).toBeNull();
  });
});
