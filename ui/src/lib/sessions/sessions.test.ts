import { describe, expect, it } from "vitest";
import { when } from "./sessions.svelte";

describe("session dates", () => {
  it("shows the time today, the weekday this week, else the date", () => {
    const now = new Date(2026, 11, 1, 15, 0).getTime();
    expect(when(new Date(2026, 11, 1, 9, 5).getTime(), now)).toMatch(/09.05/);
    expect(when(new Date(2026, 10, 28, 9, 5).getTime(), now)).toMatch(/^[A-Z][a-z]{2}/);
    expect(when(new Date(2025, 0, 2).getTime(), now)).toMatch(/2025/);
  });
});
