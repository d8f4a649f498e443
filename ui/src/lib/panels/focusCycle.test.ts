import { describe, expect, it } from "vitest";
import { cycleFocus } from "./focusCycle";

const editor = { kind: "editor" } as const;
const panel = (id: string) => ({ kind: "panel", id }) as const;

describe("cycleFocus", () => {
  it("goes editor → each panel in tab order → editor with F6", () => {
    const ids = ["a", "b"];
    expect(cycleFocus(ids, editor, 1)).toEqual(panel("a"));
    expect(cycleFocus(ids, panel("a"), 1)).toEqual(panel("b"));
    expect(cycleFocus(ids, panel("b"), 1)).toEqual(editor);
  });

  it("goes the other way with Shift+F6", () => {
    const ids = ["a", "b"];
    expect(cycleFocus(ids, editor, -1)).toEqual(panel("b"));
    expect(cycleFocus(ids, panel("b"), -1)).toEqual(panel("a"));
    expect(cycleFocus(ids, panel("a"), -1)).toEqual(editor);
  });

  it("toggles between the editor and a single panel", () => {
    expect(cycleFocus(["p"], editor, 1)).toEqual(panel("p"));
    expect(cycleFocus(["p"], panel("p"), 1)).toEqual(editor);
    expect(cycleFocus(["p"], panel("p"), -1)).toEqual(editor);
  });

  it("stays on the editor with no panel open", () => {
    expect(cycleFocus([], editor, 1)).toEqual(editor);
    expect(cycleFocus([], editor, -1)).toEqual(editor);
  });

  it("goes to the editor from outside the ring", () => {
    expect(cycleFocus(["a"], null, 1)).toEqual(editor);
    expect(cycleFocus(["a"], null, -1)).toEqual(editor);
  });

  it("counts a panel that closed meanwhile as the editor's place", () => {
    expect(cycleFocus(["a", "b"], panel("gone"), 1)).toEqual(panel("a"));
  });
});
