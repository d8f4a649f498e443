// `panel_resize`: a panel's text area in monospace cells, reported once
// after it opens and again when it changes, at most once per 100 ms per
// panel (the last size of a burst is sent when the 100 ms are up), and never
// when the size is the one last sent.

/** Cells that fit `width` × `height` pixels (never fewer than one). */
export function cellsOf(
  width: number,
  height: number,
  cellWidth: number,
  lineHeight: number,
): { cols: number; rows: number } {
  return {
    cols: Math.max(1, Math.floor(width / cellWidth)),
    rows: Math.max(1, Math.floor(height / lineHeight)),
  };
}

/** The contract's spacing between two frames for one panel. */
export const RESIZE_GAP_MS = 100;

interface Slot {
  sent: string | null;
  at: number;
  want: { cols: number; rows: number } | null;
  timer: unknown;
}

/** Turns every size the window measures into the frames the contract allows. */
export class ResizeReporter {
  #slots = new Map<string, Slot>();
  #send: (panelId: string, cols: number, rows: number) => void;
  #now: () => number;
  #later: (cb: () => void, ms: number) => unknown;
  #cancel: (t: unknown) => void;

  constructor(
    send: (panelId: string, cols: number, rows: number) => void,
    now: () => number = () => performance.now(),
    later: (cb: () => void, ms: number) => unknown = (cb, ms) => setTimeout(cb, ms),
    cancel: (t: unknown) => void = (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  ) {
    this.#send = send;
    this.#now = now;
    this.#later = later;
    this.#cancel = cancel;
  }

  /** The panel's text area measures `cols` × `rows` now. */
  report(panelId: string, cols: number, rows: number): void {
    let s = this.#slots.get(panelId);
    if (!s) {
      s = { sent: null, at: -Infinity, want: null, timer: null };
      this.#slots.set(panelId, s);
    }
    s.want = { cols, rows };
    if (s.timer !== null) return;
    const wait = s.at + RESIZE_GAP_MS - this.#now();
    if (wait <= 0) this.#flush(panelId, s);
    else s.timer = this.#later(() => this.#flush(panelId, s), wait);
  }

  #flush(panelId: string, s: Slot): void {
    s.timer = null;
    const w = s.want;
    s.want = null;
    if (!w || this.#slots.get(panelId) !== s) return;
    const key = `${w.cols}x${w.rows}`;
    if (key === s.sent) return;
    s.sent = key;
    s.at = this.#now();
    this.#send(panelId, w.cols, w.rows);
  }

  /** The panel closed or opened again: its next size is sent whatever it is. */
  forget(panelId: string): void {
    const s = this.#slots.get(panelId);
    if (s?.timer != null) this.#cancel(s.timer);
    this.#slots.delete(panelId);
  }
}
