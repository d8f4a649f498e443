// Where F6 / Shift+F6 move the keyboard: around a ring of the editor and
// every open panel in tab order, so focus can leave a panel (whose keys,
// Tab included, belong to its extension) without closing it. From anywhere
// else (the transcript, a button) F6 goes to the editor. Pure, so the ring
// is tested alone; App.svelte moves the focus.

/** Where the keyboard is, or goes: the editor or one panel. */
export type FocusTarget = { kind: "editor" } | { kind: "panel"; id: string };

/** The next stop after `at` (null: focus is outside the ring) going `dir`
 * (1 = F6, -1 = Shift+F6) over the editor and `panelIds`. */
export function cycleFocus(panelIds: readonly string[], at: FocusTarget | null, dir: 1 | -1): FocusTarget {
  if (at === null) return { kind: "editor" };
  const ring: FocusTarget[] = [{ kind: "editor" }, ...panelIds.map((id) => ({ kind: "panel", id }) as const)];
  const here = at.kind === "editor" ? 0 : ring.findIndex((t) => t.kind === "panel" && t.id === at.id);
  // A panel that closed meanwhile counts as the editor's place.
  const from = here < 0 ? 0 : here;
  return ring[(from + dir + ring.length) % ring.length];
}
