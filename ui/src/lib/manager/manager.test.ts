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

describe("Develop a folder…", () => {
  it("develops the picked folder and marks it as a dev folder", async () => {
    const fake = new FakeBackend();
    fake.pickFolder = () => Promise.resolve("/src/my-ext");
    const m = new ManagerState(new AppState(fake));
    await m.develop();
    expect(fake.calls.filter((c) => c.method === "develop").map((c) => c.args)).toEqual(["/src/my-ext"]);
    expect(m.developed?.dir).toBe("/src/my-ext");
    expect(m.devDirs).toEqual(["/src/my-ext"]);
    expect(m.error).toBeNull();
  });

  it("does nothing when the folder picker is cancelled", async () => {
    const fake = new FakeBackend();
    const m = new ManagerState(new AppState(fake));
    await m.develop();
    expect(fake.calls.some((c) => c.method === "develop")).toBe(false);
    expect(m.developed).toBeNull();
  });

  it("shows why a folder cannot be developed", async () => {
    const fake = new FakeBackend();
    fake.pickFolder = () => Promise.resolve("/tmp/empty");
    fake.develop = () =>
      Promise.reject({
        code: "develop",
        message: "/tmp/empty has no extension.json: pick the folder that holds it",
      });
    const m = new ManagerState(new AppState(fake));
    await m.develop();
    expect(m.error).toContain("develop failed");
    expect(m.error).toContain("has no extension.json");
    expect(m.devDirs).toEqual([]);
  });
});

describe("Restart", () => {
  it("calls ext_restart through the typed rpc and refreshes the list", async () => {
    const fake = new FakeBackend();
    const m = new ManagerState(new AppState(fake));
    await m.restart("todo");
    const rpcs = fake.calls.filter((c) => c.method === "rpc").map((c) => c.args as { type: string });
    expect(rpcs[0]).toEqual({ type: "ext_restart", name: "todo" });
    expect(rpcs.some((c) => c.type === "ext_list")).toBe(true);
    expect(m.error).toBeNull();
    expect(m.busy).toBe(false);
  });

  it("says so when the extension does not come back ready", async () => {
    const fake = new FakeBackend();
    fake.restartState = "crashed";
    const m = new ManagerState(new AppState(fake));
    await m.restart("todo");
    expect(m.error).toBe("restart todo failed: it is crashed again");
  });
});

describe("the list and the detail pane", () => {
  it("opens an install's summary in the pane of what it installed; choosing that row again shows its detail", async () => {
    const fake = new FakeBackend();
    const m = new ManagerState(new AppState(fake));
    m.source = "todo";
    await m.install();
    expect(m.selected).toBe("installed:global:todo");
    expect(m.installed?.name).toBe("todo");
    m.choose("catalog:dusk");
    expect(m.installed?.name).toBe("todo");
    m.choose("installed:global:todo");
    expect(m.installed?.name).toBe("todo");
    m.choose("installed:global:todo");
    expect(m.installed).toBeNull();
  });

  it("opens the log and the settings of an extension in its own pane", async () => {
    const fake = new FakeBackend();
    const m = new ManagerState(new AppState(fake));
    m.openLog("guard");
    expect(m.selected).toBe("installed:global:guard");
    expect(m.logFor).toBe("guard");
  });
});
