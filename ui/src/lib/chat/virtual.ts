// The windowing math behind the transcript's virtual list, kept free of the
// DOM so it can be unit-tested. Rows have different heights: each is
// measured once it is mounted and cached by item id (never while its view
// is hidden); rows never measured count at the average of the measured ones. From those heights come the
// offsets (a prefix sum), the rows to mount for a scroll position, and the
// anchor that keeps the view still when a height above it changes.

/** Row heights measured per item id, with an estimate for the others. */
export class HeightCache {
  #heights = new Map<number, number>();
  #sum = 0;

  /** `fallback` is the estimate until a first row has been measured. */
  constructor(readonly fallback: number) {}

  /** The height assumed for a row not measured yet: the mean of the measured ones. */
  get estimate(): number {
    return this.#heights.size ? this.#sum / this.#heights.size : this.fallback;
  }

  /** The measured height of `id`, or the estimate. */
  get(id: number): number {
    return this.#heights.get(id) ?? this.estimate;
  }

  /** Whether `id` has been measured. */
  has(id: number): boolean {
    return this.#heights.has(id);
  }

  /** Records a measurement taken from a row on screen: `shown` is false
   * for a row inside a view that is not laid out (`display: none`, as the
   * chat is while the manager or the settings show). Such a row has no box
   * and measures 0, which says nothing about its height: recorded, it
   * would collapse the list to its last rows until each was mounted again.
   * So it is ignored, and the row is measured again once it is shown.
   * Returns whether it changed anything. */
  measure(id: number, height: number, shown: boolean): boolean {
    return shown && this.set(id, height);
  }

  /** Records a measurement; returns whether it changed anything. */
  set(id: number, height: number): boolean {
    const old = this.#heights.get(id);
    if (old === height) return false;
    this.#sum += height - (old ?? 0);
    this.#heights.set(id, height);
    return true;
  }

  /** Forgets every measurement (/clear). */
  clear(): void {
    this.#heights.clear();
    this.#sum = 0;
  }
}

/** `offsets[i]` is the top of row `i`; `offsets[n]` is the list's height. */
export function layout(ids: readonly number[], heights: HeightCache): Float64Array {
  const out = new Float64Array(ids.length + 1);
  const estimate = heights.estimate;
  let y = 0;
  for (let i = 0; i < ids.length; i++) {
    out[i] = y;
    y += heights.has(ids[i]) ? heights.get(ids[i]) : estimate;
  }
  out[ids.length] = y;
  return out;
}

/** The row that contains `y` (the last row starting at or above it), clamped
 * to the list; -1 for an empty list. */
export function indexAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The rows to mount, `[start, end)`: every row that overlaps the viewport
 * widened by `overscan` pixels on each side. */
export function rangeFor(
  offsets: Float64Array,
  scrollTop: number,
  viewport: number,
  overscan: number,
): { start: number; end: number } {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop - overscan);
  const bottom = scrollTop + viewport + overscan;
  const start = indexAt(offsets, top);
  let end = indexAt(offsets, bottom) + 1;
  // A row that starts exactly at `bottom` is not visible yet.
  if (end - 1 > start && offsets[end - 1] >= bottom) end--;
  return { start, end };
}

/** What the user is looking at: the row at the top edge and how far into it
 * the edge is. */
export interface Anchor {
  index: number;
  within: number;
}

/** The anchor for a scroll position. */
export function anchorAt(offsets: Float64Array, scrollTop: number): Anchor {
  const index = Math.max(0, indexAt(offsets, scrollTop));
  return { index, within: scrollTop - (offsets[index] ?? 0) };
}

/** The scroll position that puts `anchor` back at the top edge once the
 * offsets have changed (a row above it was measured, or the estimate moved),
 * so the content on screen does not jump. */
export function scrollTopFor(offsets: Float64Array, anchor: Anchor): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  const index = Math.min(anchor.index, n - 1);
  return Math.max(0, offsets[index] + anchor.within);
}
