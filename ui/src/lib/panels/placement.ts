// Where a panel sits: the extension's `placement` is a hint, the user's
// choice (moved by the title bar's buttons or Ctrl+Shift+M, remembered by
// the backend per extension and panel id) wins. Pure, so the rules are
// tested alone; PanelsState holds the choices and App.svelte the docks.
import type { PanelPlacement } from "../bindings/PanelPlacement";

/** Where a panel can be shown: the main window's two docks, or its own OS
 * window ("window": PanelWindow.svelte, which mounts the same dock). */
export type Dock = "bottom" | "side" | "window";

/** The places a user can move a panel to, in the order the title bar and
 * Ctrl+Shift+M go through them. */
export const PLACES: readonly Dock[] = ["bottom", "side", "window"];

/** The key a choice is remembered by. */
export function choiceKey(extension: string, panelId: string): string {
  return `${extension}\u0000${panelId}`;
}

/** Where a panel sits: the user's choice, else its owner's hint. */
export function placementOf(hint: PanelPlacement, chosen: PanelPlacement | undefined): PanelPlacement {
  return chosen ?? hint;
}

/** The dock that shows a placement (every placement has its own). */
export function dockOf(placement: PanelPlacement): Dock {
  return placement === "side" || placement === "window" ? placement : "bottom";
}

/** The next place after `from` (Ctrl+Shift+M). */
export function nextPlace(from: PanelPlacement): Dock {
  const i = PLACES.indexOf(dockOf(from));
  return PLACES[(i + 1) % PLACES.length];
}

/** The side dock's width: at least 220 px, and never more than half the
 * window, so the chat keeps at least half (an 800 px window: 220–400). */
export function clampSideWidth(width: number, windowWidth: number): number {
  const max = Math.max(220, Math.floor(windowWidth / 2));
  return Math.round(Math.min(max, Math.max(220, width)));
}

/** The bottom dock's body height once the user has sized it: at least
 * three lines, and at most 60% of the window, so the transcript and the
 * editor stay on screen (a 600 px window: 64–360). */
export function clampBottomHeight(height: number, windowHeight: number): number {
  const max = Math.max(64, Math.floor(windowHeight * 0.6));
  return Math.round(Math.min(max, Math.max(64, height)));
}
