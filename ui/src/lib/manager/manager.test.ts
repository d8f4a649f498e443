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
