import { describe, expect, it } from "vitest";
import { HeightCache, anchorAt, indexAt, layout, rangeFor, scrollTopFor } from "./virtual";

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("HeightCache", () => {
  it("estimates with the fallback until a row is measured, then with the mean", () => {
    const c = new HeightCache(80);
    expect(c.get(1)).toBe(80);
    c.set(1, 40);
    c.set(2, 100);
    expect(c.estimate).toBe(70);
    expect(c.get(3)).toBe(70);
    expect(c.get(1)).toBe(40);
  });

  it("reports whether a measurement changed anything and keeps the mean right on re-measure", () => {
    const c = new HeightCache(80);
    expect(c.set(1, 40)).toBe(true);
    expect(c.set(1, 40)).toBe(false);
    expect(c.set(1, 60)).toBe(true);
    expect(c.estimate).toBe(60);
  });

  it("forgets everything on clear", () => {
    const c = new HeightCache(80);
    c.set(1, 40);
    c.clear();
    expect(c.has(1)).toBe(false);
    expect(c.estimate).toBe(80);
  });
});

describe("measurements from a hidden view", () => {
  // The chat is display: none while the manager or the settings show; its
  // mounted rows then report 0 px with no box at all.
  const list = ids(50);
  const measured = () => {
    const c = new HeightCache(80);
    for (const id of list) c.measure(id, 40, true);
    return c;
  };

  it("are not recorded, so the list keeps its height and its rows", () => {
    const c = measured();
    const before = Array.from(layout(list, c));
    for (const id of list.slice(-20)) expect(c.measure(id, 0, false)).toBe(false);
    const offsets = layout(list, c);
    expect(Array.from(offsets)).toEqual(before);
    // Back on screen at the bottom of a 400 px viewport: the viewport's and
    // the overscan's rows are mounted, not just the last one.
    const total = offsets[list.length];
    expect(rangeFor(offsets, total - 400, 400, 600)).toEqual({ start: 25, end: 50 });
  });

  it("would collapse the list to its last row if they were", () => {
    const c = measured();
    for (const id of list.slice(-20)) c.set(id, 0);
    for (const id of list.slice(0, 30)) c.set(id, 0);
    const offsets = layout(list, c);
    expect(offsets[list.length]).toBe(0);
    expect(rangeFor(offsets, 0, 400, 600)).toEqual({ start: 49, end: 50 });
  });

  it("leave the row to be measured again once it is shown", () => {
    const c = measured();
    c.measure(7, 0, false);
    expect(c.get(7)).toBe(40);
    expect(c.measure(7, 55, true)).toBe(true);
    expect(c.get(7)).toBe(55);
  });

  it("differ from a row laid out at 0 px, which is recorded", () => {
    const c = measured();
    expect(c.measure(3, 0, true)).toBe(true);
    expect(c.has(3)).toBe(true);
    expect(c.get(3)).toBe(0);
  });
});

describe("layout", () => {
  it("is the prefix sum of measured heights and the estimate", () => {
    const c = new HeightCache(50);
    c.set(2, 30);
    c.set(4, 70);
    // Unmeasured rows (1, 3) count at the mean of 30 and 70.
    expect(Array.from(layout([1, 2, 3, 4], c))).toEqual([0, 50, 80, 130, 200]);
  });

  it("of an empty list is a single zero", () => {
    expect(Array.from(layout([], new HeightCache(50)))).toEqual([0]);
  });
});

describe("indexAt", () => {
  const off = layout(ids(10), new HeightCache(100));

  it("finds the row containing a y position", () => {
    expect(indexAt(off, 0)).toBe(0);
    expect(indexAt(off, 99.5)).toBe(0);
    expect(indexAt(off, 100)).toBe(1);
    expect(indexAt(off, 950)).toBe(9);
  });

  it("clamps to the list and says -1 when it is empty", () => {
    expect(indexAt(off, -20)).toBe(0);
    expect(indexAt(off, 5000)).toBe(9);
    expect(indexAt(new Float64Array([0]), 10)).toBe(-1);
  });
});

describe("rangeFor", () => {
  const off = layout(ids(10_000), new HeightCache(100));

  it("covers the viewport plus the overscan on both sides", () => {
    // Viewport 500..1100, overscan 200: rows overlapping 300..1300.
    expect(rangeFor(off, 500, 600, 200)).toEqual({ start: 3, end: 13 });
  });

  it("stays inside the list at the top and the bottom", () => {
    expect(rangeFor(off, 0, 600, 200)).toEqual({ start: 0, end: 8 });
    const bottom = off[10_000] - 600;
    expect(rangeFor(off, bottom, 600, 200)).toEqual({ start: 9992, end: 10_000 });
  });

  it("mounts a bounded number of rows wherever the list is scrolled", () => {
    for (const top of [0, 123_456, 500_000, 999_400]) {
      const r = rangeFor(off, top, 600, 400);
      expect(r.end - r.start).toBeLessThanOrEqual(15);
    }
  });

  it("is empty for an empty list", () => {
    expect(rangeFor(new Float64Array([0]), 0, 600, 200)).toEqual({ start: 0, end: 0 });
  });

  it("handles rows of very different heights", () => {
    const c = new HeightCache(100);
    c.set(1, 2000);
    const o = layout(ids(20), c);
    // The tall first row alone fills the viewport.
    expect(rangeFor(o, 500, 600, 0)).toEqual({ start: 0, end: 1 });
  });
});

describe("anchoring", () => {
  it("round-trips a scroll position when nothing changed", () => {
    const c = new HeightCache(100);
    const off = layout(ids(50), c);
    const a = anchorAt(off, 1234);
    expect(a).toEqual({ index: 12, within: 34 });
    expect(scrollTopFor(off, a)).toBe(1234);
  });

  it("keeps the row at the top edge still when a row above it is measured", () => {
    const c = new HeightCache(100);
    const list = ids(50);
    for (const id of list) c.set(id, 100);
    const before = layout(list, c);
    const a = anchorAt(before, 1234);
    // Row 4 (above the anchor, row 13) grows by 60 px and row 21 (below it)
    // shrinks by 30 px: only the first moves the view.
    c.set(4, 160);
    c.set(21, 70);
    const after = layout(list, c);
    expect(scrollTopFor(after, a)).toBe(1234 + 60);
  });

  it("follows a change of the estimate for rows not measured yet", () => {
    const c = new HeightCache(100);
    const list = ids(100);
    const before = layout(list, c);
    const a = anchorAt(before, 5050);
    c.set(100, 40); // the estimate drops to 40 for every other row
    const after = layout(list, c);
    expect(scrollTopFor(after, a)).toBe(50 * 40 + 50);
  });

  it("clamps an anchor past the end of a shrunk list", () => {
    const c = new HeightCache(100);
    const a = anchorAt(layout(ids(50), c), 4950);
    expect(scrollTopFor(layout(ids(10), c), a)).toBe(950);
    expect(scrollTopFor(new Float64Array([0]), a)).toBe(0);
  });
});
