// What a running extension tool call shows in its card while it works
// (`tool_progress` events, docs/rpc.md): a bar when the total is known, a
// spinner with the last message otherwise, and the output so far. The
// host already merges a flood to one event per frame and clamps the
// numbers; this side still guards against odd values so the card never
// draws a bar past its end.

/** The most partial output a card keeps, in characters: the newest part
 * (documented in docs/desktop.md "Long tool calls"). */
export const PARTIAL_KEPT = 256 * 1024;

/** Put in front of what is kept once older output was dropped. */
export const DROPPED_MARKER = "[… earlier output dropped …]\n";

/** The progress part of a card. */
export type ToolProgressState = {
  message?: string | null;
  progress?: number | null;
  total?: number | null;
  /** Output so far, newest at the end, at most [`PARTIAL_KEPT`]. */
  partial: string;
};

/** Output so far plus `more`, keeping the newest [`PARTIAL_KEPT`]. */
export function appendPartial(prev: string, more: string): string {
  const all = prev + more;
  if (all.length <= PARTIAL_KEPT) return all;
  const body = all.startsWith(DROPPED_MARKER) ? all.slice(DROPPED_MARKER.length) : all;
  return DROPPED_MARKER + body.slice(body.length - (PARTIAL_KEPT - DROPPED_MARKER.length));
}

/** A bar (`fraction` from 0 to 1) or a spinner, with its label. */
export type ProgressView =
  { kind: "bar"; fraction: number; label: string } | { kind: "spinner"; label: string };

const num = (v: number | null | undefined): number | undefined =>
  typeof v === "number" && Number.isFinite(v) ? v : undefined;

/** How a card shows `p`. */
export function progressView(p: ToolProgressState): ProgressView {
  const total = num(p.total);
  const done = num(p.progress);
  const message = p.message ?? "";
  if (total !== undefined && total > 0) {
    const fraction = Math.min(1, Math.max(0, (done ?? 0) / total));
    const count = `${fmt(Math.min(total, Math.max(0, done ?? 0)))} / ${fmt(total)}`;
    return { kind: "bar", fraction, label: message ? `${message} (${count})` : count };
  }
  const count = done !== undefined ? fmt(Math.max(0, done)) : "";
  return { kind: "spinner", label: [message, count].filter(Boolean).join(" · ") || "working…" };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
