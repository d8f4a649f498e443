import { describe, expect, it } from "vitest";
import { changelogMarkdown, sourceLine, updateFor, updateLine } from "./updates";
import { FakeBackend } from "../backend/fake";
import { AppState } from "../app.svelte";
import { ManagerState } from "./manager.svelte";

describe("sources and updates", () => {
  it("says where each kind of source came from", () => {
    expect(sourceLine(undefined)).toBeNull();
    expect(sourceLine({ kind: "folder", location: "/src/x" })).toBe("from the folder /src/x");
    expect(sourceLine({ kind: "git", location: "https://h/r.git", revision: "0123456789abcdef" })).toBe(
      "from https://h/r.git @ 0123456789ab",
    );
    expect(sourceLine({ kind: "catalog", location: "todo" })).toBe("from zot's catalog (todo)");
    expect(sourceLine({ kind: "bundle", location: "/b.zotx", revision: "ffffffffffffffff" })).toBe(
      "from the bundle /b.zotx (ffffffffffff)",
    );
  });

  it("shows old → new and finds an extension's update", () => {
    const u = { name: "todo", from: "1.0.0", to: "1.1.0", installed: false };
    expect(updateLine(u)).toBe("1.0.0 → 1.1.0");
    expect(updateFor([u], "todo")).toBe(u);
    expect(updateFor([u], "other")).toBeUndefined();
  });

  it("checks, updates one or all, and rolls back through ext_update / ext_rollback", async () => {
    const fake = new FakeBackend();
    fake.updatesAvailable = [
      { name: "todo", from: "1.0.0", to: "1.1.0", changes: ["abc fix"], installed: false },
      { name: "dusk", from: "2.0.0", to: "2.1.0", widened: ["can now use the network"], installed: false },
    ];
    const m = new ManagerState(new AppState(fake));
    await m.checkUpdates();
    expect(m.updates.map((u) => u.name)).toEqual(["todo", "dusk"]);
    expect(fake.calls.some((c) => (c.args as { type?: string; check?: boolean })?.check === true)).toBe(true);

    await m.update("todo");
    expect(m.updates.map((u) => u.name)).toEqual(["dusk"]);
    expect(m.error).toBeNull();

    await m.updateAll();
    expect(m.updates).toEqual([]);

    await m.rollback("todo");
    expect(fake.calls.some((c) => (c.args as { type?: string })?.type === "ext_rollback")).toBe(true);
    expect(m.error).toBeNull();
  });

  it("a dropped bundle opens the manager to install it, never the image path", async () => {
    const fake = new FakeBackend();
    const app = new AppState(fake);
    await app.drop(["/tmp/x/server.MCPB"]);
    expect(app.view).toBe("manager");
    expect(app.droppedBundle).toBe("/tmp/x/server.MCPB");
    expect(fake.calls.some((c) => c.method === "droppedPaths")).toBe(false);
  });
});

describe("the changelog of an update", () => {
  const u = (changes: string[]) => ({ name: "x", from: "1.0.0", to: "1.1.0", installed: false, changes });

  it("is markdown from a CHANGELOG.md, commits from git, and nothing when none was found", () => {
    const folder = { kind: "folder", location: "/src/x" } as const;
    expect(changelogMarkdown(u(["## 1.1.0", "", "- faster"]), folder)).toEqual({
      kind: "markdown",
      text: "## 1.1.0\n\n- faster",
    });
    const git = { kind: "git", location: "https://example.com/x.git" } as const;
    expect(changelogMarkdown(u(["abc123 fix #3"]), git)).toEqual({
      kind: "commits",
      lines: ["abc123 fix #3"],
    });
    expect(changelogMarkdown(u([]), folder)).toBeNull();
  });
});

describe("the daily update check", () => {
  it("asks nothing while Settings has it off, and feeds the Updates count when on", async () => {
    const fake = new FakeBackend();
    fake.extensions = [
      {
        name: "todo",
        scope: "global",
        dir: "/x/todo",
        enabled: true,
        state: "ready",
        commands: [],
        tools: [],
        shadowed: [],
        log_path: "/x/todo.log",
        restarts: 0,
        last_exit: null,
        health: { calls: 0, errors: 0, busy_ms: 0, log_bytes: 0 },
        sandboxed: false,
        kind: "extension",
      },
    ];
    fake.updatesAvailable = [
      { name: "todo", from: "1.0.0", to: "1.1.0", installed: false },
      { name: "gone", from: "1.0.0", to: "2.0.0", installed: false },
    ];
    const app = new AppState(fake);
    await app.refreshExtensions();
    await app.loadSettings();
    await app.dailyUpdateCheck();
    expect(fake.calls.some((c) => (c.args as { daily?: boolean })?.daily)).toBe(false);
    expect(app.extUpdates).toEqual([]);

    fake.settings.update_check = true;
    await app.loadSettings();
    await app.dailyUpdateCheck();
    // Only what is installed is counted (a removed one is not offered).
    expect(app.extUpdates.map((u) => u.name)).toEqual(["todo"]);
    expect(new ManagerState(app).updates.map((u) => u.name)).toEqual(["todo"]);
  });
});
