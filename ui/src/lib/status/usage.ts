// The session's tokens and cost as the header shows them, from the
// `usage` event's `cumulative` totals.
import type { UsageTotals } from "../bindings/UsageTotals";

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** "12.3k in · 1.2k out · $0.0421"; cost only when the model's price is known. */
export function formatUsage(t: UsageTotals): string {
  const input = t.input + t.cache_read + t.cache_write;
  const parts = [`${compactCount(input)} in`, `${compactCount(t.output)} out`];
  if (t.cost_usd !== undefined)
    parts.push(`$${t.cost_usd < 1 ? t.cost_usd.toFixed(4) : t.cost_usd.toFixed(2)}`);
  return parts.join(" · ");
}
