import { describe, expect, it } from "vitest";
import type { ExtensionSummary } from "../bindings/ExtensionSummary";
import { duration, runningRows } from "./running";
import { extensionSummary } from "../backend/summary";

function ext(
  name: string,
  over: Partial<ExtensionSummary>,
  health: Partial<ExtensionSummary["health"]> = {},
) {
  const e = extensionSummary(name, over);
  return { ...e, health: { ...e.health, ...health } };
}

describe("running extensions", () => {
  const list = [
    ext("cheap", { startup_ms: 900 }, { calls: 2, busy_ms: 10, rss_bytes: 90 * 1024 * 1024 }),
    ext(
      "slow",
      { startup_ms: 40 },
      { calls: 3, errors: 1, busy_ms: 4200, p50_ms: 900, p99_ms: 3000, rss_bytes: 1024 },
    ),
    ext("off", { state: "disabled" }),
    ext("never", { state: "untrusted" }),
    ext("down", { state: "crashed", restarts: 3 }),
  ];

  it("lists only what ran, most time spent first", () => {
    const rows = runningRows(list, "cost");
    expect(rows.map((r) => r.name)).toEqual(["slow", "cheap", "down"]);
    expect(rows[0]).toMatchObject({
      calls: "3 (1 failed)",
      latency: "900 / 3000 ms",
      busy: "4.2 s",
      trouble: true,
    });
    expect(rows[1]).toMatchObject({ memory: "90.0 MiB", startup: "900 ms", trouble: false });
    expect(rows[2]).toMatchObject({ memory: "—", restarts: "3", trouble: true });
  });

  it("orders by memory or start-up on request", () => {
    expect(runningRows(list, "memory").map((r) => r.name)).toEqual(["cheap", "slow", "down"]);
    expect(runningRows(list, "startup").map((r) => r.name)).toEqual(["cheap", "slow", "down"]);
  });

  it("reads durations the way people say them", () => {
    expect([duration(12), duration(12_400), duration(185_000)]).toEqual(["12 ms", "12.4 s", "3 min 5 s"]);
  });
});
