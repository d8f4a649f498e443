import { describe, expect, it } from "vitest";
import { MAX_PER_EXTENSION, NotesState, WINDOW } from "./notes.svelte";

describe("NotesState", () => {
  it("keeps notes with their extension and level in order", () => {
    const n = new NotesState();
    n.notify("todo", "info", "saved");
    n.notify("guard", "warn", "careful");
    n.display("clock", "12:00");
    expect(n.items.map((x) => [x.extension, x.level, x.text, x.display])).toEqual([
      ["todo", "info", "saved", false],
      ["guard", "warn", "careful", false],
      ["clock", "info", "12:00", true],
    ]);
  });

  it("clear_notes removes only that extension's notes", () => {
    const n = new NotesState();
    n.notify("a", "info", "1");
    n.notify("b", "error", "2");
    n.display("a", "3");
    n.clearExtension("a");
    expect(n.items.map((x) => x.text)).toEqual(["2"]);
  });

  it("clearAll (next prompt, Esc, /clear) removes everything", () => {
    const n = new NotesState();
    n.notify("a", "info", "1");
    n.notify("b", "success", "2");
    n.clearAll();
    expect(n.items).toEqual([]);
  });

  it("gives every note a distinct id", () => {
    const n = new NotesState();
    n.notify("a", "info", "1");
    n.notify("a", "info", "1");
    expect(new Set(n.items.map((x) => x.id)).size).toBe(2);
  });
});

describe("NotesState under a flood", () => {
  it("keeps only the last MAX_PER_EXTENSION notes of a flooding extension", () => {
    const n = new NotesState();
    n.notify("quiet", "info", "q0");
    for (let i = 0; i < 5000; i++) n.notify("flood", "info", `f${i}`);
    n.notify("quiet", "warn", "q1");
    const flood = n.items.filter((x) => x.extension === "flood");
    expect(flood.length).toBe(MAX_PER_EXTENSION);
    expect(flood[0].text).toBe(`f${5000 - MAX_PER_EXTENSION}`);
    expect(flood.at(-1)?.text).toBe("f4999");
    // The other extension's notes are untouched, in order.
    expect(n.items.filter((x) => x.extension === "quiet").map((x) => x.text)).toEqual(["q0", "q1"]);
    expect(n.items.at(-1)?.text).toBe("q1");
  });

  it("counts again from zero after clear_notes or clearAll", () => {
    const n = new NotesState();
    for (let i = 0; i < MAX_PER_EXTENSION; i++) n.notify("a", "info", `${i}`);
    n.clearExtension("a");
    n.notify("a", "info", "fresh");
    expect(n.items.map((x) => x.text)).toEqual(["fresh"]);
    for (let i = 0; i < MAX_PER_EXTENSION; i++) n.display("b", `${i}`);
    n.clearAll();
    n.display("b", "again");
    expect(n.items.map((x) => x.text)).toEqual(["again"]);
  });

  it("renders a window of the newest notes that grows on request", () => {
    const n = new NotesState();
    for (let i = 0; i < 3 * WINDOW + 7; i++) n.notify(`e${i % 5}`, "info", `${i}`);
    expect(n.visible.length).toBe(WINDOW);
    expect(n.visible.at(-1)?.text).toBe(`${3 * WINDOW + 6}`);
    expect(n.hidden).toBe(2 * WINDOW + 7);
    n.showMore();
    expect(n.visible.length).toBe(2 * WINDOW);
    expect(n.hidden).toBe(WINDOW + 7);
    n.clearAll();
    n.notify("a", "info", "x");
    expect(n.visible.length).toBe(1);
    expect(n.hidden).toBe(0);
    expect(n.shown).toBe(WINDOW);
  });
});
