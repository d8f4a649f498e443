import { describe, expect, it } from "vitest";
import { clampBottomHeight, clampSideWidth, dockOf, nextPlace, placementOf } from "./placement";
import { PanelsState } from "./panels.svelte";

describe("placement", () => {
  it("takes the user's choice over the extension's hint", () => {
    expect(placementOf("side", undefined)).toBe("side");
    expect(placementOf("side", "bottom")).toBe("bottom");
    expect(placementOf("bottom", "side")).toBe("side");
  });

  it("shows each placement in its own place", () => {
    expect(dockOf("side")).toBe("side");
    expect(dockOf("bottom")).toBe("bottom");
    expect(dockOf("window")).toBe("window");
  });

  it("moves bottom to side to its own window and back by keyboard", () => {
    expect(nextPlace("bottom")).toBe("side");
    expect(nextPlace("side")).toBe("window");
    expect(nextPlace("window")).toBe("bottom");
  });

  it("keeps the side dock between 220 px and half the window", () => {
    expect(clampSideWidth(340, 800)).toBe(340);
    expect(clampSideWidth(600, 800)).toBe(400);
    expect(clampSideWidth(100, 800)).toBe(220);
    expect(clampSideWidth(300, 300)).toBe(220);
  });

  it("keeps a sized bottom dock between three lines and 60% of the window", () => {
    expect(clampBottomHeight(200, 600)).toBe(200);
    expect(clampBottomHeight(500, 600)).toBe(360);
    expect(clampBottomHeight(10, 600)).toBe(64);
    expect(clampBottomHeight(100, 80)).toBe(64);
  });
});

describe("PanelsState placement", () => {
  const now = (cb: () => void) => cb();

  it("shows each panel in the dock of its place, the user's choice first", () => {
    const p = new PanelsState(now);
    p.remember([{ extension: "todo", panel_id: "list", placement: "side" }]);
    p.open("todo", { id: "list", lines: [] });
    p.open("probe", { id: "help", lines: [], placement: "side" });
    p.open("probe", { id: "log", lines: [] });
    expect(p.inDock("side").map((x) => x.id)).toEqual(["list", "help"]);
    expect(p.inDock("bottom").map((x) => x.id)).toEqual(["log"]);
  });

  it("keeps a dock's panel on screen while the keyboard is in the other dock", () => {
    const p = new PanelsState(now);
    p.open("a", { id: "one", lines: [] });
    p.open("b", { id: "two", lines: [], placement: "side" });
    p.open("c", { id: "three", lines: [], placement: "side" });
    p.activate("two");
    p.activate("one");
    expect(p.shownIn("bottom")?.id).toBe("one");
    expect(p.shownIn("side")?.id).toBe("two");
  });

  it("moves a panel, keeps it active, and says what to remember", () => {
    const p = new PanelsState(now);
    p.open("todo", { id: "list", lines: [] });
    p.open("probe", { id: "log", lines: [] });
    expect(p.move("list", "side")).toEqual({ extension: "todo", panel_id: "list", placement: "side" });
    expect(p.activeId).toBe("list");
    expect(p.shownIn("side")?.id).toBe("list");
    expect(p.shownIn("bottom")?.id).toBe("log");
    expect(p.move("gone", "side")).toBeNull();
  });

  it("remembers per extension: another extension's panel of the same id keeps its hint", () => {
    const p = new PanelsState(now);
    p.remember([{ extension: "todo", panel_id: "list", placement: "side" }]);
    p.open("other", { id: "list", lines: [] });
    expect(p.placeOf(p.panels[0])).toBe("bottom");
  });
});
