// Measuring the mounted rows of a windowed list (the transcript, the
// sessions sidebar): one ResizeObserver for all rows, each row known by its
// item id, every new height recorded in the list's HeightCache, except the
// zeros of a row whose view is hidden (HeightCache.measure). The list
// decides what a change means for its scroll position, so it gets a batch
// of resizes as one call.

import type { HeightCache } from "./virtual";

/** Records `entries` in `heights` under their rows' ids; true when a height changed. */
type Apply = () => boolean;

/** A Svelte action `measure` (use:measure={id}) for each mounted row, and
 * `disconnect` for the list's teardown. `onResized(apply)` runs for each
 * batch of resizes: read what you need from the layout before calling
 * `apply()`, which records the heights and says whether any changed. */
export function rowMeasure(heights: HeightCache, onResized: (apply: Apply) => void) {
  const rowIds = new WeakMap<Element, number>();
  const observer =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver((entries) =>
          onResized(() => {
            let changed = false;
            for (const e of entries) {
              const id = rowIds.get(e.target);
              if (id === undefined || !e.target.isConnected) continue;
              const h = e.borderBoxSize?.[0]?.blockSize ?? e.target.getBoundingClientRect().height;
              // A row with no box at all (its view is display: none) is not
              // measured; one laid out at 0 px is (virtual.ts).
              const shown = h > 0 || e.target.getClientRects().length > 0;
              if (heights.measure(id, h, shown)) changed = true;
            }
            return changed;
          }),
        );

  function measure(node: HTMLElement, id: number) {
    rowIds.set(node, id);
    observer?.observe(node);
    return {
      update(next: number) {
        rowIds.set(node, next);
      },
      destroy() {
        observer?.unobserve(node);
        rowIds.delete(node);
      },
    };
  }

  return { measure, disconnect: () => observer?.disconnect() };
}
