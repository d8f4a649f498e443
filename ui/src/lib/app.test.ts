import { describe, expect, it } from "vitest";
import { AppState } from "./app.svelte";
import { FakeBackend } from "./backend/fake";
import type { ExtensionSummary } from "./bindings/ExtensionSummary";

/** Lets every queued promise callback run (no timers: nothing else wakes). */
async function settle() {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

async function started() {
  const fake = new FakeBackend();
  const app = new AppState(fake);
  await app.start();
  return { fake, app };
}

describe("AppState", () => {
  it("clears notes on the next prompt", async () => {
    const { fake, app } = await started();
    fake.emit({
      type: "ext_notify",
      extension: "todo",
      level: "success",
      style: "success",
      message: "saved",
    });
    expect(app.notes.items).toHaveLength(1);
    await app.submit("hi");
    expect(app.notes.items).toHaveLength(0);
  });

  it("clears notes on Esc and /clear, and keeps ext errors until /clear", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_notify", extension: "a", level: "info", style: "info", message: "1" });
    app.escape();
    expect(app.notes.items).toHaveLength(0);
    fake.emit({ type: "ext_error", extension: "bad", message: "exited", log_path: "/l", exit_status: "1" });
    await app.submit("hello");
    expect(app.chat.items.some((i) => i.kind === "ext_error")).toBe(true);
    fake.emit({ type: "ext_notify", extension: "a", level: "info", style: "info", message: "2" });
    await app.submit("/clear");
    expect(app.notes.items).toHaveLength(0);
    expect(app.chat.items).toHaveLength(0);
    expect(fake.calls.some((c) => c.method === "rpc" && (c.args as { type: string }).type === "clear")).toBe(
      true,
    );
  });

  it("a crash is one row that follows supervision and reopens the panel its command had opened", async () => {
    const { fake, app } = await started();
    const todo: ExtensionSummary = {
      name: "todo",
      scope: "global",
      dir: "/x/todo",
      enabled: true,
      state: "ready",
      commands: [{ name: "todo", description: "the todo panel" }],
      tools: [],
      shadowed: [],
      log_path: "/l",
      restarts: 0,
      kind: "extension",
      last_exit: null,
      health: { calls: 0, errors: 0, log_bytes: 0, busy_ms: 0 },
      sandboxed: false,
    };
    fake.extensions = [todo];
    await app.refreshExtensions();
    await app.submit("/todo");
    fake.emit({ type: "ext_panel_open", extension: "todo", panel: { id: "p", lines: ["x"] } });
    fake.extensions = [{ ...todo, state: "exited" }];
    fake.emit({
      type: "ext_error",
      extension: "todo",
      message: "extension 'todo' exited (signal 9 (SIGKILL)); see /l",
      log_path: "/l",
      exit_status: "signal 9 (SIGKILL)",
    });
    expect(app.panels.panels).toHaveLength(0);
    const row = () => app.chat.items.filter((i) => i.kind === "ext_error");
    expect(row()).toHaveLength(1);
    expect(row()[0]).toMatchObject({ closedPanels: 1, reopen: "/todo", recovery: "none" });
    // Supervision restarts it: the same row says so, no second line.
    fake.emit({
      type: "ext_restarting",
      extension: "todo",
      attempt: 1,
      delay_ms: 1000,
      exit_status: "signal 9 (SIGKILL)",
    });
    await settle();
    expect(app.chat.items.filter((i) => i.kind === "status" && i.text.includes("restarting"))).toEqual([]);
    expect(row()[0]).toMatchObject({ recovery: "restarting", attempt: 1, delayMs: 1000 });
    fake.extensions = [todo];
    fake.emit({ type: "ext_changed" });
    await settle();
    expect(row()[0]).toMatchObject({ recovery: "back" });
    // Reopen panel runs the command again.
    const r = row()[0];
    if (r.kind === "ext_error") await app.reopenPanel(r);
    const commands = fake.calls.filter((c) => (c.args as { type?: string })?.type === "command");
    expect(commands.map((c) => (c.args as { name: string }).name)).toEqual(["todo", "todo"]);
  });

  it("a crash row's Restart asks the backend and the row follows the new state", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_error", extension: "todo", message: "gave up", log_path: "/l" });
    const row = app.chat.items.find((i) => i.kind === "ext_error");
    if (row?.kind !== "ext_error") throw new Error("no row");
    fake.restartState = "crashed";
    expect(await app.restartExtension(row)).toBe(false);
    expect(row.text).toBe("restart: it is crashed again");
  });

  it("a moved panel's place is saved and taken by the next start", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_panel_open", extension: "todo", panel: { id: "t", lines: [] } });
    await app.movePanel("t", "side");
    expect(fake.placements).toEqual([{ extension: "todo", panel_id: "t", placement: "side" }]);
    const next = new AppState(fake);
    await next.start();
    fake.emit({
      type: "ext_panel_open",
      extension: "todo",
      panel: { id: "t", lines: [], placement: "bottom" },
    });
    expect(next.panels.placeOf(next.panels.panels[0])).toBe("side");
  });

  it("remembers which panels' owners declared panel_esc", async () => {
    const { fake, app } = await started();
    fake.emit({
      type: "ext_panel_open",
      extension: "todo",
      panel: { id: "t", lines: [] },
      capabilities: ["panel_esc"],
    });
    fake.emit({ type: "ext_panel_open", extension: "probe", panel: { id: "p", lines: [] } });
    expect(app.panels.panels.map((p) => [p.id, p.escToOwner])).toEqual([
      ["t", true],
      ["p", false],
    ]);
  });

  it("closing a panel sends panel_close to its owner", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_panel_open", extension: "todo", panel: { id: "p", lines: [] } });
    app.panelKey("down");
    app.closePanel();
    await settle();
    const sent = fake.calls.filter((c) => c.method === "rpc").map((c) => c.args as { type: string });
    expect(sent.map((c) => c.type)).toContain("panel_key");
    expect(sent.map((c) => c.type)).toContain("panel_close");
  });

  it("sends panel keys and the close in the order they were pressed, one call at a time", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_panel_open", extension: "todo", panel: { id: "p", lines: [] } });
    // The backend holds the first key until every other one was pressed:
    // nothing may overtake it.
    const rpc = fake.rpc.bind(fake);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let inFlight = 0;
    let most = 0;
    fake.rpc = (async (cmd: Parameters<typeof rpc>[0]) => {
      most = Math.max(most, ++inFlight);
      if ((cmd as { text?: string }).text === "i") await held;
      inFlight--;
      return rpc(cmd);
    }) as typeof fake.rpc;
    for (const ch of "item") app.panelKey("rune", ch);
    app.closePanel();
    await settle();
    release();
    await settle();
    const sent = fake.calls
      .filter((c) => c.method === "rpc")
      .map((c) => c.args as { type: string; text?: string })
      .filter((c) => c.type.startsWith("panel_"));
    expect(sent.map((c) => c.text ?? c.type)).toEqual(["i", "t", "e", "m", "panel_close"]);
    expect(most).toBe(1);
  });

  it("sends extension commands with their canonical name and shows errors", async () => {
    const { fake, app } = await started();
    await app.submit("/nosuch");
    expect(app.chat.items.at(-1)).toMatchObject({ kind: "status", level: "error" });
    expect(fake.calls.some((c) => (c.args as { name?: string })?.name === "nosuch")).toBe(true);
  });

  it("routes insert to the editor", async () => {
    const { fake, app } = await started();
    let got = "";
    app.insertAtCursor = (t) => (got = t);
    fake.emit({ type: "ext_insert", extension: "x", text: "inserted" });
    expect(got).toBe("inserted");
  });

  it("warns when no API key is set", async () => {
    const { app } = await started();
    expect(app.chat.items[0]).toMatchObject({ kind: "status", level: "warn" });
  });

  it("shows the images sent with a prompt in its user row, and only there", async () => {
    const { app } = await started();
    const dot = { mime_type: "image/png", data: "iVBORw0KGgo=" };
    await app.submit("what is this?", [dot]);
    await Promise.resolve();
    const rows = app.chat.items.filter((i) => i.kind === "user");
    expect(rows.at(-1)).toMatchObject({ text: "what is this?", images: [dot] });
    await app.submit("and now?");
    await Promise.resolve();
    expect(app.chat.items.filter((i) => i.kind === "user").at(-1)).not.toHaveProperty("images");
  });

  it("opens a dropped folder as the project and hands dropped images to the editor", async () => {
    const { fake, app } = await started();
    const got: [number, string[]][] = [];
    app.attachImages = (images, refused) => got.push([images.length, refused]);
    fake.fileDrop?.({ type: "hover" });
    expect(app.dragging).toBe(true);
    fake.dropAnswer = { kind: "folder", path: "/work/other" };
    await app.drop(["/work/other"]);
    expect(app.projects.current?.name).toBe("other");
    const image = { name: "a.png", mime_type: "image/png", data: "AA==", bytes: 1 };
    fake.dropAnswer = { kind: "images", images: [image], refused: ["b.txt: not an image"] };
    fake.fileDrop?.({ type: "drop", paths: ["/x/a.png", "/x/b.txt"] });
    expect(app.dragging).toBe(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([[1, ["b.txt: not an image"]]]);
    fake.dropAnswer = "drop one folder to open it as the project, or image files to attach them, not both";
    await app.drop(["/a", "/b"]);
    expect(got.at(-1)).toEqual([0, [expect.stringContaining("not both")]]);
  });

  it("a refused folder drop leaves the project and says why", async () => {
    const { fake, app } = await started();
    fake.dropAnswer = { kind: "folder", path: "/missing/folder" };
    await app.drop(["/missing/folder"]);
    expect(app.projects.current?.path).toBe("/work/demo");
    expect(app.projects.error).toContain("cannot open /missing/folder");
  });
});
