import { describe, expect, it } from "vitest";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { UiEvent } from "../bindings/UiEvent";
import { PanelWindowState } from "./panelWindow.svelte";
import { EarlyEvents, concernsPanel, dockAfterWindow, isPanelWindow } from "./windowSync";

async function settle() {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

const open = (extension: string, id: string, lines: string[] = []): UiEvent => ({
  type: "ext_panel_open",
  extension,
  panel: { id, lines, placement: "bottom" },
  capabilities: ["panel_mouse"],
  net: false,
});
const render = (id: string, lines: string[]): UiEvent => ({
  type: "ext_panel_render",
  extension: "todo",
  panel_id: id,
  lines,
  placement: "bottom",
});
const calls = (fake: FakeBackend, method: string) =>
  fake.calls.filter((c) => c.method === method).map((c) => c.args);

describe("windowSync", () => {
  it("knows panel windows by label and where a closed window's panel goes", () => {
    expect(isPanelWindow("panel-todo-list")).toBe(true);
    expect(isPanelWindow("main")).toBe(false);
    expect(isPanelWindow(undefined)).toBe(false);
    expect(dockAfterWindow("side")).toBe("side");
    expect(dockAfterWindow("window")).toBe("bottom");
  });

  it("holds the panel events that came before the panel was known, and keeps only its own", () => {
    const early = new EarlyEvents(3);
    early.add({ type: "done" });
    early.add(render("other", ["x"]));
    early.add(open("todo", "list", ["a"]));
    early.add(render("list", ["b"]));
    early.add(render("list", ["c"]));
    expect(
      early.take("todo", "list").map((e) => (e.type === "ext_panel_render" ? e.lines[0] : e.type)),
    ).toEqual(["ext_panel_open", "b", "c"]);
    expect(early.take("todo", "list")).toEqual([]);
    expect(
      concernsPanel({ type: "ext_error", extension: "todo", message: "", log_path: "" }, "todo", "x"),
    ).toBe(true);
    expect(concernsPanel(open("other", "list"), "todo", "list")).toBe(false);
  });
});

describe("the main window's panel windows", () => {
  async function main() {
    const fake = new FakeBackend();
    const app = new AppState(fake);
    await app.start();
    return { fake, app };
  }

  it("opens a window for a panel placed in one, closes it when the panel closes, and never focuses it here", async () => {
    const { fake, app } = await main();
    app.panels.remember([{ extension: "todo", panel_id: "list", placement: "window" }]);
    fake.emit(open("todo", "list", ["one"]));
    app.windows.reconcile();
    expect(calls(fake, "panelWindowOpen")).toEqual([{ extension: "todo", panelId: "list", title: "todo" }]);
    expect(app.panels.focused).toBe(false);
    expect(app.panels.activeId).toBeNull();
    fake.note({ kind: "ready", extension: "todo", panel_id: "list" });
    await settle();
    expect(fake.synced[0].spec?.lines).toEqual(["one"]);
    expect(fake.synced[0].capabilities).toEqual(["panel_mouse"]);
    fake.emit({ type: "ext_panel_close", extension: "todo", panel_id: "list" });
    app.windows.reconcile();
    expect(calls(fake, "panelWindowClose")).toEqual([{ extension: "todo", panelId: "list" }]);
  });

  it("docks the panel, remembered, when the user closes its window, and carries out the window's move and close", async () => {
    const { fake, app } = await main();
    fake.emit(open("todo", "list"));
    await app.movePanel("list", "window");
    app.windows.reconcile();
    expect(app.panels.placeOf(app.panels.panels[0])).toBe("window");
    fake.note({ kind: "closed", extension: "todo", panel_id: "list" });
    await settle();
    expect(app.panels.placeOf(app.panels.panels[0])).toBe("bottom");
    expect(fake.placements).toEqual([{ extension: "todo", panel_id: "list", placement: "bottom" }]);

    await app.movePanel("list", "window");
    app.windows.reconcile();
    fake.note({ kind: "move", extension: "todo", panel_id: "list", placement: "side" });
    await settle();
    expect(app.panels.placeOf(app.panels.panels[0])).toBe("side");
    expect(app.panels.focused).toBe(true);
    await app.movePanel("list", "window");
    app.windows.reconcile();
    fake.note({ kind: "close", extension: "todo", panel_id: "list" });
    await settle();
    expect(app.panels.panels).toEqual([]);
    expect(calls(fake, "rpc")).toContainEqual({ type: "panel_close", panel_id: "list" });
  });

  it("keeps a crashed extension's panel window open until the panel comes back or the user closes it", async () => {
    const { fake, app } = await main();
    app.panels.remember([{ extension: "todo", panel_id: "list", placement: "window" }]);
    fake.emit(open("todo", "list"));
    app.windows.reconcile();
    fake.emit({
      type: "ext_error",
      extension: "todo",
      message: "gone",
      log_path: "/l",
      exit_status: "signal 9 (SIGKILL)",
    });
    app.windows.reconcile();
    expect(calls(fake, "panelWindowClose")).toEqual([]);
    fake.emit(open("todo", "list"));
    app.windows.reconcile();
    expect(calls(fake, "panelWindowOpen")).toHaveLength(2);
    fake.emit({ type: "ext_error", extension: "todo", message: "gone", log_path: "/l" });
    app.windows.reconcile();
    fake.note({ kind: "close", extension: "todo", panel_id: "list" });
    await settle();
    expect(calls(fake, "panelWindowClose")).toHaveLength(1);
  });
});

describe("a panel's own window", () => {
  async function panelWindow() {
    const fake = new FakeBackend();
    fake.label = "panel-todo-list";
    const w = new PanelWindowState(fake);
    await w.start();
    return { fake, w };
  }
  const theme = { name: "dark", appearance: "dark" as const, colors: {} };

  it("asks for its panel, then applies what came meanwhile on top of the snapshot", async () => {
    const { fake, w } = await panelWindow();
    expect(calls(fake, "panelWindowReady")).toHaveLength(1);
    fake.emit(render("list", ["newer"]));
    fake.emit(render("other", ["not mine"]));
    fake.sync({
      extension: "todo",
      panel_id: "list",
      spec: { id: "list", lines: ["older"] },
      capabilities: ["panel_resize"],
      net: false,
      theme,
    });
    w.panels.flush();
    expect(w.panels.panels.map((p) => p.lines)).toEqual([["newer"]]);
    expect(w.panels.placeOf(w.panels.panels[0])).toBe("window");
    expect(w.panels.shownIn("window")?.id).toBe("list");
    expect(w.panels.focused).toBe(true);
    fake.emit(render("list", ["latest"]));
    w.panels.flush();
    expect(w.panels.panels[0].lines).toEqual(["latest"]);
  });

  it("sends only its panel's input itself and asks the main window to close or move it", async () => {
    const { fake, w } = await panelWindow();
    fake.sync({
      extension: "todo",
      panel_id: "list",
      spec: { id: "list", lines: [] },
      capabilities: [],
      net: false,
      theme,
    });
    w.panelKey("rune", "a");
    await settle();
    expect(calls(fake, "rpc")).toContainEqual({
      type: "panel_key",
      panel_id: "list",
      key: "rune",
      text: "a",
    });
    w.closePanel();
    await w.movePanel("list", "side");
    expect(calls(fake, "panelWindowAction")).toEqual([
      { kind: "close" },
      { kind: "move", placement: "side" },
    ]);
    expect(w.panels.panels).toHaveLength(1);
  });

  it("says so when its extension crashes, then shows the panel again when it is reopened", async () => {
    const { fake, w } = await panelWindow();
    fake.sync({
      extension: "todo",
      panel_id: "list",
      spec: { id: "list", lines: [] },
      capabilities: [],
      net: false,
      theme,
    });
    fake.emit({
      type: "ext_error",
      extension: "todo",
      message: "x",
      log_path: "/l",
      exit_status: "signal 9 (SIGKILL)",
    });
    expect(w.panels.panels).toEqual([]);
    expect(w.gone?.what).toBe("todo stopped unexpectedly (killed), so its panel closed.");
    fake.emit({
      type: "ext_panel_close",
      extension: "todo",
      panel_id: "list",
      reason: "'todo' crashed; restarting",
    });
    expect(w.gone?.what).toBe("todo stopped unexpectedly (killed), so its panel closed.");
    fake.emit({ type: "ext_restarting", extension: "todo", attempt: 1, delay_ms: 500 });
    expect(w.gone?.next).toBe(
      "zot restarts it (attempt 1 of 3); Reopen panel in the main window's chat brings the panel back here.",
    );
    fake.emit(open("todo", "list", ["back"]));
    expect(w.gone).toBeNull();
    expect(w.panels.panels[0].lines).toEqual(["back"]);
  });
});
