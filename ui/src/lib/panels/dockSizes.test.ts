import { describe, expect, it } from "vitest";
import { FakeBackend } from "../backend/fake";
import { DockSizesState, SIDE_WIDTH } from "./dockSizes.svelte";

describe("dock sizes", () => {
  it("start at the defaults, take what was remembered, and save a drag once it pauses", async () => {
    const fake = new FakeBackend();
    const fresh = new DockSizesState(fake);
    await fresh.load();
    expect([fresh.side, fresh.bottom]).toEqual([SIDE_WIDTH, null]);

    fake.docks = { side_width: 420 };
    const d = new DockSizesState(fake);
    await d.load();
    expect([d.side, d.bottom]).toEqual([420, null]);
    d.setSide(430);
    d.setSide(440.4);
    d.setBottom(200);
    await d.flush();
    expect(fake.calls.filter((c) => c.method === "setDockSizes").map((c) => c.args)).toEqual([
      { side_width: 440, bottom_height: 200 },
    ]);
    expect(fake.docks).toEqual({ side_width: 440, bottom_height: 200 });
  });
});
