import { describe, expect, it } from "vitest";
import { FakeBackend } from "../backend/fake";
import { ProjectsState } from "./projects.svelte";
import { entries } from "../palette/palette";

describe("ProjectsState", () => {
  it("loads the current project and hides it from the recent list", async () => {
    const b = new FakeBackend();
    b.recent = [
      { path: "/work/demo", name: "demo", missing: false },
      { path: "/work/old", name: "old", missing: true },
    ];
    const p = new ProjectsState(b);
    await p.load();
    expect(p.current?.name).toBe("demo");
    expect(p.others().map((r) => r.path)).toEqual(["/work/old"]);
  });

  it("a refused folder leaves the current project and says why", async () => {
    const p = new ProjectsState(new FakeBackend());
    await p.load();
    expect(await p.open("/")).toBe(false);
    expect(p.current?.path).toBe("/work/demo");
    expect(p.error).toContain("/");
  });

  it("a cancelled picker changes nothing; a folder switches", async () => {
    const p = new ProjectsState(new FakeBackend());
    await p.load();
    expect(await p.open(null)).toBe(false);
    expect(p.error).toBeNull();
    expect(await p.open("/work/b")).toBe(true);
    expect(p.current?.name).toBe("b");
  });

  it("forget removes a row", async () => {
    const b = new FakeBackend();
    b.recent = [{ path: "/gone", name: "gone", missing: true }];
    const p = new ProjectsState(b);
    await p.load();
    await p.forget("/gone");
    expect(p.recent).toEqual([]);
  });
});

describe("palette projects", () => {
  it("offers Open folder… and each existing recent project", () => {
    const all = entries(
      [],
      [],
      false,
      [],
      [
        { path: "/a", name: "a", missing: false },
        { path: "/gone", name: "gone", missing: true },
      ],
    );
    const projects = all.filter((e) => e.group === "Projects");
    expect(projects.map((e) => e.label)).toEqual(["Open folder…", "a"]);
    expect(projects[0].action).toEqual({ kind: "project", path: null });
    expect(projects[1].action).toEqual({ kind: "project", path: "/a" });
  });
});
