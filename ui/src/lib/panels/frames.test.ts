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
    expect(frameMessage({ "zot:frame": "key", key: "Escape" })).toEqual({
      kind: "key",
      key: "Escape",
      shift: false,
    });
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

  it("bounds a page's flood and gives the burst's count once it is over", () => {
    const out = new PageOutbox();
    for (let i = 0; i < MAX_IN_FLIGHT; i++) expect(out.admit()).toBe(true);
    expect(out.admit()).toBe(false);
    out.drops.hit();
    expect(out.admit()).toBe(false);
    out.drops.hit();
    const told = [];
    for (let i = 0; i < MAX_IN_FLIGHT; i++) told.push(out.done());
    expect(told.slice(0, -1).every((n) => n === 0)).toBe(true);
    expect(told.at(-1)).toBe(2);
    expect(out.inFlight).toBe(0);
    // Nothing dropped since: nothing to say.
    expect(out.admit()).toBe(true);
    expect(out.done()).toBe(0);
  });

  it("holds an extension's messages until the page loads, in order, and bounds them", () => {
    const inbox = new PageInbox();
    for (let i = 0; i < MAX_HELD; i++) inbox.deliver(i);
    inbox.deliver("over");
    inbox.deliver("over");
    const got: unknown[] = [];
    expect(inbox.attach((d) => got.push(d))).toBe(2);
    expect(got).toEqual([...Array(MAX_HELD).keys()]);
    inbox.deliver("live");
    expect(got.at(-1)).toBe("live");
    inbox.detach();
    inbox.deliver("held");
    expect(inbox.held).toBe(1);
  });

  it("counts every drop, and each burst's once", () => {
    const d = new DropCount();
    d.hit();
    d.hit();
    expect(d.settle()).toBe(2);
    expect(d.settle()).toBe(0);
    d.hit();
    expect(d.total).toBe(3);
  });
});
