import { describe, expect, it } from "vitest";
import {
  DropCount,
  MAX_HELD,
  MAX_IN_FLIGHT,
  MAX_MESSAGE,
  PageInbox,
  PageOutbox,
  encodeMessage,
  frameMessage,
  frameUrl,
} from "./frames";

describe("frames", () => {
  it("loads a page from the zotpanel scheme, as each platform spells it", () => {
    expect(frameUrl("abc", false)).toBe("zotpanel://localhost/abc");
    expect(frameUrl("abc", true)).toBe("http://zotpanel.localhost/abc");
  });

  it("tells the bootstrap's keys from the page's own messages", () => {
    expect(frameMessage({ "zot:frame": "key", key: "F6", shift: true })).toEqual({
      kind: "key",
      key: "F6",
      shift: true,
    });
    expect(frameMessage({ "zot:frame": "key", key: "Escape" })).toEqual({ kind: "key", key: "Escape", shift: false });
    // Anything else, a forged marker with another key included, is the page's.
    for (const d of [{ "zot:frame": "key", key: "q" }, { "zot:frame": "theme" }, "hi", null, [1]])
      expect(frameMessage(d)).toEqual({ kind: "page", data: d });
  });

  it("sends JSON under the limit and says why it drops the rest", () => {
    expect(encodeMessage({ a: [1, "x"] })).toEqual({ ok: true, json: { a: [1, "x"] } });
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    expect(encodeMessage(cyc)).toMatchObject({ ok: false });
    expect(encodeMessage(undefined)).toMatchObject({ ok: false });
    const big = encodeMessage("x".repeat(MAX_MESSAGE));
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.why).toContain("over the limit of 262144 bytes (256 KiB)");
  });

  it("bounds a page's flood and reports it once per burst", () => {
    const out = new PageOutbox();
    for (let i = 0; i < MAX_IN_FLIGHT; i++) expect(out.admit()).toBe(true);
    expect(out.admit()).toBe(false);
    expect(out.drops.hit()).toBe(1);
    expect(out.admit()).toBe(false);
    expect(out.drops.hit()).toBeNull();
    for (let i = 0; i < MAX_IN_FLIGHT; i++) out.done();
    expect(out.inFlight).toBe(0);
    // A new burst reports again, with the running total.
    expect(out.drops.hit()).toBe(3);
  });

  it("holds an extension's messages until the page loads, in order, and bounds them", () => {
    const inbox = new PageInbox();
    for (let i = 0; i < MAX_HELD; i++) expect(inbox.deliver(i)).toBeNull();
    expect(inbox.deliver("over")).toBe(1);
    expect(inbox.deliver("over")).toBeNull();
    const got: unknown[] = [];
    inbox.attach((d) => got.push(d));
    expect(got).toEqual([...Array(MAX_HELD).keys()]);
    inbox.deliver("live");
    expect(got.at(-1)).toBe("live");
    inbox.detach();
    inbox.deliver("held");
    expect(inbox.held).toBe(1);
  });

  it("counts every drop", () => {
    const d = new DropCount();
    d.hit();
    d.hit();
    d.settle();
    d.hit();
    expect(d.total).toBe(3);
  });
});
