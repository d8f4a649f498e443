import { describe, expect, it } from "vitest";
import { focusLines, scrollToShow, shouldFollow } from "./follow";

// The todo example's panel, as it draws itself.
const todo = (n: number, cursor: number) =>
  Array.from({ length: n }, (_, i) => `${i === cursor ? "▸" : " "} □ item ${i}`);

describe("focusLines", () => {
  it("finds todo's cursor (▸) and, while it edits, its input line (▏)", () => {
    expect(focusLines(todo(20, 7))).toEqual({ cursor: 7, input: null });
    expect(focusLines([...todo(20, 7), "", "edit: item 7▏"])).toEqual({ cursor: 7, input: 21 });
    // Adding: todo hides the pointer; only the input line is marked.
    expect(focusLines([...todo(20, -1), "", "new: milk▏"])).toEqual({ cursor: null, input: 21 });
  });

  it("knows the usual pointers and reverse video, after indentation and SGR codes", () => {
    expect(focusLines(["a", "  ❯ b"]).cursor).toBe(1);
    expect(focusLines(["a", "> b", "> c"]).cursor).toBe(1);
    expect(focusLines(["a", "\u001b[1m▶\u001b[0m b"]).cursor).toBe(1);
    expect(focusLines(["a", "b", "\u001b[7m c \u001b[0m"]).cursor).toBe(2);
    expect(focusLines(["type here █  "]).input).toBe(0);
    expect(focusLines(["type here \u001b[2m▏\u001b[0m"]).input).toBe(0);
  });

  it("does not take ordinary text for a cursor or a caret", () => {
    expect(focusLines(["a > b", ">>> prompt", "→", "progress [███   ]", "│ table │", "->x"])).toEqual({
      cursor: null,
      input: null,
    });
    expect(focusLines([])).toEqual({ cursor: null, input: null });
  });
});

describe("scrollToShow", () => {
  // 20 px lines in a 100 px view (five lines), content padded by 4 px.
  const show = (top: number, rows: number[]) => scrollToShow(top, 100, 20, rows, 4);

  it("leaves a view that already shows the rows alone", () => {
    expect(show(0, [0, 3])).toBe(0);
    expect(show(200, [10])).toBe(200);
  });

  it("scrolls down just enough to show a row below the view", () => {
    // Row 12 spans 244..264: the view's bottom must reach 264.
    expect(show(0, [12])).toBe(164);
  });

  it("scrolls up just enough to show a row above the view", () => {
    expect(show(300, [2])).toBe(44);
  });

  it("lets the later row (the input line) win when both cannot be on screen", () => {
    expect(show(0, [1, 30])).toBe(4 + 31 * 20 - 100);
    // Both fit: the cursor stays in view with the input line.
    expect(show(0, [8, 10])).toBe(124);
  });

  it("never goes above the top", () => {
    expect(scrollToShow(3, 100, 20, [0])).toBe(0);
  });
});

describe("shouldFollow", () => {
  const a = todo(20, 3);
  const b = todo(20, 4);

  it("follows a render that answers a key, or that moves or changes a focus line", () => {
    expect(shouldFollow(true, focusLines(a), focusLines(a), a, a)).toBe(true);
    expect(shouldFollow(false, focusLines(a), focusLines(b), a, b)).toBe(true);
    const edited = [...a, "", "new: x▏"];
    const typed = [...a, "", "new: xy▏"];
    expect(shouldFollow(false, focusLines(edited), focusLines(typed), edited, typed)).toBe(true);
  });

  it("leaves alone a view scrolled by hand when a render changes something else", () => {
    const ticked = [...a];
    ticked[15] = "  □ item 15 (updated)";
    expect(shouldFollow(false, focusLines(a), focusLines(ticked), a, ticked)).toBe(false);
  });
});
