import { describe, expect, it } from "vitest";
import { PanelsState } from "./panels.svelte";

function manual() {
  const queue: (() => void)[] = [];
  return { schedule: (cb: () => void) => queue.push(cb), run: () => queue.splice(0).forEach((f) => f()) };
}

describe("PanelsState", () => {
  it("opens focused, renders in place, closes", () => {
    const m = manual();
    const p = new PanelsState(m.schedule);
    p.open("todo", { id: "t", title: "Todos", lines: ["a"], footer: "esc close" });
    expect(p.focused).toBe(true);
    const obj = p.panels[0];
    p.render("t", ["b"]);
    m.run();
    expect(p.panels[0]).toBe(obj);
    expect(p.panels[0].lines).toEqual(["b"]);
    expect(p.panels[0].footer).toBe("esc close");
    p.remove("t");
    expect(p.panels).toEqual([]);
    expect(p.focused).toBe(false);
  });

  it("applies a render after a quiet frame at once and coalesces a burst into one per frame", () => {
    const m = manual();
    const p = new PanelsState(m.schedule);
    p.open("x", { id: "x", lines: [] });
    p.render("x", ["first"]);
    expect(p.panels[0].lines).toEqual(["first"]);
    expect(p.panels[0].version).toBe(1);
    for (let i = 0; i < 100; i++) p.render("x", [String(i)]);
    expect(p.panels[0].lines).toEqual(["first"]);
    m.run(); // the next frame: the burst lands as one update
    expect(p.panels[0].lines).toEqual(["99"]);
    expect(p.panels[0].version).toBe(2);
    p.render("x", ["same frame"]);
    expect(p.panels[0].version).toBe(2);
    m.run();
    expect(p.panels[0].lines).toEqual(["same frame"]);
    expect(p.panels[0].version).toBe(3);
  });

  it("applies a render at once in any frame that has not applied one yet, however soon", () => {
    const m = manual();
    const p = new PanelsState(m.schedule);
    p.open("x", { id: "x", lines: [] });
    p.render("x", ["a"]);
    m.run(); // a frame passes with nothing queued
    p.render("x", ["b"]);
    expect(p.panels[0].lines).toEqual(["b"]);
    expect(p.panels[0].version).toBe(2);
  });

  it("keeps several panels as tabs and closes a dead owner's panels", () => {
    const p = new PanelsState(manual().schedule);
    p.open("a", { id: "1", lines: [] });
    p.open("b", { id: "2", lines: [] });
    expect(p.activeId).toBe("2");
    p.activate("1");
    expect(p.active?.extension).toBe("a");
    expect(p.removeOwnedBy("a").map((x) => x.id)).toEqual(["1"]);
    expect(p.activeId).toBe("2");
  });

  it("ignores renders for unknown panels", () => {
    const m = manual();
    const p = new PanelsState(m.schedule);
    p.render("nope", ["x"]);
    m.run();
    expect(p.panels).toEqual([]);
  });

  it("keeps an HTML panel's page and its message boxes, and drops them on close", () => {
    const p = new PanelsState(manual().schedule);
    p.open("chart", { id: "c", lines: ["ignored"], html: "<p>x</p>" }, [], true);
    expect(p.panels[0].html).toBe("<p>x</p>");
    expect(p.panels[0].lines).toEqual([]);
    expect(p.panels[0].net).toBe(true);
    expect(p.inbox("c")).toBeDefined();
    expect(p.outbox("c")).toBeDefined();
    p.inbox("c")!.deliver("held");
    // A reopen is a new page: nothing held for the old one.
    p.open("chart", { id: "c", lines: [], html: "<p>y</p>" });
    expect(p.inbox("c")!.held).toBe(0);
    expect(p.panels[0].net).toBe(false);
    // Reopened with lines, it is a line panel again.
    p.open("chart", { id: "c", lines: ["a"] });
    expect(p.inbox("c")).toBeUndefined();
    p.open("chart", { id: "c", lines: [], html: "<p>z</p>" });
    p.remove("c");
    expect(p.inbox("c")).toBeUndefined();
    expect(p.outbox("c")).toBeUndefined();
  });
});
