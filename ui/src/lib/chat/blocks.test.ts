import { describe, expect, it } from "vitest";
import { StreamBlocks } from "./blocks";

/** Feeds `text` in pieces of `step` characters; returns the blocks. */
function stream(text: string, step: number): { closed: string[]; open: string } {
  const b = new StreamBlocks();
  for (let i = step; i < text.length + step; i += step) b.update(text.slice(0, i));
  return { closed: [...b.closed], open: b.open };
}

const ANSWER = [
  "# Title\n",
  "A paragraph\nover two lines.\n",
  '```rust\nfn main() {\n\n    println!("blank line above");\n}\n```\n',
  "- one\n\n- two, loose\n\n  still item two\n",
  "Last paragraph.",
].join("\n");

describe("StreamBlocks", () => {
  it("closes a block at a blank line once the next block begins", () => {
    const b = new StreamBlocks();
    b.update("para one\n\n");
    expect(b.closed).toEqual([]);
    b.update("para one\n\np");
    expect(b.closed).toEqual(["para one\n\n"]);
    expect(b.open).toBe("p");
  });

  it("keeps fenced code, loose lists and indented continuations in one block", () => {
    const { closed, open } = stream(ANSWER, 1000);
    expect(closed).toEqual([
      "# Title\n\n",
      "A paragraph\nover two lines.\n\n",
      '```rust\nfn main() {\n\n    println!("blank line above");\n}\n```\n\n',
      "- one\n\n- two, loose\n\n  still item two\n\n",
    ]);
    expect(open).toBe("Last paragraph.");
  });

  it("gives the same blocks whatever the deltas' size", () => {
    const whole = stream(ANSWER, 100000);
    for (const step of [1, 2, 3, 7, 13]) expect(stream(ANSWER, step)).toEqual(whole);
  });

  it("joins back into the source exactly", () => {
    for (const step of [1, 5]) {
      const { closed, open } = stream(ANSWER, step);
      expect(closed.join("") + open).toBe(ANSWER);
    }
  });

  it("waits for enough of a line to tell a list item from a new paragraph", () => {
    const b = new StreamBlocks();
    b.update("- a\n\n1");
    expect(b.closed).toEqual([]);
    b.update("- a\n\n1.");
    expect(b.closed).toEqual([]);
    b.update("- a\n\n1. b");
    expect(b.closed).toEqual([]);
    b.update("- a\n\n1. b\n\nText");
    expect(b.closed).toEqual(["- a\n\n1. b\n\n"]);
  });

  it("closes a list at a paragraph after it", () => {
    expect(stream("- a\n- b\n\nAfter.", 1).closed).toEqual(["- a\n- b\n\n"]);
  });

  it("closes a fence only with the same marker, at least as long", () => {
    const text = "````\n```\n\nstill code\n~~~\n````\n\nafter";
    expect(stream(text, 1)).toEqual({ closed: ["````\n```\n\nstill code\n~~~\n````\n\n"], open: "after" });
  });

  it("starts over when the source is rewritten rather than extended", () => {
    const b = new StreamBlocks();
    b.update("one\n\ntwo\n\nthr");
    expect(b.closed.length).toBe(2);
    expect(b.update("other\n\nx")).toBe(true);
    expect(b.closed).toEqual(["other\n\n"]);
    expect(b.open).toBe("x");
  });

  it("does not make empty blocks of leading or repeated blank lines", () => {
    expect(stream("\n\n\na\n\n\n\nb", 1)).toEqual({ closed: ["\n\n\na\n\n\n\n"], open: "b" });
  });
});
