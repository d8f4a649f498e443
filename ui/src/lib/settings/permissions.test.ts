// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import Permissions from "./Permissions.svelte";
import { FakeBackend } from "../backend/fake";
import { groupRules } from "./permissions.svelte";
import type { RememberedRule } from "../bindings/RememberedRule";

const tick = () => new Promise((r) => setTimeout(r, 0));

const rules: RememberedRule[] = [
  { kind: "tool", tool: "write", value: "allow", words: "every write call runs without asking" },
  {
    kind: "bash",
    value: "git status *",
    words: 'bash commands "git status …" with plain arguments run without asking',
  },
  {
    kind: "folder",
    tool: "write",
    value: "/srv/notes",
    words: "write runs without asking in /srv/notes and below",
  },
  {
    kind: "trust_read_only",
    extension: "web",
    value: "true",
    words: "tools web marks read-only run without asking",
  },
];

describe("Permissions", () => {
  it("groups the rules for reading and leaves empty groups out", () => {
    expect(groupRules(rules).map((g) => [g.title, g.rules.length])).toEqual([
      ["Commands", 1],
      ["Files and folders", 1],
      ["Tools", 1],
      ["Extensions", 1],
    ]);
    expect(groupRules([])).toEqual([]);
  });

  it("lists every remembered rule and revokes one", async () => {
    const backend = new FakeBackend();
    backend.rules = [...rules];
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(Permissions, { target, props: { backend } });
    await tick();
    flushSync();
    const rows = () =>
      [...target.querySelectorAll("[data-test=permission-rule]")].map((r) => r.getAttribute("data-kind"));
    expect(rows()).toEqual(["bash", "folder", "tool", "trust_read_only"]);
    const revoke = target.querySelectorAll<HTMLButtonElement>("[data-test=permission-revoke]")[1];
    expect(revoke.getAttribute("aria-label")).toBe(
      "Revoke: write runs without asking in /srv/notes and below",
    );
    revoke.click();
    await tick();
    flushSync();
    expect(rows()).toEqual(["bash", "tool", "trust_read_only"]);
    expect(target.querySelector("[data-test=permissions-message]")?.textContent).toContain("asks again");
    unmount(c);
    target.remove();
  });

  it("says when nothing is remembered", async () => {
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(Permissions, { target, props: { backend: new FakeBackend() } });
    await tick();
    flushSync();
    expect(target.querySelector("[data-test=permissions-none]")).not.toBeNull();
    unmount(c);
    target.remove();
  });
});
