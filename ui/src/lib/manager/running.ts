// The "Running extensions" view's rows: every extension that has or had a
// process this run, most expensive first. "Cost" is the time the agent and
// the user spent waiting on its calls (health.busy_ms); memory and start-up
// break ties and can be chosen as the order instead.
import type { ExtensionSummary } from "../bindings/ExtensionSummary";
import { bytes, HAD_PROCESS } from "./doctor";

/** What the view can sort by. */
export type RunningOrder = "cost" | "memory" | "startup";

/** One row as the table shows it. */
export interface RunningRow {
  name: string;
  state: string;
  startup: string;
  calls: string;
  latency: string;
  busy: string;
  memory: string;
  restarts: string;
  /** Whether the row is worth a look: failed calls, restarts or a crash. */
  trouble: boolean;
}

function key(e: ExtensionSummary, order: RunningOrder): number[] {
  const busy = e.health.busy_ms ?? 0;
  const rss = e.health.rss_bytes ?? 0;
  const startup = e.startup_ms ?? 0;
  if (order === "memory") return [rss, busy, startup];
  if (order === "startup") return [startup, busy, rss];
  return [busy, rss, startup];
}

/** A duration in ms as people read it: `840 ms`, `12.4 s`, `3 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The extensions that ran, sorted by `order`, most expensive first. */
export function runningRows(exts: ExtensionSummary[], order: RunningOrder): RunningRow[] {
  return exts
    .filter((e) => HAD_PROCESS.includes(e.state))
    .map((e) => ({ e, k: key(e, order) }))
    .sort((a, b) => {
      for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return b.k[i] - a.k[i];
      return a.e.name.localeCompare(b.e.name);
    })
    .map(({ e }) => {
      const h = e.health;
      return {
        name: e.name,
        state: e.state,
        startup: e.startup_ms === undefined ? "—" : duration(e.startup_ms),
        calls: h.calls === 0 ? "—" : h.errors ? `${h.calls} (${h.errors} failed)` : String(h.calls),
        latency: h.p50_ms === undefined ? "—" : `${h.p50_ms} / ${h.p99_ms ?? h.p50_ms} ms`,
        busy: h.busy_ms ? duration(h.busy_ms) : "—",
        memory: h.rss_bytes === undefined ? "—" : bytes(h.rss_bytes),
        restarts: e.restarts ? String(e.restarts) : "—",
        trouble: h.errors > 0 || e.restarts > 0 || e.state === "crashed" || e.state === "failed",
      };
    });
}
