import { describe, expect, it } from "vitest";
import { compactCount, formatUsage } from "./usage";

describe("usage in the header", () => {
  it("shortens counts", () => {
    expect(compactCount(950)).toBe("950");
    expect(compactCount(1000)).toBe("1k");
    expect(compactCount(12_345)).toBe("12k");
    expect(compactCount(1_250)).toBe("1.3k");
    expect(compactCount(2_500_000)).toBe("2.5M");
  });
  it("counts cached input as input and shows the cost only when known", () => {
    const t = { input: 1000, output: 200, cache_read: 500, cache_write: 0 };
    expect(formatUsage(t)).toBe("1.5k in · 200 out");
    expect(formatUsage({ ...t, cost_usd: 0.04213 })).toBe("1.5k in · 200 out · $0.0421");
    expect(formatUsage({ ...t, cost_usd: 12.5 })).toBe("1.5k in · 200 out · $12.50");
  });
});
