import { describe, expect, it } from "vitest";
import { approvalView, cardKey, foldLine, lineDiff } from "./approval";

describe("approvalView", () => {
  it("shows bash's exact command, chained parts and all", () => {
    expect(approvalView("bash", { command: "git status; rm -rf ~" })).toEqual({
      kind: "command",
      command: "git status; rm -rf ~",
    });
  });

  it("diffs a write against the file's current text", () => {
    const v = approvalView("write", { path: "/tmp/a", content: "one\nTWO\nthree\n" }, "one\ntwo\nthree\n");
    expect(v.kind).toBe("diff");
    if (v.kind !== "diff") return;
    expect(v.path).toBe("/tmp/a");
    expect(v.lines).toEqual([
      { op: " ", text: "one" },
      { op: "-", text: "two" },
      { op: "+", text: "TWO" },
      { op: " ", text: "three" },
    ]);
    expect(v.note).toBeUndefined();
  });

  it("shows a new file as all added, and says so", () => {
    const v = approvalView("write", { path: "n.txt", content: "a\nb" });
    expect(v.kind === "diff" && v.lines.every((l) => l.op === "+")).toBe(true);
    expect(v.kind === "diff" && v.note).toContain("new file");
  });

  it("diffs an edit in its file, or just the replaced text", () => {
    const v = approvalView("edit", { path: "f", old_string: "b", new_string: "B" }, "a\nb\nc\n");
    expect(v.kind === "diff" && v.lines.filter((l) => l.op !== " ")).toEqual([
      { op: "-", text: "b" },
      { op: "+", text: "B" },
    ]);
    const w = approvalView("edit", { path: "f", old_string: "x$&", new_string: "y" });
    expect(w.kind === "diff" && w.note).toContain("replaced text");
  });

  it("shows an extension tool's arguments, even if it is called bash", () => {
    expect(approvalView("bash", { command: "x" }, undefined, "ext").kind).toBe("args");
  });

  it("folds long unchanged stretches around a change", () => {
    const before = Array.from({ length: 40 }, (_, i) => `l${i}`).join("\n") + "\n";
    const after = before.replace("l20\n", "L20\n");
    const lines = lineDiff(before, after);
    expect(lines.length).toBeLessThan(12);
    expect(lines[0]).toEqual({ op: " ", text: "…" });
    expect(lines.some((l) => l.op === "+" && l.text === "L20")).toBe(true);
  });
});

describe("cardKey", () => {
  const k = (key: string, mods: Partial<{ ctrl: boolean; meta: boolean; alt: boolean }> = {}) => ({
    key,
    ctrlKey: !!mods.ctrl,
    metaKey: !!mods.meta,
    altKey: !!mods.alt,
  });

  it("allows once with Enter or Y and denies with Escape or N", () => {
    expect(cardKey(k("Enter"), false)).toBe("allow");
    expect(cardKey(k("y"), false)).toBe("allow");
    expect(cardKey(k("Y"), true)).toBe("allow");
    expect(cardKey(k("Escape"), true)).toBe("deny");
    expect(cardKey(k("n"), false)).toBe("deny");
  });

  it("has no key that always allows, and leaves Enter on a button to the button", () => {
    // Every answer a key can give is once-only: the "a" the card used to
    // take for "always allow" is now nothing.
    for (const key of ["a", "A", "r", " ", "Tab", "ArrowDown"])
      for (const onButton of [false, true]) expect(cardKey(k(key), onButton)).toBeNull();
    expect(cardKey(k("Enter"), true)).toBeNull();
    expect(cardKey(k("y", { ctrl: true }), false)).toBeNull();
    expect(cardKey({ ...k("y"), isComposing: true }, false)).toBeNull();
  });
});

describe("foldLine", () => {
  const at = new Date(2026, 11, 3, 9, 5).getTime();
  it("says the decision, who made it and when", () => {
    expect(foldLine({ state: "allowed", at })).toEqual({ icon: "✓", text: "Allowed once by you at 09:05" });
    expect(foldLine({ state: "denied", at })).toEqual({ icon: "✗", text: "Denied by you at 09:05" });
    expect(foldLine({ state: "always", at, remember: 'the bash command "ls"' }).text).toBe(
      'Always allowed by you at 09:05: the bash command "ls"',
    );
    expect(foldLine({ state: "expired", at }).text).toBe("Not answered: the prompt ended at 09:05");
  });
});
