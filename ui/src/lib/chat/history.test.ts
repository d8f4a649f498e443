import { describe, expect, it } from "vitest";
import { HistoryCursor } from "./history";

describe("HistoryCursor", () => {
  it("walks back and forth and restores the draft", () => {
    const h = new HistoryCursor();
    const e = ["one", "two"];
    expect(h.prev(e, "draft")).toBe("two");
    expect(h.prev(e, "two")).toBe("one");
    expect(h.prev(e, "one")).toBeNull();
    expect(h.next(e)).toBe("two");
    expect(h.next(e)).toBe("draft");
    expect(h.next(e)).toBeNull();
  });
});
