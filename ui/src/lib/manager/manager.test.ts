import { describe, expect, it } from "vitest";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import { ManagerState } from "./manager.svelte";

describe("the manager's Available section", () => {
  it("installs a catalog entry by name through the ordinary install path and shows its summary", async () => {
    const fake = new FakeBackend();
    const m = new ManagerState(new AppState(fake));
    await m.loadCatalog();
    expect(m.available.map((r) => r.name)).toEqual(["dusk", "todo"]);
    await m.installFromCatalog("todo");
    expect(fake.calls.filter((c) => c.method === "install").map((c) => c.args)).toEqual(["todo"]);
    expect(m.installed?.name).toBe("todo");
    expect(m.error).toBeNull();
  });

  it("shows a catalog that cannot be read as an error in the section, not a crash", async () => {
    const fake = new FakeBackend();
    fake.catalog = () =>
      Promise.reject({ code: "catalog", message: "cannot read the extension catalog /x: not valid JSON" });
    const m = new ManagerState(new AppState(fake));
    await m.loadCatalog();
    expect(m.available).toEqual([]);
    expect(m.catalogError).toContain("not valid JSON");
  });
});

describe("New extension…", () => {
  it("scaffolds in the picked folder and puts the result in the install field", async () => {
    const fake = new FakeBackend();
    fake.pickFolder = () => Promise.resolve("/work");
    const m = new ManagerState(new AppState(fake));
    m.draft = { name: "my-panel", lang: "typescript", panel: true };
    await m.createDraft();
    expect(fake.calls.find((c) => c.method === "newExtension")?.args).toEqual({
      name: "my-panel",
      lang: "typescript",
      panel: true,
      parent: "/work",
    });
    expect(m.created).toBe("/work/my-panel");
    expect(m.source).toBe("/work/my-panel");
    expect(m.draft).toBeNull();
  });

  it("does nothing when the folder picker is cancelled", async () => {
    const fake = new FakeBackend();
    const m = new ManagerState(new AppState(fake));
    m.draft = { name: "x", lang: "python", panel: false };
    await m.createDraft();
    expect(fake.calls.some((c) => c.method === "newExtension")).toBe(false);
    expect(m.draft).not.toBeNull();
  });
});
