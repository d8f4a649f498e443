import { describe, expect, it } from "vitest";
import type { CatalogRow } from "./catalog";
import { badgeOf, listRows, moveActive } from "./list";
import { extensionSummary } from "../backend/summary";

const ext = extensionSummary;

const entry = (name: string, description: string): CatalogRow => ({
  name,
  version: "1.0.0",
  description,
  registers: "",
  permissions: [],
  status: "available",
  reason: null,
  signer: "signed by zot",
});

describe("the manager's list", () => {
  const exts = [
    ext("guard", { description: "refuses dangerous bash" }),
    ext("todo", { commands: [{ name: "todo" }] }),
  ];
  const catalog = [entry("dusk", "a dark theme"), entry("weather", "the weather tool")];
  const updates = [{ name: "todo", from: "1.0.0", to: "1.1.0", installed: false }];

  it("lists installed extensions first, then the catalog, and each view its own", () => {
    const keys = (v: "all" | "installed" | "available" | "updates") =>
      listRows(exts, catalog, updates, v, "").map((r) => r.key);
    expect(keys("all")).toEqual([
      "installed:global:guard",
      "installed:global:todo",
      "catalog:dusk",
      "catalog:weather",
    ]);
    expect(keys("installed")).toEqual(["installed:global:guard", "installed:global:todo"]);
    expect(keys("available")).toEqual(["catalog:dusk", "catalog:weather"]);
    expect(keys("updates")).toEqual(["installed:global:todo"]);
  });

  it("searches names, descriptions and commands, every word", () => {
    const names = (q: string) => listRows(exts, catalog, updates, "all", q).map((r) => r.name);
    expect(names("BASH")).toEqual(["guard"]);
    expect(names("/todo")).toEqual(["todo"]);
    expect(names("dark theme")).toEqual(["dusk"]);
    expect(names("dark bash")).toEqual([]);
  });

  it("moves the active row with the arrows, Home, End and the page keys, never past an end", () => {
    expect(moveActive("ArrowDown", -1, 3)).toBe(0);
    expect(moveActive("ArrowDown", 2, 3)).toBe(2);
    expect(moveActive("ArrowUp", 0, 3)).toBe(0);
    expect(moveActive("ArrowUp", -1, 3)).toBe(2);
    expect(moveActive("End", 0, 3)).toBe(2);
    expect(moveActive("Home", 2, 3)).toBe(0);
    expect(moveActive("PageDown", 0, 30)).toBe(10);
    expect(moveActive("PageUp", 5, 30)).toBe(0);
    expect(moveActive("Enter", 0, 3)).toBeNull();
    expect(moveActive("ArrowDown", -1, 0)).toBeNull();
  });

  it("badges an extension whose program is missing as needing setup, whatever its state", () => {
    expect(badgeOf({ state: "failed", setup: "run `cargo build`" }, "failed")).toBe("needs setup");
    expect(badgeOf({ state: "disabled" }, "disabled")).toBe("disabled");
  });
});
