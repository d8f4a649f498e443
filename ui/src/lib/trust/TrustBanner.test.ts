// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import TrustBanner from "./TrustBanner.svelte";
import TrustedFolders from "./TrustedFolders.svelte";
import { TrustState } from "./trust.svelte";
import { TrustFake } from "./trust.fake";

const tick = () => new Promise((r) => setTimeout(r, 0));

async function banner() {
  const backend = new TrustFake();
  const trust = new TrustState(backend);
  await trust.load();
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(TrustBanner, { target, props: { trust } });
  flushSync();
  return { backend, trust, target, c };
}

describe("TrustBanner", () => {
  it("names what would run and whose global it shadows", async () => {
    const { target, c } = await banner();
    const text = target.textContent ?? "";
    expect(text).toContain("guard");
    expect(text).toContain("/work/repo/.zot/extensions/guard/main.py --strict");
    expect(text).toContain("blocks rm -rf");
    expect(target.querySelector("[data-test=trust-shadows]")?.textContent).toContain(
      "shadows your global guard",
    );
    unmount(c);
  });

  it("Trust and run is a keyboard-reachable button that trusts", async () => {
    const { backend, target, c } = await banner();
    const run = target.querySelector<HTMLButtonElement>("[data-test=trust-run]")!;
    expect(run.tagName).toBe("BUTTON");
    expect(run.tabIndex).toBe(0);
    run.focus();
    expect(document.activeElement).toBe(run);
    run.click();
    await tick();
    await tick();
    flushSync();
    expect(backend.calls.map((c) => c.args)).toContainEqual({ type: "trust_project", remember: true });
    expect(target.querySelector("[data-test=trust-banner]")).toBeNull();
    unmount(c);
  });

  it("Not now and Escape hide it without trusting", async () => {
    const { backend, trust, target, c } = await banner();
    target
      .querySelector("[data-test=trust-banner]")!
      .dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    flushSync();
    expect(target.querySelector("[data-test=trust-banner]")).toBeNull();
    trust.dismissed = false;
    flushSync();
    target.querySelector<HTMLButtonElement>("[data-test=trust-not-now]")!.click();
    flushSync();
    expect(target.querySelector("[data-test=trust-banner]")).toBeNull();
    expect(backend.calls.some((c) => (c.args as { type?: string })?.type === "trust_project")).toBe(false);
    unmount(c);
  });
});

describe("TrustBanner with a broken trust file", () => {
  it("names the file and the problem", async () => {
    const backend = new TrustFake();
    backend.status = { ...backend.status, problem: "the trust file /h/trust.json is corrupt (EOF)" };
    const trust = new TrustState(backend);
    await trust.load();
    const target = document.createElement("div");
    const c = mount(TrustBanner, { target, props: { trust } });
    flushSync();
    expect(target.querySelector("[data-test=trust-problem]")?.textContent).toContain(
      "/h/trust.json is corrupt",
    );
    unmount(c);
  });
});

describe("TrustedFolders", () => {
  it("lists trusted folders with a Revoke button each", async () => {
    const backend = new TrustFake();
    backend.status = { ...backend.status, trusted_dirs: ["/a", "/work/repo"] };
    const trust = new TrustState(backend);
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(TrustedFolders, { target, props: { trust } });
    await tick();
    flushSync();
    const rows = target.querySelectorAll("[data-test=trusted-folder]");
    expect([...rows].map((r) => r.getAttribute("data-dir"))).toEqual(["/a", "/work/repo"]);
    expect(rows[1].textContent).toContain("open now");
    rows[0].querySelector<HTMLButtonElement>("[data-test=trust-revoke]")!.click();
    await tick();
    await tick();
    flushSync();
    expect(backend.calls.map((c) => c.args)).toContainEqual({ type: "untrust_project", dir: "/a" });
    expect([...target.querySelectorAll("[data-test=trusted-folder]")].length).toBe(1);
    unmount(c);
  });

  it("says when nothing is trusted", async () => {
    const backend = new TrustFake();
    backend.status = { ...backend.status, trusted_dirs: [] };
    const trust = new TrustState(backend);
    const target = document.createElement("div");
    const c = mount(TrustedFolders, { target, props: { trust } });
    await tick();
    flushSync();
    expect(target.querySelector("[data-test=trusted-none]")).not.toBeNull();
    unmount(c);
  });

  it("says a trusted folder's extension is new and offers to run it", async () => {
    const backend = new TrustFake();
    backend.status = {
      ...backend.status,
      trusted: true,
      remembered: true,
      extensions: [{ ...backend.status.extensions[0], new: true }],
    };
    const trust = new TrustState(backend);
    await trust.load();
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(TrustBanner, { target, props: { trust } });
    flushSync();
    expect(target.querySelector("[data-test=trust-new]")?.textContent).toContain("appeared");
    expect(target.textContent).toContain("new");
    expect(target.querySelector("[data-test=trust-run]")?.textContent).toBe("Run them");
    expect(target.querySelector("[data-test=trust-remember]")).toBeNull();
    target.querySelector<HTMLButtonElement>("[data-test=trust-run]")!.click();
    await tick();
    expect(backend.calls.map((c) => c.args)).toContainEqual({ type: "trust_project", remember: false });
    unmount(c);
  });
});
