// Turns the host's doctor report (the data behind `zot ext doctor --json`)
// into the text the manager shows. Tolerant of missing fields, since the
// report type lives in the host crate and is not exported to TypeScript.

interface DoctorExt {
  name?: string;
  scope?: string;
  state?: string;
  readiness?: string;
  error?: string;
  warnings?: string[];
  manifest_path?: string;
  log_path?: string;
  log_tail?: string[];
}

interface DoctorReport {
  ok?: boolean;
  problems?: string[];
  extensions?: DoctorExt[];
  interception?: { event: string; chain: string[] }[];
  conflicts?: { extension: string; [k: string]: unknown }[];
}

/** A readable report; falls back to JSON for anything unexpected. */
export function formatDoctor(raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (!raw || typeof raw !== "object") return String(raw);
  const r = raw as DoctorReport;
  const out: string[] = [r.ok ? "✓ everything loads" : "✗ problems found"];
  for (const p of r.problems ?? []) out.push(`  ✗ ${p}`);
  out.push("");
  for (const e of r.extensions ?? []) {
    out.push(`${e.name} (${e.scope}) — ${e.state}${e.readiness ? `, ${e.readiness.replace("_", "-")}` : ""}`);
    if (e.error) out.push(`  error: ${e.error}`);
    for (const w of e.warnings ?? []) out.push(`  warning: ${w}`);
    if (e.manifest_path) out.push(`  manifest: ${e.manifest_path}`);
    if (e.log_path) out.push(`  log: ${e.log_path}`);
    for (const l of e.log_tail ?? []) out.push(`  | ${l}`);
  }
  for (const c of r.interception ?? [])
    if (c.chain.length) out.push(`intercept ${c.event}: ${c.chain.join(" → ")}`);
  for (const c of r.conflicts ?? []) out.push(`conflict: ${JSON.stringify(c)}`);
  return out.join("\n").trim();
}
