// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { collapse, endLabel, parseBashResult, toolView, toolViewCached, diffCounts } from "./toolview";
import { highlightLine, languageFor } from "./markdown";
import type { ContentBlock } from "../bindings/ContentBlock";

const text = (t: string): ContentBlock[] => [{ type: "text", text: t } as ContentBlock];

describe("bash results", () => {
  it("reads the exit status the tool appends on failure", () => {
    const r = parseBashResult("\u001b[31mred\u001b[0m\nmore\n[exit status: 3]", true);
    expect(r.end).toEqual({ kind: "exit", code: 3 });
    expect(r.output).toBe("\u001b[31mred\u001b[0m\nmore");
    expect(endLabel(r.end)).toBe("exit 3");
  });
  it("knows success, signals, timeouts and aborts", () => {
    expect(parseBashResult("hi\n", false)).toEqual({ end: { kind: "ok" }, output: "hi\n" });
    expect(parseBashResult("(no output)", false).output).toBe("");
    expect(parseBashResult("x\n[exit status: killed by a signal]", true).end.kind).toBe("signal");
    expect(
      parseBashResult("\n[timed out after 5 s; the command and its children were killed]", true).end.kind,
    ).toBe("timeout");
    expect(parseBashResult("\n[aborted; the command and its children were killed]", true).end.kind).toBe(
      "aborted",
    );
  });
  it("does not invent a status it cannot read", () => {
    const r = parseBashResult("cannot start bash in /x: denied", true);
    expect(r.end.kind).toBe("unknown");
    expect(r.output).toBe("cannot start bash in /x: denied");
    // A marker in the middle of the output is output, not a status.
    expect(parseBashResult("[exit status: 9]\nlater", true).end.kind).toBe("unknown");
  });
});

describe("collapse", () => {
  const lines = Array.from({ length: 50 }, (_, i) => i);
  it("shows the first lines of a long body and counts the rest", () => {
    const c = collapse(lines, false);
    expect(c.shown.length).toBe(20);
    expect(c.total).toBe(50);
    expect(c.hidden).toBe(30);
    expect(collapse(lines, true).shown.length).toBe(50);
  });
  it("does not fold a body barely over the limit", () => {
    expect(collapse(lines.slice(0, 22), false).hidden).toBe(0);
    expect(collapse(lines.slice(0, 23), false).hidden).toBe(3);
  });
});

describe("tool views", () => {
  it("diffs an edit's old and new text, highlighted by the file's extension", () => {
    const v = toolView(
      "edit",
      { path: "src/a.rs", old_string: "fn a() {}\nlet x = 1;", new_string: "fn a() {}\nlet x = 2;" },
      text("ok"),
      false,
      undefined,
      highlightLine,
    );
    expect(v.kind).toBe("diff");
    if (v.kind !== "diff") return;
    expect(v.lines.filter((l) => l.op !== " ").map((l) => `${l.op}${l.text}`)).toEqual([
      "-let x = 1;",
      "+let x = 2;",
    ]);
    expect(v.lines[0]?.html).toContain("hljs-keyword");
  });
  it("shows a write's content as added lines and says it has no previous text", () => {
    const v = toolView("write", { path: "n.txt", content: "a\nb\n" }, text("ok"), false);
    expect(v.kind === "diff" && v.lines.map((l) => l.op + l.text)).toEqual(["+a", "+b"]);
    expect(v.kind === "diff" && v.note).toContain("overwritten");
  });
  it("escapes file text it cannot highlight", () => {
    const v = toolView(
      "write",
      { path: "page.unknownext", content: "<img src=x onerror=alert(1)>" },
      text("ok"),
      false,
      undefined,
      highlightLine,
    );
    expect(v.kind === "diff" && v.lines[0]?.html).toBe("&lt;img src=x onerror=alert(1)&gt;");
    const h = toolView(
      "write",
      { path: "p.html", content: "<script>alert(1)</script>" },
      text("ok"),
      false,
      undefined,
      highlightLine,
    );
    expect(h.kind === "diff" && h.lines[0]?.html).not.toContain("<script");
  });
  it("leaves extension tools and unknown shapes plain", () => {
    expect(toolView("edit", { path: "a" }, text("ok"), false, "ext").kind).toBe("plain");
    expect(toolView("bash", { nope: 1 }, text("ok"), false).kind).toBe("plain");
    expect(toolView("read", { path: "a" }, text("ok"), false).kind).toBe("plain");
  });
  it("computes once per result", () => {
    const r = text("hi");
    const a = toolViewCached("bash", { command: "echo hi" }, r, false);
    expect(toolViewCached("bash", { command: "echo hi" }, r, false)).toBe(a);
  });
  it("maps extensions to languages", () => {
    expect(languageFor("x/y.ts")).toBe("ts");
    expect(languageFor("Makefile")).toBeUndefined();
  });
});

describe("diffCounts", () => {
  it("counts added and removed lines, not context", () => {
    expect(diffCounts([{ op: "+" }, { op: "+" }, { op: "-" }, { op: " " }])).toBe("+2 −1");
    expect(diffCounts([])).toBe("+0 −0");
  });
});
