import { describe, expect, it } from "vitest";
import { ResizeReporter, cellsOf } from "./resize";

function rig() {
  let now = 0;
  const timers: { at: number; cb: () => void }[] = [];
  const sent: string[] = [];
  const r = new ResizeReporter(
    (id, c, rows) => sent.push(`${id} ${c}x${rows}`),
    () => now,
    (cb, ms) => {
      const t = { at: now + ms, cb };
      timers.push(t);
      return t;
    },
    (t) => timers.splice(timers.indexOf(t as (typeof timers)[0]), 1),
  );
  const advance = (ms: number) => {
    now += ms;
    for (const t of [...timers].filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.cb();
    }
  };
  return { r, sent, advance };
}

describe("cellsOf", () => {
  it("counts whole cells, at least one", () => {
    expect(cellsOf(800, 200, 7.8, 20)).toEqual({ cols: 102, rows: 10 });
    expect(cellsOf(0, 0, 7.8, 20)).toEqual({ cols: 1, rows: 1 });
  });
});

describe("ResizeReporter", () => {
  it("sends the first size at once, then at most one per 100 ms with the last size", () => {
    const { r, sent, advance } = rig();
    r.report("p", 80, 10);
    expect(sent).toEqual(["p 80x10"]);
    r.report("p", 81, 10);
    r.report("p", 82, 10);
    advance(50);
    r.report("p", 90, 12);
    expect(sent).toEqual(["p 80x10"]);
    advance(50);
    expect(sent).toEqual(["p 80x10", "p 90x12"]);
  });

  it("sends nothing when the size did not change", () => {
    const { r, sent, advance } = rig();
    r.report("p", 80, 10);
    advance(500);
    r.report("p", 80, 10);
    r.report("q", 80, 10);
    expect(sent).toEqual(["p 80x10", "q 80x10"]);
    r.report("p", 81, 10);
    advance(100);
    r.report("p", 80, 10); // back where it was, inside the gap: one frame
    advance(200);
    expect(sent).toEqual(["p 80x10", "q 80x10", "p 81x10", "p 80x10"]);
  });

  it("sends again after a panel is forgotten (opened again)", () => {
    const { r, sent } = rig();
    r.report("p", 80, 10);
    r.forget("p");
    r.report("p", 80, 10);
    expect(sent).toEqual(["p 80x10", "p 80x10"]);
  });
});
