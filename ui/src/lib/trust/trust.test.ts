import { describe, expect, it } from "vitest";
import { FakeBackend } from "../backend/fake";
import { describe as describeExt, folderName, TrustState } from "./trust.svelte";
import { TrustFake } from "./trust.fake";

describe("TrustState", () => {
  it("shows the banner for an untrusted folder with waiting extensions", async () => {
    const t = new TrustState(new TrustFake());
    await t.load();
    expect(t.visible).toBe(true);
    expect(t.waiting[0].name).toBe("guard");
    t.notNow();
    expect(t.visible).toBe(false);
  });

  it("stays hidden in a trusted folder with nothing new, or one without extensions", async () => {
    const b = new TrustFake();
    b.status = { ...b.status, trusted: true, extensions: [] };
    const t = new TrustState(b);
    await t.load();
    expect(t.visible).toBe(false);
    b.status = { ...b.status, trusted: false, extensions: [] };
    await t.load();
    expect(t.visible).toBe(false);
  });

  it("shows a trusted folder's new extension, and asks again after Not now", () => {
    const t = new TrustState(new FakeBackend());
    const planted = {
      name: "x",
      dir: "/r/.zot/extensions/x",
      exec: "/r/.zot/extensions/x/run.sh",
      new: true,
    };
    t.handle({ type: "project_untrusted", dir: "/r", extensions: ["x"], details: [planted] });
    expect(t.visible).toBe(true);
    expect(t.trusted).toBe(true);
    t.notNow();
    expect(t.visible).toBe(false);
    t.handle({ type: "project_untrusted", dir: "/r", extensions: ["x"], details: [planted] });
    expect(t.visible).toBe(true);
  });

  it("takes the project_untrusted event", () => {
    const t = new TrustState(new FakeBackend());
    t.handle({ type: "ext_changed" });
    expect(t.visible).toBe(false);
    t.handle({
      type: "project_untrusted",
      dir: "/r",
      extensions: ["x"],
      details: [{ name: "x", dir: "/r/.zot/extensions/x", exec: "/r/x" }],
    });
    expect(t.visible).toBe(true);
    expect(t.dir).toBe("/r");
  });

  it("trusts and remembers, then lists the folder", async () => {
    const b = new TrustFake();
    const t = new TrustState(b);
    await t.load();
    await t.trust();
    expect(b.calls.map((c) => c.args)).toContainEqual({ type: "trust_project", remember: true });
    expect(t.message).toBe("Started guard.");
    expect(t.visible).toBe(false);
    expect(t.folders).toEqual(["/elsewhere", "/work/repo"]);
  });

  it("trusts for this run only when remember is off", async () => {
    const b = new TrustFake();
    const t = new TrustState(b);
    await t.load();
    t.remember = false;
    await t.trust();
    expect(b.calls.map((c) => c.args)).toContainEqual({ type: "trust_project", remember: false });
    expect(t.folders).toEqual(["/elsewhere"]);
  });

  it("says why a trust failed and keeps the banner", async () => {
    const b = new TrustFake();
    b.fail = true;
    const t = new TrustState(b);
    await t.load();
    await t.trust();
    expect(t.message).toContain("cannot write the trust file /h/trust.json");
    expect(t.visible).toBe(true);
    expect(t.busy).toBe(false);
  });

  it("revokes a folder and offers the banner again", async () => {
    const b = new TrustFake();
    const t = new TrustState(b);
    await t.load();
    await t.trust();
    b.status = { ...b.status, trusted: false, extensions: [{ name: "guard", dir: "/d", exec: "/d/x" }] };
    await t.revoke("/work/repo");
    expect(b.calls.map((c) => c.args)).toContainEqual({ type: "untrust_project", dir: "/work/repo" });
    expect(t.foldersMessage).toContain("stopped guard");
    expect(t.folders).toEqual(["/elsewhere"]);
    expect(t.visible).toBe(true);
  });

  it("copes with a backend that knows nothing of trust", async () => {
    const t = new TrustState(new FakeBackend());
    await t.load();
    expect(t.visible).toBe(false);
    expect(t.folders).toEqual([]);
  });
});

describe("wording", () => {
  it("names the program, the description and the shadowed global", () => {
    const line = describeExt({
      name: "guard",
      dir: "/r/g",
      exec: "/r/g/main.py",
      description: "blocks",
      shadows_global: "/h/ext/guard",
    });
    expect(line).toBe("guard: runs /r/g/main.py — blocks — shadows your global guard (/h/ext/guard)");
    expect(folderName("/a/b/repo/")).toBe("repo");
  });
});
