import { describe, expect, it } from "vitest";
import { NotesState } from "./notes.svelte";

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
