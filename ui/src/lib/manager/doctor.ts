// Turns the doctor's report (the data behind `zot ext doctor --json`, a type
// generated from the protocol crate) into the text the manager shows.
import type { DoctorReport } from "../bindings/DoctorReport";
import type { Widening } from "../bindings/Widening";
import { needsReview } from "./permissions";

/** A readable report: the verdict, each extension with what went wrong and
 * where its log is, the interception chains and the names that lost. */
export function formatDoctor(r: DoctorReport): string {
  const out: string[] = [r.ok ? "✓ everything loads" : "✗ problems found"];
  for (const p of r.problems) out.push(`  ✗ ${p}`);
  out.push("");
  for (const e of r.extensions) {
    out.push(`${e.name} (${e.scope}) — ${e.state}, ${e.readiness.replace("_", "-")}`);
    if (e.error) out.push(`  error: ${e.error}`);
    if (e.setup) out.push(`  needs setup: ${e.setup}`);
    for (const w of e.warnings) out.push(`  warning: ${w}`);
    for (const t of e.tolerated ?? []) out.push(`  tolerated (works, but fix it; see docs/compat.md): ${t}`);
    out.push(`  manifest: ${e.manifest_path}`);
    out.push(`  log: ${e.log_path}`);
    for (const l of e.log_tail ?? []) out.push(`  | ${l}`);
  }
  for (const c of r.interception)
    if (c.chain.length) out.push(`intercept ${c.event}: ${c.chain.join(" → ")}`);
  for (const c of r.conflicts)
    out.push(`conflict: ${c.extension}'s ${c.kind} '${c.name}' lost to ${c.by}: ${c.reason}`);
  return out.join("\n").trim();
}

/**
 * The state badge's text. A slow first start (a `go run .` that builds for
 * 15 s) shows its elapsed time so it reads as progress, not a hang;
 * `sinceListedMs` is how long ago the list was fetched.
 */
export function stateLabel(ext: { state: string; starting_ms?: number }, sinceListedMs: number): string {
  if (ext.state !== "loading" || ext.starting_ms === undefined) return ext.state;
  const secs = Math.floor((ext.starting_ms + Math.max(0, sinceListedMs)) / 1000);
  return secs < 1 ? "starting…" : `starting… ${secs} s`;
}

/**
 * The card's health line: automatic restarts in the current 5-minute window
 * and how its last process ended; empty for one that never crashed.
 */
export function healthLine(ext: { restarts: number; last_exit: string | null }): string {
  const parts: string[] = [];
  if (ext.restarts > 0)
    parts.push(`restarted ${ext.restarts} time${ext.restarts === 1 ? "" : "s"} in the last 5 min`);
  if (ext.last_exit) parts.push(`last exit: ${ext.last_exit}`);
  return parts.join(" · ");
}

/** States of an extension that has or had a process in this load. */
export const HAD_PROCESS = ["ready", "loading", "exited", "failed", "crashed"];

/** Whether the card offers Restart: anything that has or had a process. */
export function canRestart(ext: { state: string; unaccepted?: string[]; widened?: Widening[] }): boolean {
  // One that waits for the user's yes to a change starts from the review
  // card, not from Restart.
  if (needsReview(ext)) return false;
  return HAD_PROCESS.includes(ext.state);
}

/** A byte count as people read it: `812 B`, `12 KiB`, `3.4 MiB`. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * The card's cost line from `ext_list`'s `health`: its calls, failed ones,
 * p50/p99 latency and log size; empty before its first call with no log.
 */
export function costLine(h: {
  calls: number;
  errors: number;
  p50_ms?: number;
  p99_ms?: number;
  log_bytes: number;
}): string {
  const parts: string[] = [];
  if (h.calls > 0) {
    parts.push(`${h.calls} call${h.calls === 1 ? "" : "s"}`);
    if (h.errors > 0) parts.push(`${h.errors} failed`);
    if (h.p50_ms !== undefined) parts.push(`p50 ${h.p50_ms} ms`);
    if (h.p99_ms !== undefined) parts.push(`p99 ${h.p99_ms} ms`);
  }
  if (h.log_bytes > 0) parts.push(`log ${bytes(h.log_bytes)}`);
  return parts.join(" · ");
}
