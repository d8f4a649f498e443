import { describe, expect, it } from "vitest";
import { AppState } from "./app.svelte";
import { FakeBackend } from "./backend/fake";

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

  it("closes a crashed owner's panel and says why", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_panel_open", extension: "todo", panel: { id: "p", lines: ["x"] } });
    fake.emit({ type: "ext_error", extension: "todo", message: "todo exited with status 1", log_path: "/l" });
    expect(app.panels.panels).toHaveLength(0);
    const err = app.chat.items.find((i) => i.kind === "ext_error");
    expect(err && err.kind === "ext_error" && err.text).toContain("panel was closed");
  });

  it("closing a panel sends panel_close to its owner", async () => {
    const { fake, app } = await started();
    fake.emit({ type: "ext_panel_open", extension: "todo", panel: { id: "p", lines: [] } });
    app.panelKey("down");
    app.closePanel();
    const sent = fake.calls.filter((c) => c.method === "rpc").map((c) => c.args as { type: string });
    expect(sent.map((c) => c.type)).toContain("panel_key");
    expect(sent.map((c) => c.type)).toContain("panel_close");
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
});
